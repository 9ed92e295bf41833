// An array of elements whose all-zero bytes are their default value, in memory mapped straight
// from the kernel: its zero pages cost nothing until a page is touched. The access checks keep
// several such arrays per word of shared memory (access_checks.h): 65 bytes for each 4, 15 MB
// for the four workers of a cluster launch of puzzle 13, whose 227 KiB of shared memory a kernel
// uses only in part, and every launch runs in a fresh process. Filled by std::vector::assign,
// every page was written (and faulted in) at every launch: a quarter of puzzle 13's checking.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "page_size.h"

namespace engine::cpu {

template <typename T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable<T>::value && std::is_trivially_destructible<T>::value,
                "a ZeroedArray element is its bytes, and all-zero bytes are its default value");

 public:
  ZeroedArray() = default;
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;
  ~ZeroedArray() {
    if (data_) munmap(data_, capacity_ * sizeof(T));
  }

  // n elements, every one its default.
  void assign(std::size_t n) {
    size_ = 0;
    resize(n);
  }
  // From empty (after clear()): n elements, every one its default. Growing a non-empty array
  // keeps its elements.
  void resize(std::size_t n) {
    if (n > capacity_) {
      if (data_) munmap(data_, capacity_ * sizeof(T));
      void* p = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) std::abort();  // as std::vector would end, without an exception
      data_ = static_cast<T*>(p);
      capacity_ = n;
      dirty_ = 0;
    } else if (dirty_ > size_) {
      zero(size_, dirty_ < n ? dirty_ : n);
    }
    if (n > dirty_) dirty_ = n;
    size_ = n;
  }
  void clear() { size_ = 0; }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  // Elements [from, to) back to zero: whole pages given back to the kernel (zero pages again),
  // the ends cleared.
  void zero(std::size_t from, std::size_t to) {
    char* begin = reinterpret_cast<char*>(data_ + from);
    char* end = reinterpret_cast<char*>(data_ + to);
    const std::size_t page = page_size();
    char* first_page = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(begin) + page - 1) / page * page);
    char* last_page = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(end) / page * page);
    if (last_page - first_page >= static_cast<std::ptrdiff_t>(16 * page) &&
        madvise(first_page, static_cast<std::size_t>(last_page - first_page), MADV_DONTNEED) == 0) {
      std::memset(begin, 0, static_cast<std::size_t>(first_page - begin));
      std::memset(last_page, 0, static_cast<std::size_t>(end - last_page));
    } else {
      std::memset(begin, 0, static_cast<std::size_t>(end - begin));
    }
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::size_t dirty_ = 0;  // elements [0, dirty_) may have been written since they were zero
};

}  // namespace engine::cpu

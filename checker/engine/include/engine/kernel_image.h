// What a compiled kernel looks like to the engine. Each backend compiles the same kernel
// source into its own image; the build's generated glue (checker/cmake/*.in) exports one
// image per kernel and backend. Compiled by nvcc and by the host compiler alike.
#ifndef ENGINE_KERNEL_IMAGE_H_
#define ENGINE_KERNEL_IMAGE_H_

#include <cstddef>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "cuda_cpu/block_loop_names.h"
#include "cuda_cpu/kernel_parameters.h"

namespace engine {

// Calls the kernel with arguments unpacked from an array of pointers, one per parameter,
// the same array that cudaLaunchKernel takes.
using CpuInvoker = void (*)(void* const* args);

struct KernelImage {
  const char* name = "";
  const char* signature = "";  // mangled function type (typeid), compared before a launch
  CpuInvoker cpu_invoke = nullptr;
  // CPU: the kernel function itself, to find its __shared__ variables in the symbol table.
  // GPU: the __global__ function's host stub, as cudaLaunchKernel wants it.
  const void* address = nullptr;
  bool instrumented = false;  // CPU: loads and stores are reported to the engine
  const char* source = "";    // the .cu file it was compiled from
  // CPU: this thread's storage behind `extern __shared__` arrays, and its size.
  void* (*dynamic_shared)() = nullptr;
  std::size_t dynamic_shared_capacity = 0;
  const char* dynamic_shared_name = nullptr;  // as the kernel declares it: "shared"
  std::size_t dynamic_shared_element = 4;     // the size of its elements
};

// Marked for the block-loop pass (checker/engine/passes), which gives a kernel that qualifies a
// second invoker that runs its threads as loops between barriers.
template <auto Fn>
CUDA_CPU_LOOP_ENTRY void invoke_with_args(void* const* args) {
  cuda_cpu::call_kernel(Fn, args);
}

template <auto Fn>
KernelImage make_cpu_image(const char* name, bool instrumented, const char* source) {
  KernelImage image;
  image.name = name;
  image.signature = typeid(std::remove_pointer_t<decltype(Fn)>).name();
  image.cpu_invoke = &invoke_with_args<Fn>;
  image.address = reinterpret_cast<const void*>(Fn);
  image.instrumented = instrumented;
  image.source = source;
  return image;
}

template <typename Fn>
KernelImage make_gpu_image(const char* name, Fn* fn, const char* source) {
  KernelImage image;
  image.name = name;
  image.signature = typeid(Fn).name();
  image.address = reinterpret_cast<const void*>(fn);
  image.source = source;
  return image;
}

// The image of a backend that this build does not have (no CUDA toolkit).
inline KernelImage absent_image(const char* name) {
  KernelImage image;
  image.name = name;
  return image;
}

}  // namespace engine

#endif  // ENGINE_KERNEL_IMAGE_H_

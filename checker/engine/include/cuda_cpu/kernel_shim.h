// Everything a CUDA kernel source expects to find, for the CPU backend. The build includes
// this before the kernel's .cu file, so the student's file is the same bytes that nvcc
// compiles: no #ifdef in it. docs/dev/engine.md explains each choice.
// As nvcc does for every .cu file, it includes <cuda_runtime.h> (the engine's version, in
// cuda_cpu/compat) first; everything else a kernel file includes itself, at global scope.
#ifndef CUDA_CPU_KERNEL_SHIM_H_
#define CUDA_CPU_KERNEL_SHIM_H_

#include "cuda_cpu/nvcc_macros.h"  // __CUDACC__ and the version macros, before any header
#include <cuda_runtime.h>

#include "cuda_cpu/chevron.h"
#include "cuda_cpu/device_heap.h"
#include "cuda_cpu/device_functions.h"
#include "cuda_cpu/inline_ptx.h"
#include "cuda_cpu/runtime_hooks.h"
#include "cuda_cpu/vector_types.h"
#include "cuda_cpu/warp_functions.h"

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline __attribute__((always_inline))
// __noinline__ is a keyword in CUDA, and GCC's spelling of noinline inside attribute lists
// (libstdc++ 14's <string>, glibc, Boost): a macro for it would have to be valid in both
// places, and only an empty one is. The kernel build's preprocessing leaves the keyword to
// ptx_rewrite, which spells it __attribute__((noinline)) where it is a specifier
// (KERNEL_PREPROCESS_FLAGS in KernelTargets.cmake); what reads kernel files without that step
// (the editor) gets the empty macro, which changes no behaviour.
#ifndef CUDA_CPU_PTX_REWRITE_FOLLOWS
#define __noinline__
#endif
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
// One instance per worker OS thread. A worker runs one block at a time and all threads of
// that block on itself (as fibers), so this is exactly one instance per running block.
// At block scope, thread_local implies static. `used` keeps the optimizer from reasoning
// about the array as private to one thread: it is shared, and a barrier may change it.
// An alignas(...) written after __shared__ (`__shared__ alignas(128) T x[N];`) is moved to the
// front of its declaration by the build's PTX rewriting (engine/tools/shared_alignment.h),
// which looks for exactly this expansion.
#define __shared__ thread_local __attribute__((used))

namespace cuda_cpu {
// The alignment an alignas(...) argument asks for, a type's or a number: the build checks an
// extern __shared__ array's against its storage's (engine/tools/dynamic_shared_binding.h).
template <typename T>
constexpr unsigned long alignas_argument() {
  return alignof(T);
}
template <unsigned long N>
constexpr unsigned long alignas_argument() {
  return N;
}
}  // namespace cuda_cpu

#endif  // CUDA_CPU_KERNEL_SHIM_H_

// libcu++'s cuda::std on the CPU backend: the host's standard library under libcu++'s name. Kernels
// run on the CPU here, where the host's types and functions are what libcu++'s mirror on a GPU.
// Each <cuda/std/X> includes <X> and this.
#ifndef CUDA_CPU_COMPAT_CUDA_STD___CUDA_CPU_STD_H_
#define CUDA_CPU_COMPAT_CUDA_STD___CUDA_CPU_STD_H_

namespace cuda {
namespace std {
using namespace ::std;
}  // namespace std
}  // namespace cuda

#endif  // CUDA_CPU_COMPAT_CUDA_STD___CUDA_CPU_STD_H_

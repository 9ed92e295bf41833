// libcu++'s cuda::std on the CPU backend: the host's standard library under libcu++'s name. Kernels
// run on the CPU here, where the host's types and functions are what libcu++'s mirror on a GPU.
// Each <cuda/std/X> includes <X> and this.
#pragma once

namespace cuda {
namespace std {
using namespace ::std;
}  // namespace std
}  // namespace cuda

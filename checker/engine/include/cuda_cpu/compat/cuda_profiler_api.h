// <cuda_profiler_api.h> for the CPU backend: there is no profiler to start or stop, so both
// succeed and do nothing (checker/run pNN --profile is the CPU backend's profile).
#ifndef CUDA_CPU_COMPAT_CUDA_PROFILER_API_H_
#define CUDA_CPU_COMPAT_CUDA_PROFILER_API_H_

#include "cuda_cpu/runtime_api.h"

inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
inline cudaError_t cudaProfilerStop() { return cudaSuccess; }

#endif  // CUDA_CPU_COMPAT_CUDA_PROFILER_API_H_

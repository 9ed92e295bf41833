// <cuda_profiler_api.h> for the CPU backend: there is no profiler to start or stop, so both
// succeed and do nothing (checker/run pNN --profile is the CPU backend's profile).
#pragma once

#include "cuda_cpu/runtime_api.h"

inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
inline cudaError_t cudaProfilerStop() { return cudaSuccess; }

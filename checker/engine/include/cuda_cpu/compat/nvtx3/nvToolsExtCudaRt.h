// <nvtx3/nvToolsExtCudaRt.h> for the CPU backend: NVTX's names for the runtime's devices, streams
// and events, which a profiler's timeline would show. Each does nothing here, as the markers and
// ranges of nvToolsExt.h do.
#ifndef CUDA_CPU_COMPAT_NVTX3_NVTOOLSEXTCUDART_H_
#define CUDA_CPU_COMPAT_NVTX3_NVTOOLSEXTCUDART_H_

#include <cuda_runtime_api.h>

#include "nvtx3/nvToolsExt.h"

inline void nvtxNameCudaDeviceA(int, const char*) {}
inline void nvtxNameCudaDeviceW(int, const wchar_t*) {}
inline void nvtxNameCudaStreamA(cudaStream_t, const char*) {}
inline void nvtxNameCudaStreamW(cudaStream_t, const wchar_t*) {}
inline void nvtxNameCudaEventA(cudaEvent_t, const char*) {}
inline void nvtxNameCudaEventW(cudaEvent_t, const wchar_t*) {}

#endif  // CUDA_CPU_COMPAT_NVTX3_NVTOOLSEXTCUDART_H_

// <nvtx3/nvToolsExtCuda.h> for the CPU backend: NVTX's names for the driver API's devices,
// contexts, streams and events, which a profiler's timeline would show. Each does nothing here,
// as the markers and ranges of nvToolsExt.h do.
#ifndef CUDA_CPU_COMPAT_NVTX3_NVTOOLSEXTCUDA_H_
#define CUDA_CPU_COMPAT_NVTX3_NVTOOLSEXTCUDA_H_

#include <cuda.h>

#include "nvtx3/nvToolsExt.h"

inline void nvtxNameCuDeviceA(CUdevice, const char*) {}
inline void nvtxNameCuDeviceW(CUdevice, const wchar_t*) {}
inline void nvtxNameCuContextA(CUcontext, const char*) {}
inline void nvtxNameCuContextW(CUcontext, const wchar_t*) {}
inline void nvtxNameCuStreamA(CUstream, const char*) {}
inline void nvtxNameCuStreamW(CUstream, const wchar_t*) {}
inline void nvtxNameCuEventA(CUevent, const char*) {}
inline void nvtxNameCuEventW(CUevent, const wchar_t*) {}

#endif  // CUDA_CPU_COMPAT_NVTX3_NVTOOLSEXTCUDA_H_

// <nvToolsExtCuda.h> at the toolkit's include root, NVTX's version 2 location, which CUDA ships up to
// 12.8: the version 3 header (nvtx3/nvToolsExtCuda.h), as nvToolsExt.h here is.
#ifndef CUDA_CPU_COMPAT_NVTOOLSEXTCUDA_H_
#define CUDA_CPU_COMPAT_NVTOOLSEXTCUDA_H_

#include "nvtx3/nvToolsExtCuda.h"

#endif  // CUDA_CPU_COMPAT_NVTOOLSEXTCUDA_H_

// <nvToolsExtCudaRt.h> at the toolkit's include root, NVTX's version 2 location, which CUDA ships up to
// 12.8: the version 3 header (nvtx3/nvToolsExtCudaRt.h), as nvToolsExt.h here is.
#ifndef CUDA_CPU_COMPAT_NVTOOLSEXTCUDART_H_
#define CUDA_CPU_COMPAT_NVTOOLSEXTCUDART_H_

#include "nvtx3/nvToolsExtCudaRt.h"

#endif  // CUDA_CPU_COMPAT_NVTOOLSEXTCUDART_H_

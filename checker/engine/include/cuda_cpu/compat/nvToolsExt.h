// <nvToolsExt.h>, NVTX's version 2 header at the toolkit's include root, which CUDA ships up to
// 12.8 (12.9 left it, with libnvToolsExt, for the header-only version 3). Version 3 declares the
// same C functions: this is that header (nvtx3/nvToolsExt.h).
#ifndef CUDA_CPU_COMPAT_NVTOOLSEXT_H_
#define CUDA_CPU_COMPAT_NVTOOLSEXT_H_

#include "nvtx3/nvToolsExt.h"

#endif  // CUDA_CPU_COMPAT_NVTOOLSEXT_H_

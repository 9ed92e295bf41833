// <nvToolsExtCudaRt.h> at the toolkit's include root, NVTX's version 2 location, which CUDA ships up to
// 12.8: the version 3 header (nvtx3/nvToolsExtCudaRt.h), as nvToolsExt.h here is.
#pragma once

#include "nvtx3/nvToolsExtCudaRt.h"

// <nvToolsExtCuda.h> at the toolkit's include root, NVTX's version 2 location, which CUDA ships up to
// 12.8: the version 3 header (nvtx3/nvToolsExtCuda.h), as nvToolsExt.h here is.
#pragma once

#include "nvtx3/nvToolsExtCuda.h"

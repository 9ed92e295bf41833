// Included by the GPU wrapper of every kernel file, at global scope, before the file itself
// (see kernel_std_headers.h for why).
#pragma once

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "kernel_std_headers.h"

// <device_launch_parameters.h> for the CPU backend: threadIdx, blockIdx, blockDim, gridDim and
// warpSize (cuda_cpu/runtime_hooks.h: per-thread slots the engine fills at each switch).
#ifndef CUDA_CPU_COMPAT_DEVICE_LAUNCH_PARAMETERS_H_
#define CUDA_CPU_COMPAT_DEVICE_LAUNCH_PARAMETERS_H_
#define __DEVICE_LAUNCH_PARAMETERS_H__

#include "vector_types.h"
#include "cuda_cpu/runtime_hooks.h"

#endif  // CUDA_CPU_COMPAT_DEVICE_LAUNCH_PARAMETERS_H_

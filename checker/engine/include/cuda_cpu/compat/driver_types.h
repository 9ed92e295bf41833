// <driver_types.h> for the CPU backend: the runtime's types, enums and flags
// (cuda_cpu/driver_types.h). Helper headers test its guard to know that CUDA's runtime types
// are there (NVIDIA's sample helpers define checkCudaErrors only then).
#ifndef CUDA_CPU_COMPAT_DRIVER_TYPES_H_
#define CUDA_CPU_COMPAT_DRIVER_TYPES_H_
#define __DRIVER_TYPES_H__

#include "host_defines.h"
#include "cuda_cpu/driver_types.h"

#endif  // CUDA_CPU_COMPAT_DRIVER_TYPES_H_

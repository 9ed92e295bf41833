// <surface_types.h> for the CPU backend: surface objects' types. The CPU backend does not
// model surfaces (cuda_cpu/texture_types.h says what happens instead).
#ifndef CUDA_CPU_COMPAT_SURFACE_TYPES_H_
#define CUDA_CPU_COMPAT_SURFACE_TYPES_H_
#define __SURFACE_TYPES_H__

#include "driver_types.h"
#include "cuda_cpu/texture_types.h"

#endif  // CUDA_CPU_COMPAT_SURFACE_TYPES_H_

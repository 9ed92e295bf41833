// <texture_types.h> for the CPU backend: texture objects' types. The CPU backend does not
// model textures (cuda_cpu/texture_types.h says what happens instead).
#ifndef CUDA_CPU_COMPAT_TEXTURE_TYPES_H_
#define CUDA_CPU_COMPAT_TEXTURE_TYPES_H_
#define __TEXTURE_TYPES_H__

#include "driver_types.h"
#include "cuda_cpu/texture_types.h"

#endif  // CUDA_CPU_COMPAT_TEXTURE_TYPES_H_

// <vector_types.h> for the CPU backend: dim3, uint3 and the vector types (char1 ... double4).
#ifndef CUDA_CPU_COMPAT_VECTOR_TYPES_H_
#define CUDA_CPU_COMPAT_VECTOR_TYPES_H_
#define __VECTOR_TYPES_H__

#include "host_defines.h"
#include "cuda_cpu/vector_types.h"

#endif  // CUDA_CPU_COMPAT_VECTOR_TYPES_H_

// <vector_functions.h> for the CPU backend: make_int2, make_float4 and the rest (defined with
// their types, in cuda_cpu/vector_types.h).
#ifndef CUDA_CPU_COMPAT_VECTOR_FUNCTIONS_H_
#define CUDA_CPU_COMPAT_VECTOR_FUNCTIONS_H_
#define __VECTOR_FUNCTIONS_H__

#include "vector_types.h"

#endif  // CUDA_CPU_COMPAT_VECTOR_FUNCTIONS_H_

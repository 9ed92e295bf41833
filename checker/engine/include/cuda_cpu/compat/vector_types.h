// <vector_types.h> for the CPU backend: dim3, uint3 and the vector types (char1 ... double4).
#pragma once
#define __VECTOR_TYPES_H__

#include "host_defines.h"
#include "cuda_cpu/vector_types.h"

// <builtin_types.h> for the CPU backend: every type header of the runtime, as CUDA groups them.
#ifndef CUDA_CPU_COMPAT_BUILTIN_TYPES_H_
#define CUDA_CPU_COMPAT_BUILTIN_TYPES_H_

#include "device_types.h"
#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"
#include "vector_types.h"

#endif  // CUDA_CPU_COMPAT_BUILTIN_TYPES_H_

// <cuda_runtime_api.h> for the CPU backend: the runtime's C API, its types and CUDART_VERSION
// (cuda_cpu/runtime_api.h), as a host .cpp file that includes only this header sees them.
#ifndef CUDA_CPU_COMPAT_CUDA_RUNTIME_API_H_
#define CUDA_CPU_COMPAT_CUDA_RUNTIME_API_H_
#define __CUDA_RUNTIME_API_H__

#include "host_defines.h"
#include "builtin_types.h"
#include "cuda_cpu/runtime_api.h"

#endif  // CUDA_CPU_COMPAT_CUDA_RUNTIME_API_H_

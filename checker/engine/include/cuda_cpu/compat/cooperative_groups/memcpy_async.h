// <cooperative_groups/memcpy_async.h> for the CPU backend: cooperative_groups.h says what of it the
// CPU backend has, and what it refuses by name.
#ifndef CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H_
#define CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H_

#include "../cooperative_groups.h"

#endif  // CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H_

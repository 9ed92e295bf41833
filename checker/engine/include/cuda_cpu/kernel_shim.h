// Everything a CUDA kernel source expects to find, for the CPU backend. The build includes
// this before the kernel's .cu file, so the student's file is the same bytes that nvcc
// compiles: no #ifdef in it. docs/dev/engine.md explains each choice.
#pragma once

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <math.h>

#include "cuda_cpu/device_functions.h"
#include "cuda_cpu/runtime_hooks.h"
#include "cuda_cpu/vector_types.h"

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
// One instance per worker OS thread. A worker runs one block at a time and all threads of
// that block on itself (as fibers), so this is exactly one instance per running block.
// At block scope, thread_local implies static.
#define __shared__ thread_local

#define threadIdx (::cuda_cpu_current_thread->thread_idx)
#define blockIdx (::cuda_cpu_current_thread->block_idx)
#define blockDim (::cuda_cpu_current_thread->block_dim)
#define gridDim (::cuda_cpu_current_thread->grid_dim)
static constexpr int warpSize = 32;

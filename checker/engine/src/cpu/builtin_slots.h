// The storage behind CUDA's built-in variables (threadIdx, blockIdx, blockDim, gridDim).
// Kernels see them as `extern __thread const uint3 threadIdx` (cuda_cpu/runtime_hooks.h);
// the engine writes them under other C++ names bound to the same symbols, so that both
// declarations can live in one translation unit.
#pragma once

#include "cuda_cpu/vector_types.h"

namespace engine::cpu {

extern __thread uint3 builtin_thread_idx __asm__("threadIdx");
extern __thread uint3 builtin_block_idx __asm__("blockIdx");
extern __thread uint3 builtin_block_dim __asm__("blockDim");
extern __thread uint3 builtin_grid_dim __asm__("gridDim");

}  // namespace engine::cpu

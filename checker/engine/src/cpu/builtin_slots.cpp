#include "builtin_slots.h"

namespace engine::cpu {

__thread uint3 builtin_thread_idx __asm__("threadIdx") = {};
__thread uint3 builtin_block_idx __asm__("blockIdx") = {};
__thread uint3 builtin_block_dim __asm__("blockDim") = {};
__thread uint3 builtin_grid_dim __asm__("gridDim") = {};

}  // namespace engine::cpu

// What cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)
// allowed each kernel on the CPU backend, whether the checker or the kernel file asked.
#pragma once

#include <cstddef>

namespace engine::cpu {

void allow_dynamic_shared(const void* kernel, std::size_t bytes);
std::size_t allowed_dynamic_shared(const void* kernel);  // 0: never raised

}  // namespace engine::cpu

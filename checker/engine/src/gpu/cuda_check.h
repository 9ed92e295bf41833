// Every CUDA runtime call goes through CUDA_CHECK: a failure becomes an engine::Error that
// names the call's file and line and CUDA's own description.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "engine/backend.h"

namespace engine::gpu {

inline std::string cuda_error_text(cudaError_t e) {
  return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
}

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line) {
  throw Error(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + cuda_error_text(e));
}

}  // namespace engine::gpu

#define CUDA_CHECK(call)                                                              \
  do {                                                                                \
    cudaError_t cuda_check_status_ = (call);                                          \
    if (cuda_check_status_ != cudaSuccess)                                            \
      ::engine::gpu::throw_cuda_error(cuda_check_status_, #call, __FILE__, __LINE__); \
  } while (0)

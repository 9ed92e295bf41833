// This build has no CUDA toolkit: the GPU backend does not exist.
#include "gpu_backend.h"

namespace engine::gpu {

bool built() { return false; }

GpuUnavailable availability() { return {GpuUnavailable::Why::not_built, ""}; }

std::string unavailable_reason() {
  return "this build has no GPU backend (it was configured without the CUDA toolkit)";
}

std::unique_ptr<Backend> make_gpu_backend(const BackendSettings&) { throw Error(unavailable_reason()); }

}  // namespace engine::gpu

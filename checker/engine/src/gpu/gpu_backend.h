// The GPU backend, built only when the CUDA toolkit is found (no_gpu.cpp otherwise).
#pragma once

#include <memory>
#include <string>

#include "engine/backend.h"

namespace engine::gpu {

bool built();
GpuUnavailable availability();
std::string unavailable_reason();  // empty when a device can be used
std::unique_ptr<Backend> make_gpu_backend(const BackendSettings& settings);

}  // namespace engine::gpu

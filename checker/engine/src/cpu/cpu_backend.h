#pragma once

#include <memory>

#include "engine/backend.h"

namespace engine::cpu {

std::unique_ptr<Backend> make_cpu_backend();

}  // namespace engine::cpu

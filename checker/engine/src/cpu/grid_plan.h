// Everything the workers of one CPU-backend launch need, prepared before the grid starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/backend.h"
#include "engine/kernel_image.h"
#include "launch_report.h"
#include "shared_layout.h"

namespace engine::cpu {

struct GridPlan {
  const KernelImage* kernel = nullptr;
  void* const* args = nullptr;
  LaunchConfig config;
  RunOptions options;
  std::vector<SharedVariable> shared;  // the kernel's own __shared__ variables
  LaunchReport* report = nullptr;
  std::uint64_t blocks = 0;
  unsigned threads_per_block = 0;
};

// Thrown inside a CUDA thread to end it early: it made a fatal mistake, or its block is
// being stopped. Caught where the thread's fiber calls the kernel.
struct ThreadAborted {};

}  // namespace engine::cpu

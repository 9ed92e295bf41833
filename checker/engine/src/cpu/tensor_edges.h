// Tensor copies whose boxes hung over the tensor's edges, per source location (CPU backend,
// every launch): legal, the hardware zero-fills a load's elements outside the tensor and
// leaves out a store's, so these are notes for --explain, not findings. The PTX interpreter
// tells each box as it is issued (ptx/tensor_edge_hooks.cpp); the launch's report carries
// them to the parent (LaunchResult::tensor_edges).
#pragma once

#include <cstdint>
#include <map>
#include <tuple>

#include "access_checks.h"

namespace cuda_cpu {
struct EmulatedTensorMap;
}

namespace engine::cpu {

struct LaunchReport;

class TensorEdges {
 public:
  // One box of a tensor copy as issued (a multicast load once), at `coordinate` (the map's
  // rank of them, innermost first), by a thread of `block`.
  void box(Site site, bool store, const cuda_cpu::EmulatedTensorMap& map, const std::int64_t* coordinate,
           std::uint64_t block);

  // Adds this worker's counts to the launch's report (under its lock).
  void fold_into(LaunchReport& report) const;

 private:
  struct Line {
    std::uint64_t boxes = 0, boxes_over_edge = 0, elements_outside = 0;
    std::int32_t slot = -1;
    std::uint8_t rank = 0;
    std::uint32_t dims[5] = {}, box[5] = {};
    std::int64_t first_box[5] = {};
    std::uint64_t first_block = 0;  // valid once boxes_over_edge > 0
  };
  // (site, store, the tensor's global address)
  std::map<std::tuple<Site, bool, std::uint64_t>, Line> lines_;
};

}  // namespace engine::cpu

// The launch checks that both backends make before running anything: CUDA's rules, reported
// as the rule broken and its numbers (the checker words them).
#include <string>

#include "engine/backend.h"

namespace engine {

const char* to_string(LaunchRejection::Why why) {
  using W = LaunchRejection::Why;
  switch (why) {
    case W::none: return "none";
    case W::empty_grid: return "empty_grid";
    case W::empty_block: return "empty_block";
    case W::too_many_threads: return "too_many_threads";
    case W::block_too_large: return "block_too_large";
    case W::grid_too_large: return "grid_too_large";
    case W::static_shared_too_large: return "static_shared_too_large";
    case W::dynamic_shared_too_large: return "dynamic_shared_too_large";
    case W::shared_too_large: return "shared_too_large";
    case W::attribute_too_large: return "attribute_too_large";
    case W::no_extern_shared: return "no_extern_shared";
    case W::registers_limit_threads: return "registers_limit_threads";
    case W::launch_failed: return "launch_failed";
    case W::tensor_map_refused: return "tensor_map_refused";
    case W::empty_cluster: return "empty_cluster";
    case W::cluster_too_large: return "cluster_too_large";
    case W::grid_not_whole_clusters: return "grid_not_whole_clusters";
  }
  return "?";
}

const char* to_string(Finding::Misuse misuse) {
  using M = Finding::Misuse;
  switch (misuse) {
    case M::other: return "other";
    case M::own_lane_not_in_mask: return "own_lane_not_in_mask";
    case M::source_lane_not_in_mask: return "source_lane_not_in_mask";
    case M::bad_shuffle_width: return "bad_shuffle_width";
    case M::wmma_arguments_differ: return "wmma_arguments_differ";
    case M::wmma_pointer_misaligned: return "wmma_pointer_misaligned";
    case M::wmma_bad_ldm: return "wmma_bad_ldm";
    case M::wmma_partial_warp: return "wmma_partial_warp";
  }
  return "other";
}

namespace {

LaunchRejection rejection(LaunchRejection::Why why, const std::string& kernel) {
  LaunchRejection r;
  r.why = why;
  r.kernel = kernel;
  return r;
}

}  // namespace

LaunchRejection check_max_dynamic_shared(std::size_t bytes, const DeviceLimits& limits, const std::string& kernel) {
  if (bytes <= limits.max_shared_optin) return {};
  LaunchRejection r = rejection(LaunchRejection::Why::attribute_too_large, kernel);
  r.requested = bytes;
  r.limit = limits.max_shared_optin;
  return r;
}

LaunchRejection check_launch_config(const LaunchConfig& c, const DeviceLimits& limits, std::size_t static_shared,
                                    std::size_t max_dynamic_shared, const std::string& kernel) {
  using W = LaunchRejection::Why;
  auto shaped = [&](W why, const Dim3& shape, const Dim3& limit_shape) {
    LaunchRejection r = rejection(why, kernel);
    r.shape = shape;
    r.limit_shape = limit_shape;
    return r;
  };
  if (c.grid.count() == 0) return shaped(W::empty_grid, c.grid, {});
  if (c.block.count() == 0) return shaped(W::empty_block, c.block, {});
  if (c.block.count() > limits.max_threads_per_block) {
    LaunchRejection r = shaped(W::too_many_threads, c.block, {});
    r.requested = c.block.count();
    r.limit = limits.max_threads_per_block;
    return r;
  }
  if (c.block.x > limits.max_block.x || c.block.y > limits.max_block.y || c.block.z > limits.max_block.z)
    return shaped(W::block_too_large, c.block, limits.max_block);
  if (c.grid.x > limits.max_grid.x || c.grid.y > limits.max_grid.y || c.grid.z > limits.max_grid.z)
    return shaped(W::grid_too_large, c.grid, limits.max_grid);
  if (c.cluster.count() == 0) return shaped(W::empty_cluster, c.cluster, {});
  if (c.cluster.count() > limits.max_cluster_blocks) {
    LaunchRejection r = shaped(W::cluster_too_large, c.cluster, {});
    r.requested = c.cluster.count();
    r.limit = limits.max_cluster_blocks;
    return r;
  }
  if (c.grid.x % c.cluster.x || c.grid.y % c.cluster.y || c.grid.z % c.cluster.z) {
    LaunchRejection r = shaped(W::grid_not_whole_clusters, c.grid, {});
    r.cluster = c.cluster;
    return r;
  }
  if (static_shared > limits.max_shared_per_block) {
    LaunchRejection r = rejection(W::static_shared_too_large, kernel);
    r.requested = static_shared;
    r.limit = limits.max_shared_per_block;
    return r;
  }
  std::size_t dynamic_limit = max_dynamic_shared ? max_dynamic_shared : limits.max_shared_per_block - static_shared;
  if (c.dynamic_shared_bytes > dynamic_limit) {
    LaunchRejection r = rejection(W::dynamic_shared_too_large, kernel);
    r.requested = c.dynamic_shared_bytes;
    r.static_shared = static_shared;
    r.limit = dynamic_limit;
    r.attribute_would_help = !max_dynamic_shared && static_shared + c.dynamic_shared_bytes <= limits.max_shared_optin;
    return r;
  }
  if (static_shared + c.dynamic_shared_bytes > limits.max_shared_optin) {
    LaunchRejection r = rejection(W::shared_too_large, kernel);
    r.requested = c.dynamic_shared_bytes;
    r.static_shared = static_shared;
    r.limit = limits.max_shared_optin;
    return r;
  }
  return {};
}

}  // namespace engine

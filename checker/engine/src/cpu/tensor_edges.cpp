#include "tensor_edges.h"

#include "cuda_cpu/tensor_map.h"
#include "device_arena.h"
#include "launch_report.h"

namespace engine::cpu {
namespace {

// The elements of a box at `coordinate` that lie outside the tensor (0: the box is inside).
std::uint64_t elements_outside(const cuda_cpu::EmulatedTensorMap& map, const std::int64_t* coordinate) {
  // Per dimension, the box's indices that land inside the tensor (with the map's element
  // strides, as the copy itself walks them); the box's inside is their product.
  std::uint64_t all = 1, inside = 1;
  for (unsigned d = 0; d < map.rank; ++d) {
    std::uint64_t in = 0;
    for (unsigned i = 0; i < map.box[d]; ++i) {
      std::int64_t c = coordinate[d] + static_cast<std::int64_t>(i) * map.element_strides[d];
      if (c >= 0 && c < static_cast<std::int64_t>(map.dims[d])) ++in;
    }
    all *= map.box[d];
    inside *= in;
  }
  return all - inside;
}

}  // namespace

void TensorEdges::box(Site site, bool store, const cuda_cpu::EmulatedTensorMap& map, const std::int64_t* coordinate,
                      std::uint64_t block) {
  auto [it, added] = lines_.try_emplace({site, store, map.global_address});
  Line& line = it->second;
  if (added) {
    line.rank = map.rank;
    for (unsigned d = 0; d < map.rank && d < 5; ++d) {
      line.dims[d] = map.dims[d];
      line.box[d] = map.box[d];
    }
    const DeviceArena& arena = DeviceArena::instance();
    const auto address = static_cast<std::uintptr_t>(map.global_address);
    if (arena.contains(address)) line.slot = arena.slot_index(address);
  }
  ++line.boxes;
  const std::uint64_t outside = elements_outside(map, coordinate);
  if (outside == 0) return;
  // The first box of the lowest block: the same whichever worker ran which block.
  if (line.boxes_over_edge == 0 || block < line.first_block) {
    line.first_block = block;
    for (unsigned d = 0; d < map.rank && d < 5; ++d) line.first_box[d] = coordinate[d];
  }
  ++line.boxes_over_edge;
  line.elements_outside += outside;
}

void TensorEdges::fold_into(LaunchReport& r) const {
  if (lines_.empty()) return;
  while (r.lock.test_and_set(std::memory_order_acquire)) {
  }
  for (const auto& [key, l] : lines_) {
    const auto& [site, store, address] = key;
    RawTensorEdgeLine* line = nullptr;
    for (std::uint32_t i = 0; i < r.tensor_edge_lines && !line; ++i) {
      RawTensorEdgeLine& o = r.tensor_edges[i];
      if (o.site == site && (o.store != 0) == store && o.global_address == address) line = &o;
    }
    if (!line) {
      if (r.tensor_edge_lines == kMaxTensorEdgeLines) {
        r.tensor_edges_truncated = 1;
        continue;
      }
      line = &r.tensor_edges[r.tensor_edge_lines++];
      *line = RawTensorEdgeLine{};
      line->site = site;
      line->store = store;
      line->global_address = address;
      line->rank = l.rank;
      line->slot = l.slot;
      for (unsigned d = 0; d < 5; ++d) line->dims[d] = l.dims[d], line->box[d] = l.box[d];
    }
    if (l.boxes_over_edge &&
        (line->boxes_over_edge == 0 || l.first_block < line->first_block)) {
      line->first_block = l.first_block;
      for (unsigned d = 0; d < 5; ++d) line->first_box[d] = l.first_box[d];
    }
    line->boxes += l.boxes;
    line->boxes_over_edge += l.boxes_over_edge;
    line->elements_outside += l.elements_outside;
  }
  r.lock.clear(std::memory_order_release);
}

}  // namespace engine::cpu

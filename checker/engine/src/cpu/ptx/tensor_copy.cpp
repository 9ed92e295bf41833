// Hopper's tensor memory accelerator on the CPU backend: cp.async.bulk.tensor loads a box of a
// tensor (its map made by cuTensorMapEncodeTiled) into shared memory, swizzled as the map says,
// zeros where the box leaves the tensor, and delivers the box's bytes to an mbarrier; the
// store form writes a box of shared memory back, inside the tensor only. In a cluster, a load
// may go to another CTA's shared memory, or (.multicast::cluster) to the same place in several
// CTAs, each copy completing the mbarrier at the same offset in its CTA. Loads land at the
// latest moment (when a thread waits for their mbarrier; at once in reverse thread order), so
// that reading a stage before its phase completes finds the copy still in flight.
#include <cstdio>
#include <cstring>
#include <vector>

#include "../cluster_run.h"
#include "../symbol_table.h"
#include "cuda_cpu/tensor_map.h"
#include "hopper.h"

namespace engine::cpu::ptx_run {
namespace {

Worker& worker() { return *current_worker; }

const cuda_cpu::EmulatedTensorMap& tensor_map(Lane& lane, const ptx::Operand& o) {
  auto* map = reinterpret_cast<const cuda_cpu::EmulatedTensorMap*>(static_cast<std::uintptr_t>(lane.registers[o.reg]));
  if (map == nullptr || reinterpret_cast<std::uintptr_t>(map) % 64 != 0 || map->magic != cuda_cpu::kTensorMapMagic)
    refuse(lane, "its tensor map was not made by cuTensorMapEncodeTiled (pass the CUtensorMap's address, e.g. "
                 "&map of a const __grid_constant__ CUtensorMap parameter)");
  return *map;
}

// The shared address of byte `offset` of a box written at `base` with a swizzle of `span`
// bytes (0: none): 16-byte chunks XOR-ed with the address's 128-byte line, as the hardware
// does on the address bits (so a box must start aligned to the pattern to read as expected).
std::uint64_t swizzled(std::uint64_t address, unsigned span) {
  unsigned mask = span == 128 ? 7 : span == 64 ? 3 : span == 32 ? 1 : 0;
  return address ^ (((address >> 7) & mask) << 4);
}

struct Box {
  std::int64_t coordinate[5] = {};
  unsigned count[5] = {1, 1, 1, 1, 1};
  std::uint64_t elements = 1;
};

Box box_of(Lane& lane, const cuda_cpu::EmulatedTensorMap& map, const ptx::Operand& o, unsigned dims) {
  if (dims != map.rank) {
    char what[160];
    std::snprintf(what, sizeof what, "it is a %ud copy, and its tensor map has %u dimensions", dims,
                  static_cast<unsigned>(map.rank));
    refuse(lane, what);
  }
  Box b;
  for (unsigned i = 0; i < dims; ++i) {
    b.coordinate[i] = static_cast<std::int32_t>(value(lane, o.elements[i]));
    b.count[i] = map.box[i];
    b.elements *= map.box[i];
  }
  // A box must start on 16 bytes in the contiguous dimension: on an H200 a float box at x = 1,
  // 2, 3, 5, -1 or 65 stops the kernel with an illegal instruction, at x = 0, 4, 8, -4 or 64 it
  // runs, whatever the other coordinates (tests/engine/test_hopper_guide.cpp).
  if (map.interleave == 0 && b.coordinate[0] * static_cast<std::int64_t>(map.element_bytes) % 16 != 0) {
    char what[200];
    std::snprintf(what, sizeof what,
                  "its first coordinate, %lld, is not a multiple of 16 bytes (of %u elements); on a GPU the "
                  "kernel stops with an illegal instruction",
                  static_cast<long long>(b.coordinate[0]), 16u / map.element_bytes);
    refuse(lane, what);
  }
  return b;
}

// Calls f(element index in the box, global byte address or 0 when outside the tensor).
template <typename F>
void for_each_element(const cuda_cpu::EmulatedTensorMap& map, const Box& box, F f) {
  std::uint64_t index = 0;
  unsigned i[5] = {};
  for (i[4] = 0; i[4] < box.count[4]; ++i[4])
    for (i[3] = 0; i[3] < box.count[3]; ++i[3])
      for (i[2] = 0; i[2] < box.count[2]; ++i[2])
        for (i[1] = 0; i[1] < box.count[1]; ++i[1])
          for (i[0] = 0; i[0] < box.count[0]; ++i[0], ++index) {
            std::uint64_t address = map.global_address;
            bool inside = true;
            for (unsigned d = 0; d < map.rank; ++d) {
              std::int64_t c = box.coordinate[d] + static_cast<std::int64_t>(i[d]) * map.element_strides[d];
              if (c < 0 || c >= static_cast<std::int64_t>(map.dims[d])) inside = false;
              address += static_cast<std::uint64_t>(c) * map.strides[d];
            }
            f(index, inside ? address : 0);
          }
}

// Where a tensor load goes: its box's shared memory and its mbarrier, in one CTA.
struct LoadTarget {
  ClusterPlace box, barrier;
};

std::vector<LoadTarget> load_targets(Lane& lane, const ptx::Instruction& in, std::uint64_t bytes) {
  const auto& o = in.operands;
  std::uint64_t destination = address(lane, o[0]), barrier = address(lane, o[2]);
  if (destination % 128 != 0) refuse(lane, "the shared destination of a tensor copy must be 128-byte aligned");
  std::vector<LoadTarget> targets;
  auto add = [&](std::uint64_t box_address, std::uint64_t barrier_address) {
    LoadTarget t;
    t.box = cluster_place(lane, box_address, static_cast<unsigned>(bytes), ClusterAccess{false, true});
    t.barrier = cluster_place(lane, barrier_address, 8, ClusterAccess{true, true});
    if (t.box.owner != t.barrier.owner)
      refuse(lane, "its destination and its mbarrier are in different CTAs of the cluster: a tensor copy completes "
                   "an mbarrier of the CTA it writes to");
    require_cluster_barrier(lane, t.box, ClusterAccess{false, true});
    targets.push_back(t);
  };
  if (!in.multicast) {
    add(destination, barrier);
    return targets;
  }
  // The same CTA-relative destination and mbarrier in every CTA the mask names.
  std::uint64_t mask = value(lane, o[3]) & 0xFFFFu;
  unsigned size = worker().cluster() ? worker().cluster()->size() : 1;
  if (mask == 0 || mask >> size != 0) {
    char what[200];
    std::snprintf(what, sizeof what, "its CTA mask %#llx names no CTA or a CTA beyond this cluster's %u",
                  static_cast<unsigned long long>(mask), size);
    refuse(lane, what);
  }
  for (unsigned rank = 0; rank < size; ++rank)
    if (mask >> rank & 1u) add(cluster_address(rank, destination), cluster_address(rank, barrier));
  return targets;
}

void tensor_load(Lane& lane, const ptx::Instruction& in) {
  const auto& o = in.operands;
  Worker& w = worker();
  const cuda_cpu::EmulatedTensorMap& map = tensor_map(lane, o[1]);
  Box box = box_of(lane, map, o[1], in.dims);
  const unsigned element = map.element_bytes;
  const std::uint64_t bytes = box.elements * element;
  std::vector<LoadTarget> targets = load_targets(lane, in, bytes);
  note_tensor_box(lane, map, box.coordinate, false);

  // The box is read from global memory once, as it is issued.
  std::vector<unsigned char> data(bytes);
  for_each_element(map, box, [&](std::uint64_t e, std::uint64_t source) {
    if (source == 0) return;  // outside the tensor: zeros
    w.checks().async_global_read(static_cast<std::uintptr_t>(source), element, lane.site, *lane.thread);
    std::memcpy(&data[e * element], reinterpret_cast<const void*>(source), element);
  });
  const std::uint64_t offset = address(lane, o[0]) & 0xFFFFFFu;  // CTA-relative
  for (const LoadTarget& target : targets) {
    Worker& owner = *target.box.owner;
    MBarrier& barrier = usable_mbarrier(lane, target.barrier, "completes");
    profile_tensor_load(lane, target.barrier, barrier, bytes, in.multicast);
    PendingTensorCopy copy;
    copy.bytes = data;
    copy.destinations.resize(box.elements);
    copy.element_bytes = element;
    copy.transaction_bytes = bytes;
    copy.barrier = target.barrier.host;
    copy.swizzle = map.swizzle_bytes;
    copy.issuer = lane.thread->linear;
    copy.site = lane.site;
    const std::uintptr_t window = owner.window_base();
    for (std::uint64_t e = 0; e < box.elements; ++e)
      copy.destinations[e] = window + swizzled(offset + e * element, map.swizzle_bytes);
    // The bytes may land at any moment from now on; the mbarrier phase that brings them is the
    // one in progress. Another CTA's checks are told from this OS thread, whose fast path stays.
    {
      OutsideChange change(owner);
      owner.checks().tma_issued(window + static_cast<std::uintptr_t>(offset), static_cast<unsigned>(bytes),
                                barrier.index, barrier.completed + 1, map.swizzle_bytes, lane.site, *lane.thread,
                                !target.box.remote());
    }
    if (target.box.remote()) owner.cluster()->progress();
    owner.sync().copies.push_back(std::move(copy));
    barrier.copies.push_back(owner.sync().copies.size() - 1);
    owner.sync().land_awaited_copies = &land_awaited_copies;
    // Another CTA's copies land when its own threads wait for them.
    if (!target.box.remote() && w.plan().options.order == engine::ThreadOrder::reverse) land_copies(barrier);
  }
}

void tensor_store(Lane& lane, const ptx::Instruction& in) {
  const auto& o = in.operands;
  Worker& w = worker();
  const cuda_cpu::EmulatedTensorMap& map = tensor_map(lane, o[0]);
  Box box = box_of(lane, map, o[0], in.dims);
  const unsigned element = map.element_bytes;
  const std::uint64_t bytes = box.elements * element;
  std::uint64_t source = address(lane, o[1]);
  if (source % 128 != 0) refuse(lane, "the shared source of a tensor store must be 128-byte aligned");
  shared_host_address(lane, source, static_cast<unsigned>(bytes));
  const std::uintptr_t window = shared_window_base();
  unsigned thread = lane.thread->linear;
  std::uint32_t group = w.sync().bulk_committed[thread];
  profile_tensor_store(lane, bytes);
  note_tensor_box(lane, map, box.coordinate, true);
  for_each_element(map, box, [&](std::uint64_t e, std::uint64_t target) {
    std::uintptr_t from = window + swizzled(source + e * element, map.swizzle_bytes);
    if (!w.checks().async_read(from, element, map.swizzle_bytes, lane.site, *lane.thread)) return;
    w.checks().proxy_read(from, element, Finding::ProxyReader::tensor_store, lane.site, *lane.thread);
    w.checks().bulk_reads(from, element, thread, group, lane.site);
    if (target == 0) return;  // outside the tensor: not written
    w.checks().async_global_write(static_cast<std::uintptr_t>(target), element, lane.site, *lane.thread);
    std::memcpy(reinterpret_cast<void*>(target), reinterpret_cast<const void*>(from), element);
  });
}

}  // namespace

void land_copies(MBarrier& b) {
  Worker& w = worker();
  std::vector<std::size_t> indices = std::move(b.copies);
  b.copies.clear();
  for (std::size_t i : indices) {
    PendingTensorCopy& c = w.sync().copies[i];
    for (std::size_t e = 0; e < c.destinations.size(); ++e)
      std::memcpy(reinterpret_cast<void*>(c.destinations[e]), &c.bytes[e * c.element_bytes], c.element_bytes);
    // The destinations were reserved in box order, contiguous before the swizzle: the landed
    // range is the same bytes.
    std::uintptr_t lowest = c.destinations[0], highest = c.destinations[0];
    for (std::uintptr_t d : c.destinations) {
      lowest = d < lowest ? d : lowest;
      highest = d > highest ? d : highest;
    }
    w.checks().tma_landed(lowest, static_cast<unsigned>(highest + c.element_bytes - lowest));
    std::uint64_t bytes = c.transaction_bytes;
    c = PendingTensorCopy{};
    complete_transaction(w, b, bytes);
  }
}

void land_awaited_copies() {
  for (auto& [address, barrier] : worker().sync().mbarriers)
    if (!barrier.waiting.empty() && !barrier.copies.empty()) land_copies(barrier);
}

void run_tensor_copy(Lane& lane, const ptx::Instruction& in) {
  Worker& w = worker();
  unsigned thread = lane.thread->linear;
  switch (in.op) {
    case ptx::Op::tma_load: tensor_load(lane, in); return;
    case ptx::Op::tma_store: tensor_store(lane, in); return;
    case ptx::Op::bulk_commit: ++w.sync().bulk_committed[thread]; return;
    case ptx::Op::bulk_wait_group: {
      // The stores were made when issued; what the wait releases is their shared source.
      std::uint32_t keep = static_cast<std::uint32_t>(value(lane, in.operands[0]));
      std::uint32_t committed = w.sync().bulk_committed[thread];
      std::uint32_t& retired = w.sync().bulk_retired[thread];
      if (committed > keep && committed - keep > retired) retired = committed - keep;
      return;
    }
    default: refuse(lane, "this instruction is parsed but not implemented by the CPU backend");
  }
}

}  // namespace engine::cpu::ptx_run

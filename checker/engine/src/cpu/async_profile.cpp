#include "async_profile.h"

#include "launch_report.h"

namespace engine::cpu {

void AsyncProfile::tensor_load(Site site, bool multicast, std::int32_t barrier_slot, std::int64_t barrier_offset,
                               std::uintptr_t barrier_host, std::uint64_t block, std::uint32_t phase,
                               std::uint64_t bytes) {
  CopyKey key{site, false, multicast, barrier_slot, barrier_offset};
  CopyCounts& c = copies_[key];
  ++c.copies;
  c.bytes += bytes;
  // Phases start at 1 (the first phase in progress), so 0 means "none counted yet".
  std::uint32_t& last = last_phase_[{key, barrier_host, block}];
  if (last != phase) {
    last = phase;
    ++c.phases;
  }
}

void AsyncProfile::tensor_store(Site site, std::uint64_t bytes) {
  CopyCounts& c = copies_[CopyKey{site, true, false, -1, 0}];
  ++c.copies;
  c.bytes += bytes;
}

void AsyncProfile::warpgroup(Site site, unsigned warpgroup, unsigned op, unsigned n) {
  MmaCounts& c = mma_[{site, warpgroup, op, n}];
  ++c.instructions;
  // An m64nNk16 MMA: 64 x N results, each a sum of 16 products (a multiply and an add).
  if (op == static_cast<unsigned>(WarpgroupMmaProfile::Op::mma)) c.flops += 2ull * 64 * n * 16;
}

void AsyncProfile::fold_into(LaunchReport& r) const {
  if (empty()) return;
  while (r.lock.test_and_set(std::memory_order_acquire)) {
  }
  for (const auto& [key, c] : copies_) {
    const auto& [site, store, multicast, slot, offset] = key;
    RawTensorCopyLine* line = nullptr;
    for (std::uint32_t i = 0; i < r.tensor_copy_lines && !line; ++i) {
      RawTensorCopyLine& l = r.tensor_copies[i];
      if (l.site == site && l.store == store && l.multicast == multicast && l.barrier_slot == slot &&
          l.barrier_offset == offset)
        line = &l;
    }
    if (!line) {
      if (r.tensor_copy_lines == kMaxAsyncProfileLines) {
        r.async_profile_truncated = 1;
        continue;
      }
      line = &r.tensor_copies[r.tensor_copy_lines++];
      *line = RawTensorCopyLine{};
      line->site = site;
      line->store = store;
      line->multicast = multicast;
      line->barrier_slot = slot;
      line->barrier_offset = offset;
    }
    // Each worker counted the phases of the CTAs it ran: different mbarriers, added up.
    line->copies += c.copies;
    line->bytes += c.bytes;
    line->phases += c.phases;
  }
  for (const auto& [key, c] : mma_) {
    const auto& [site, warpgroup, op, n] = key;
    RawWarpgroupMmaLine* line = nullptr;
    for (std::uint32_t i = 0; i < r.warpgroup_mma_lines && !line; ++i) {
      RawWarpgroupMmaLine& l = r.warpgroup_mma[i];
      if (l.site == site && l.warpgroup == warpgroup && l.op == op && l.n == n) line = &l;
    }
    if (!line) {
      if (r.warpgroup_mma_lines == kMaxAsyncProfileLines) {
        r.async_profile_truncated = 1;
        continue;
      }
      line = &r.warpgroup_mma[r.warpgroup_mma_lines++];
      *line = RawWarpgroupMmaLine{};
      line->site = site;
      line->warpgroup = warpgroup;
      line->op = op;
      line->n = n;
    }
    line->instructions += c.instructions;
    line->flops += c.flops;
  }
  r.lock.clear(std::memory_order_release);
}

}  // namespace engine::cpu

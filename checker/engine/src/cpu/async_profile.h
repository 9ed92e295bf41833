// What Hopper's asynchronous units did in a launch, per source location (CPU backend, with
// RunOptions::profile): the tensor copies (TMA) issued, with the bytes each mbarrier phase
// received, and the warpgroup MMAs (wgmma) issued, committed and waited for. The PTX
// interpreter tells it as the instructions run (ptx/async_profile_hooks.cpp); docs/dev/engine.md
// ("--profile") says what is counted.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>

#include "access_checks.h"

namespace engine::cpu {

struct LaunchReport;

class AsyncProfile {
 public:
  // A tensor load's box, as it lands in one CTA (a multicast load tells each CTA's worker once).
  // `barrier_slot`, `barrier_offset`: where its mbarrier is (AccessChecks::place_of);
  // `barrier_host` and `block`: which mbarrier of which CTA, and `phase` which of its phases
  // (the one in progress when the copy was issued), so that phases are counted once each.
  void tensor_load(Site site, bool multicast, std::int32_t barrier_slot, std::int64_t barrier_offset,
                   std::uintptr_t barrier_host, std::uint64_t block, std::uint32_t phase, std::uint64_t bytes);
  void tensor_store(Site site, std::uint64_t bytes);
  // One warpgroup instruction, once per warpgroup. `op`: WarpgroupMmaProfile::Op; `n`: the
  // MMA's N, or the groups a wait_group lets stay pending.
  void warpgroup(Site site, unsigned warpgroup, unsigned op, unsigned n);

  // Adds this worker's counts to the launch's report (under its lock).
  void fold_into(LaunchReport& report) const;
  bool empty() const { return copies_.empty() && mma_.empty(); }

 private:
  struct CopyCounts {
    std::uint64_t copies = 0, bytes = 0, phases = 0;
  };
  // (site, store, multicast, mbarrier slot, mbarrier offset)
  using CopyKey = std::tuple<Site, bool, bool, std::int32_t, std::int64_t>;
  std::map<CopyKey, CopyCounts> copies_;
  // The last phase counted, per row, mbarrier and CTA: copies of one stage use count it once.
  std::map<std::tuple<CopyKey, std::uintptr_t, std::uint64_t>, std::uint32_t> last_phase_;

  struct MmaCounts {
    std::uint64_t instructions = 0, flops = 0;
  };
  // (site, warpgroup, op, n)
  std::map<std::tuple<Site, unsigned, unsigned, unsigned>, MmaCounts> mma_;
};

}  // namespace engine::cpu

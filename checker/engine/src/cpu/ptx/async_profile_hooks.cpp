// What the tensor copies and the warpgroup MMAs tell the launch's profile (async_profile.h).
#include "hopper.h"

namespace engine::cpu::ptx_run {

void profile_tensor_load(const Lane& lane, const ClusterPlace& place, const MBarrier& barrier, std::uint64_t bytes,
                         bool multicast) {
  // The CTA that receives the box counts it (the workers of a cluster take turns, so the
  // issuer may write there): a phase that several CTAs' multicasts fill is counted once.
  Worker& owner = *place.owner;
  AsyncProfile* profile = owner.async_profile();
  if (!profile) return;
  std::int32_t slot = -1;
  std::int64_t offset = 0;
  owner.checks().place_of(place.host, slot, offset);
  profile->tensor_load(lane.site, multicast, slot, offset, place.host, owner.current_block(), barrier.completed + 1,
                       bytes);
}

void profile_tensor_store(const Lane& lane, std::uint64_t bytes) {
  if (AsyncProfile* profile = current_worker->async_profile()) profile->tensor_store(lane.site, bytes);
}

void profile_warpgroup(const Lane& first, const ptx::Instruction& in) {
  AsyncProfile* profile = current_worker->async_profile();
  if (!profile) return;
  using Op = WarpgroupMmaProfile::Op;
  const unsigned warpgroup = first.thread->linear / 128;
  switch (in.op) {
    case ptx::Op::wgmma: profile->warpgroup(first.site, warpgroup, static_cast<unsigned>(Op::mma), in.n); return;
    case ptx::Op::wgmma_commit:
      profile->warpgroup(first.site, warpgroup, static_cast<unsigned>(Op::commit_group), 0);
      return;
    case ptx::Op::wgmma_wait:
      profile->warpgroup(first.site, warpgroup, static_cast<unsigned>(Op::wait_group),
                         static_cast<unsigned>(value(first, in.operands[0])));
      return;
    default: return;  // wgmma.fence, setmaxnreg: nothing to count
  }
}

}  // namespace engine::cpu::ptx_run

// mbarriers on the CPU backend: Hopper's barriers in shared memory, with an arrival count and
// a transaction count per phase. A thread that waits for a phase (try_wait) stops until the
// phase completes; tensor copies that complete it land first, at the latest possible moment,
// so that a read of a stage before its wait finds them still in flight. If every thread ends
// up waiting for something no thread can give (arrivals never made, bytes never delivered,
// the wrong parity), the block stops with a deadlock finding that says so.
//
// In a cluster, threads may arrive on another CTA's mbarriers (mbarrier.arrive ...
// .shared::cluster at an address from mapa), once a cluster barrier has ordered that CTA's
// mbarrier.init before the use.
#include <algorithm>
#include <cstdio>

#include "../cluster_run.h"
#include "hopper.h"

namespace engine::cpu::ptx_run {
namespace {

Worker& worker() { return *current_worker; }

// Where an mbarrier operand points: the thread's own CTA, or (.shared::cluster) any CTA of the cluster.
ClusterPlace barrier_place(Lane& lane, const ptx::Operand& o) {
  std::uint64_t a = address(lane, o);
  if (a % 8 != 0) refuse(lane, "an mbarrier must be 8-byte aligned in shared memory");
  if (lane.instruction->space == ptx::Space::shared_cluster) return cluster_place(lane, a, 8, ClusterAccess{true, true});
  ClusterPlace own;
  own.owner = &worker();
  own.rank = worker().rank();
  own.host = lane.instruction->space == ptx::Space::generic ? static_cast<std::uintptr_t>(a)
                                                             : shared_host_address(lane, a, 8);
  return own;
}

std::uintptr_t barrier_address(Lane& lane, const ptx::Operand& o) {
  ClusterPlace place = barrier_place(lane, o);
  if (place.remote()) refuse(lane, "this mbarrier instruction takes the thread's own CTA's mbarriers only");
  return place.host;
}

bool phase_done(const MBarrier& b, std::uint64_t parity_or_state, bool parity) {
  if (parity) return (b.completed & 1u) != (parity_or_state & 1u);
  return b.completed > static_cast<std::uint32_t>(parity_or_state);  // a state from arrive: that phase
}

void complete_phase(Worker& owner, MBarrier& b) {
  ++b.completed;
  b.phase_retired = std::move(b.arrival_retired);
  b.arrival_retired.clear();
  b.pending = b.expected;
  b.tx = 0;
  b.delivered = 0;
  b.expected_tx = 0;
  owner.progress();
  if (owner.cluster()) owner.cluster()->progress();
  std::vector<unsigned> waiting = std::move(b.waiting);
  b.waiting.clear();
  for (unsigned t : waiting) owner.release(t);
}

void maybe_complete(Worker& owner, MBarrier& b) {
  if (b.pending == 0 && b.tx == 0) complete_phase(owner, b);
}

MBarrier& initialized(Lane& lane, std::uintptr_t host) {
  MBarrier& b = mbarrier_at(host);
  if (!b.initialized) refuse(lane, "it uses an mbarrier that no thread has initialized (mbarrier.init) in this block");
  return b;
}

// The thread has seen the phases of `b` up to its latest completion.
void observe(Lane& lane, const MBarrier& b) {
  BlockSync& sync = worker().sync();
  auto& seen = sync.observed[lane.thread->linear];
  if (seen.size() <= b.index) seen.resize(b.index + 1, 0);
  if (seen[b.index] < b.completed) seen[b.index] = b.completed;
  sync.observed_any = true;
  std::uint32_t* known = sync.known_retired_by(lane.thread->linear);
  for (std::size_t g = 0; g < b.phase_retired.size() && g < sync.warpgroup_async.size(); ++g)
    known[g] = std::max(known[g], b.phase_retired[g]);
}

// An arrival passes on what the thread knows of finished wgmma groups to whoever sees the
// phase complete.
void pass_on_knowledge(Lane& lane, MBarrier& b) {
  const BlockSync& sync = worker().sync();
  const unsigned thread = lane.thread->linear, groups = static_cast<unsigned>(sync.warpgroup_async.size());
  b.arrival_retired.resize(groups, 0);
  for (unsigned g = 0; g < groups; ++g)
    b.arrival_retired[g] = std::max(b.arrival_retired[g], sync.retired_known_to(thread, g));
}

void wait_for_phase(Lane& lane, const ptx::Instruction& in, bool blocking) {
  const auto& o = in.operands;
  std::uintptr_t host = barrier_address(lane, o[1]);
  MBarrier& b = initialized(lane, host);
  std::uint64_t which = value(lane, o[2]);
  if (!phase_done(b, which, in.parity)) land_copies(b);
  while (!phase_done(b, which, in.parity)) {
    if (!blocking) {
      // A polling wait: let the other threads run, then answer "not yet".
      set(lane, o[0], 0);
      worker().yield_current();
      return;
    }
    b.waiting.push_back(lane.thread->linear);
    WaitReason why;
    why.kind = WaitReason::Kind::mbarrier;
    why.object = host;
    why.parity = static_cast<unsigned>(which & 1u);  // a state names its phase: the same parity
    why.line = lane.statement->line;
    why.file = lane.statement->file;
    why.site = lane.site;
    why.name = in.text.c_str();
    worker().block_current(why);
  }
  observe(lane, b);
  set(lane, o[0], 1);
}

}  // namespace

MBarrier& mbarrier_at(std::uintptr_t host) { return mbarrier_at(worker(), host); }

MBarrier& mbarrier_at(Worker& owner, std::uintptr_t host) {
  auto& all = owner.sync().mbarriers;
  auto it = all.find(host);
  if (it != all.end()) return it->second;
  MBarrier& b = all[host];
  b.index = static_cast<std::uint32_t>(all.size() - 1);
  b.shared_address = host;
  return b;
}

void complete_transaction(Worker& owner, MBarrier& b, std::uint64_t bytes) {
  b.tx -= static_cast<std::int64_t>(bytes);
  b.delivered += bytes;
  owner.progress();
  maybe_complete(owner, b);
}

MBarrier& usable_mbarrier(Lane& lane, const ClusterPlace& place, const char* use) {
  MBarrier& b = mbarrier_at(*place.owner, place.host);
  if (!place.remote()) {
    if (!b.initialized) {
      char what[200];
      std::snprintf(what, sizeof what, "it %s an mbarrier that no thread has initialized (mbarrier.init) in this block",
                    use);
      refuse(lane, what);
    }
    return b;
  }
  // Another CTA's: its initialization must be ordered before this use by a cluster barrier
  // that this thread has waited at since.
  Worker& here = worker();
  std::uint32_t passed = here.cluster()->barriers_passed(here.rank(), lane.thread->linear);
  if (b.initialized && passed > b.init_cluster_phase) return b;
  const ClusterAccess how{true, true};
  if (passed == 0) cluster_order_finding(lane, Finding::ClusterUse::before_cluster_barrier, place.rank, how);
  cluster_order_finding(lane,
                        b.initialized ? Finding::ClusterUse::mbarrier_init_unordered
                                      : Finding::ClusterUse::mbarrier_not_initialized,
                        place.rank, how);
}

void run_mbarrier(Lane& lane, const ptx::Instruction& in) {
  const auto& o = in.operands;
  Worker& w = worker();
  switch (in.op) {
    case ptx::Op::mbarrier_init: {
      std::uintptr_t host = barrier_address(lane, o[0]);
      std::uint64_t count = value(lane, o[1]);
      if (count == 0 || count > (1u << 20)) refuse(lane, "an mbarrier's arrival count must be 1 to 2^20");
      MBarrier& b = mbarrier_at(host);
      if (b.initialized && !b.waiting.empty())
        refuse(lane, "it initializes an mbarrier again while threads wait on it");
      // The 8 bytes are the thread's write, as mbarrier.init's store is on a GPU.
      access(lane, *lane.thread, host, 8, true);
      b.initialized = true;
      b.init_cluster_phase = w.cluster() ? w.cluster()->barrier_phases() : 0;
      b.expected = static_cast<std::uint32_t>(count);
      b.pending = static_cast<std::int64_t>(count);
      b.tx = 0;
      b.delivered = b.expected_tx = 0;
      b.completed = 0;
      return;
    }
    case ptx::Op::mbarrier_inval:
      mbarrier_at(barrier_address(lane, o[0])).initialized = false;
      return;
    case ptx::Op::mbarrier_expect_tx: {
      MBarrier& b = usable_mbarrier(lane, barrier_place(lane, o[0]), "announces bytes on");
      std::uint64_t bytes = value(lane, o[1]);
      b.tx += static_cast<std::int64_t>(bytes);
      b.expected_tx += bytes;
      return;
    }
    case ptx::Op::mbarrier_arrive: {
      ClusterPlace place = barrier_place(lane, o[1]);
      MBarrier& b = usable_mbarrier(lane, place, "arrives on");
      std::uint64_t count = 1;
      if (in.expect_tx) {
        std::uint64_t bytes = value(lane, o[2]);
        b.tx += static_cast<std::int64_t>(bytes);
        b.expected_tx += bytes;
      } else if (o.size() > 2) {
        count = value(lane, o[2]);
      }
      // The state names the phase this arrival belongs to (for try_wait without .parity).
      set(lane, o[0], b.completed);
      if (static_cast<std::int64_t>(count) > b.pending) {
        char what[200];
        std::snprintf(what, sizeof what,
                      "it arrives on an mbarrier that expects %lld more arrival%s in this phase (of %u): more threads "
                      "arrive than its mbarrier.init count",
                      static_cast<long long>(b.pending), b.pending == 1 ? "" : "s", b.expected);
        refuse(lane, what);
      }
      b.pending -= static_cast<std::int64_t>(count);
      // What this thread knows of its own CTA's wgmma groups means nothing to another CTA.
      if (!place.remote()) pass_on_knowledge(lane, b);
      w.progress();
      maybe_complete(*place.owner, b);
      return;
    }
    case ptx::Op::mbarrier_try_wait:
      wait_for_phase(lane, in, true);
      return;
    case ptx::Op::mbarrier_test_wait:
      wait_for_phase(lane, in, false);
      return;
    default:
      refuse(lane, "this instruction is parsed but not implemented by the CPU backend");
  }
}

}  // namespace engine::cpu::ptx_run

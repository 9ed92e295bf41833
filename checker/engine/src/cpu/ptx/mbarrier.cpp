// mbarriers on the CPU backend: Hopper's barriers in shared memory, with an arrival count and
// a transaction count per phase. A thread that waits for a phase (try_wait) stops until the
// phase completes; tensor copies that complete it land first, at the latest possible moment,
// so that a read of a stage before its wait finds them still in flight. If every thread ends
// up waiting for something no thread can give (arrivals never made, bytes never delivered,
// the wrong parity), the block stops with a deadlock finding that says so.
//
// And, for clusters of one CTA (the CPU backend runs each CTA as its own cluster):
// barrier.cluster.arrive/wait and mapa.
#include <algorithm>
#include <cstdio>

#include "hopper.h"

namespace engine::cpu::ptx_run {
namespace {

Worker& worker() { return *current_worker; }

std::uintptr_t barrier_address(Lane& lane, const ptx::Operand& o) {
  std::uint64_t a = address(lane, o);
  if (a % 8 != 0) refuse(lane, "an mbarrier must be 8-byte aligned in shared memory");
  return lane.instruction->space == ptx::Space::generic ? static_cast<std::uintptr_t>(a)
                                                          : shared_host_address(lane, a, 8);
}

bool phase_done(const MBarrier& b, std::uint64_t parity_or_state, bool parity) {
  if (parity) return (b.completed & 1u) != (parity_or_state & 1u);
  return b.completed > static_cast<std::uint32_t>(parity_or_state);  // a state from arrive: that phase
}

void complete_phase(MBarrier& b) {
  ++b.completed;
  b.phase_retired = std::move(b.arrival_retired);
  b.arrival_retired.clear();
  b.pending = b.expected;
  b.tx = 0;
  b.delivered = 0;
  b.expected_tx = 0;
  worker().progress();
  std::vector<unsigned> waiting = std::move(b.waiting);
  b.waiting.clear();
  for (unsigned t : waiting) worker().release(t);
}

void maybe_complete(MBarrier& b) {
  if (b.pending == 0 && b.tx == 0) complete_phase(b);
}

MBarrier& initialized(Lane& lane, std::uintptr_t host) {
  MBarrier& b = mbarrier_at(host);
  if (!b.initialized) refuse(lane, "it uses an mbarrier that no thread has initialized (mbarrier.init) in this block");
  return b;
}

// The thread has seen the phases of `b` up to its latest completion.
void observe(Lane& lane, const MBarrier& b) {
  auto& seen = worker().sync().observed[lane.thread->linear];
  if (seen.size() <= b.index) seen.resize(b.index + 1, 0);
  if (seen[b.index] < b.completed) seen[b.index] = b.completed;
  auto& known = worker().sync().known_retired[lane.thread->linear];
  for (std::size_t g = 0; g < b.phase_retired.size() && g < known.size(); ++g)
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

MBarrier& mbarrier_at(std::uintptr_t host) {
  auto& all = worker().sync().mbarriers;
  auto it = all.find(host);
  if (it != all.end()) return it->second;
  MBarrier& b = all[host];
  b.index = static_cast<std::uint32_t>(all.size() - 1);
  b.shared_address = host;
  return b;
}

void complete_transaction(MBarrier& b, std::uint64_t bytes) {
  b.tx -= static_cast<std::int64_t>(bytes);
  b.delivered += bytes;
  worker().progress();
  maybe_complete(b);
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
      MBarrier& b = initialized(lane, barrier_address(lane, o[0]));
      std::uint64_t bytes = value(lane, o[1]);
      b.tx += static_cast<std::int64_t>(bytes);
      b.expected_tx += bytes;
      return;
    }
    case ptx::Op::mbarrier_arrive: {
      MBarrier& b = initialized(lane, barrier_address(lane, o[1]));
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
      pass_on_knowledge(lane, b);
      w.progress();
      maybe_complete(b);
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

void run_cluster(Lane& lane, const ptx::Instruction& in) {
  // The CPU backend runs every CTA as a cluster of one: the cluster barrier is the block's,
  // and the only CTA rank is 0.
  const auto& o = in.operands;
  switch (in.op) {
    case ptx::Op::cluster_arrive:
    case ptx::Op::cluster_wait: {
      WaitReason where;
      where.line = lane.statement->line;
      where.file = lane.statement->file;
      where.site = lane.site;
      where.name = in.text.c_str();
      // barrier.cluster.arrive then .wait, split: named barrier 15 (arrive) is waited on by
      // .wait, which every thread reaches after its arrive.
      if (in.op == ptx::Op::cluster_arrive) {
        worker().named_barrier(15, worker().plan().threads_per_block, false, where);
      } else {
        // Completed when every thread has arrived: a named barrier that nobody else arrives at.
        NamedBarrier& b = worker().sync().named[15];
        if (b.arrived != 0) {
          b.waiting.push_back(lane.thread->linear);
          WaitReason why = where;
          why.kind = WaitReason::Kind::named_barrier;
          why.object = 15;
          worker().block_current(why);
        }
      }
      return;
    }
    case ptx::Op::mapa: {
      std::uint64_t rank = value(lane, o[2]);
      if (rank != 0)
        refuse(lane, "it maps shared memory of another CTA of its cluster; the CPU backend runs every CTA as a "
                     "cluster of one (rank 0)");
      set(lane, o[0], value(lane, o[1]));
      return;
    }
    default:
      refuse(lane, "this instruction is parsed but not implemented by the CPU backend");
  }
}

}  // namespace engine::cpu::ptx_run

// Clusters on the CPU backend, as PTX sees them: the cluster barrier (barrier.cluster.arrive and
// .wait), mapa, and the addresses of distributed shared memory. The CTAs of a cluster run on
// workers that take turns (cluster_run.h); an address of another CTA's shared memory is that
// worker's __shared__ storage.
#include <cstdio>

#include "../cluster_run.h"
#include "hopper.h"

namespace engine::cpu::ptx_run {
namespace {

constexpr unsigned kRankShift = 24;
constexpr std::uint64_t kWindowMask = (std::uint64_t{1} << kRankShift) - 1;

Worker& worker() { return *current_worker; }

}  // namespace

std::uint64_t cluster_address(unsigned rank, std::uint64_t shared_address) {
  return (shared_address & kWindowMask) | (std::uint64_t{rank} + 1) << kRankShift;
}

void cluster_order_finding(const Lane& lane, Finding::ClusterUse why, unsigned rank, ClusterAccess how) {
  Worker& w = worker();
  RawFinding f{};
  f.kind = FindingKind::cluster_order;
  f.block = w.current_block();
  f.thread = lane.thread->linear;
  f.line = lane.statement->line;
  f.file = lane.statement->file;
  f.pc = lane.site;
  f.op = lane.instruction ? w.plan().report->intern(lane.instruction->text.c_str()) : "";
  f.is_write = how.write ? 1 : 0;
  f.cluster_use = static_cast<std::uint32_t>(why);
  f.other_rank = rank;
  f.cluster_mbarrier = how.mbarrier ? 1 : 0;
  w.stop_grid_with(f);
}

ClusterPlace cluster_place(const Lane& lane, std::uint64_t address, unsigned size, ClusterAccess how) {
  Worker& here = worker();
  ClusterPlace place;
  std::uint64_t rank_bits = (address >> kRankShift) & 0xFF;
  if (rank_bits == 0 || rank_bits - 1 == here.rank()) {
    place.owner = &here;
    place.rank = here.rank();
    place.host = shared_host_address(lane, address & kWindowMask, size);
    return place;
  }
  ClusterRun* cluster = here.cluster();
  char what[160];
  unsigned rank = static_cast<unsigned>(rank_bits - 1);
  if (cluster == nullptr || rank >= cluster->size()) {
    std::snprintf(what, sizeof what, "its .shared::cluster address %#llx names CTA rank %u; the cluster has %u",
                  static_cast<unsigned long long>(address), rank, cluster ? cluster->size() : 1u);
    refuse(lane, what);
  }
  if (cluster->finished(rank)) cluster_order_finding(lane, Finding::ClusterUse::cta_exited, rank, how);
  place.owner = &cluster->member(rank);
  place.rank = rank;
  place.host = place.owner->window_base() + static_cast<std::uintptr_t>(address & kWindowMask);
  if (!place.owner->checks().in_shared_memory(place.host, size)) {
    std::snprintf(what, sizeof what, "its .shared::cluster address %#llx is not in the shared memory of CTA rank %u",
                  static_cast<unsigned long long>(address), rank);
    refuse(lane, what);
  }
  return place;
}

void require_cluster_barrier(const Lane& lane, const ClusterPlace& place, ClusterAccess how) {
  if (!place.remote()) return;
  if (worker().cluster()->barriers_passed(worker().rank(), lane.thread->linear) > 0) return;
  cluster_order_finding(lane, Finding::ClusterUse::before_cluster_barrier, place.rank, how);
}

void run_cluster(Lane& lane, const ptx::Instruction& in) {
  const auto& o = in.operands;
  Worker& w = worker();
  switch (in.op) {
    case ptx::Op::cluster_arrive:
    case ptx::Op::cluster_wait: {
      if (w.cluster() == nullptr) {
        // A cluster of one: the cluster barrier is the block's. barrier.cluster.arrive then
        // .wait, split: named barrier 15 (arrive) is waited on by .wait, which every thread
        // reaches after its arrive.
        WaitReason where;
        where.line = lane.statement->line;
        where.file = lane.statement->file;
        where.site = lane.site;
        where.name = in.text.c_str();
        if (in.op == ptx::Op::cluster_arrive) {
          w.named_barrier(15, w.plan().threads_per_block, false, where);
        } else {
          NamedBarrier& b = w.sync().named[15];
          if (b.arrived != 0) {
            b.waiting.push_back(lane.thread->linear);
            WaitReason why = where;
            why.kind = WaitReason::Kind::named_barrier;
            why.object = 15;
            w.block_current(why);
          }
        }
        return;
      }
      ClusterRun& cluster = *w.cluster();
      if (in.op == ptx::Op::cluster_arrive) {
        cluster.barrier_arrive(w.rank(), lane.thread->linear);
        return;
      }
      if (!cluster.barrier_wait(w.rank(), lane.thread->linear, lane.statement->line, lane.statement->file, lane.site,
                                in.text.c_str()))
        refuse(lane, "barrier.cluster.wait without this thread's barrier.cluster.arrive before it");
      return;
    }
    case ptx::Op::mapa: {
      std::uint64_t rank = value(lane, o[2]);
      unsigned size = w.cluster() ? w.cluster()->size() : 1;
      if (rank >= size) {
        char what[120];
        std::snprintf(what, sizeof what, "it maps shared memory of CTA rank %llu; the cluster has %u",
                      static_cast<unsigned long long>(rank), size);
        refuse(lane, what);
      }
      std::uint64_t a = value(lane, o[1]);
      if (in.space != ptx::Space::shared_cluster) {
        // Generic addresses: kernel code would dereference another CTA's memory directly, which
        // the CPU backend's checks cannot follow.
        if (rank != w.rank())
          refuse(lane, "the CPU backend maps other CTAs' shared memory with mapa.shared::cluster only, not generic "
                       "addresses");
        set(lane, o[0], a);
        return;
      }
      set(lane, o[0], cluster_address(static_cast<unsigned>(rank), a));
      return;
    }
    default:
      refuse(lane, "this instruction is parsed but not implemented by the CPU backend");
  }
}

}  // namespace engine::cpu::ptx_run

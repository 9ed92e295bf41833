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

ClusterPlace cluster_place(const Lane& lane, std::uint64_t address, unsigned size) {
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
  char what[300];
  unsigned rank = static_cast<unsigned>(rank_bits - 1);
  if (cluster == nullptr || rank >= cluster->size()) {
    std::snprintf(what, sizeof what,
                  "its .shared::cluster address %#llx names CTA rank %u, and this cluster has %u CTA%s (take such "
                  "addresses from mapa with a rank below %%cluster_nctarank)",
                  static_cast<unsigned long long>(address), rank, cluster ? cluster->size() : 1u,
                  cluster && cluster->size() > 1 ? "s" : "");
    refuse(lane, what);
  }
  if (cluster->finished(rank)) {
    std::snprintf(what, sizeof what,
                  "it uses shared memory of CTA rank %u of its cluster, which has already exited: its shared memory "
                  "is gone. Every CTA must wait at a cluster barrier (barrier.cluster.arrive + barrier.cluster.wait) "
                  "before it exits, until the others are done with its shared memory",
                  rank);
    refuse(lane, what);
  }
  place.owner = &cluster->member(rank);
  place.rank = rank;
  place.host = place.owner->window_base() + static_cast<std::uintptr_t>(address & kWindowMask);
  if (!place.owner->checks().in_shared_memory(place.host, size)) {
    std::snprintf(what, sizeof what,
                  "its .shared::cluster address %#llx is not in the shared memory of CTA rank %u (take it from mapa "
                  "of a shared address of this kernel)",
                  static_cast<unsigned long long>(address), rank);
    refuse(lane, what);
  }
  return place;
}

void require_cluster_barrier(const Lane& lane, const ClusterPlace& place, const char* use) {
  if (!place.remote()) return;
  if (worker().cluster()->barriers_passed(worker().rank(), lane.thread->linear) > 0) return;
  char what[320];
  std::snprintf(what, sizeof what,
                "it %s shared memory of CTA rank %u of its cluster before this thread has waited at any cluster "
                "barrier: that CTA may not have started yet. Wait at a cluster barrier (barrier.cluster.arrive + "
                "barrier.cluster.wait) first, after every CTA has set up what the others use",
                use, place.rank);
  refuse(lane, what);
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
        refuse(lane, "it waits at the cluster barrier without having arrived at it: barrier.cluster.wait waits for "
                     "the phase of this thread's own barrier.cluster.arrive");
      return;
    }
    case ptx::Op::mapa: {
      std::uint64_t rank = value(lane, o[2]);
      unsigned size = w.cluster() ? w.cluster()->size() : 1;
      if (rank >= size) {
        char what[160];
        std::snprintf(what, sizeof what, "it maps shared memory of CTA rank %llu, and this cluster has %u CTA%s",
                      static_cast<unsigned long long>(rank), size, size == 1 ? "" : "s");
        refuse(lane, what);
      }
      std::uint64_t a = value(lane, o[1]);
      if (in.space != ptx::Space::shared_cluster) {
        // Generic addresses: kernel code would dereference another CTA's memory directly, which
        // the CPU backend's checks cannot follow.
        if (rank != w.rank())
          refuse(lane, "the CPU backend maps other CTAs' shared memory with mapa.shared::cluster only (then "
                       "ld/st.shared::cluster, mbarrier ... .shared::cluster): the generic form is not supported");
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

// Thread block clusters on the CPU backend. The CTAs of a cluster run together: each on its own
// worker (its own OS thread, so each has its own __shared__ storage, which is thread_local), and
// only one of them at a time. A baton passes between them whenever the one holding it cannot go
// on: its threads wait for something that another CTA of the cluster gives (an mbarrier
// arrival, a multicast tensor copy, the cluster barrier). The order of turns follows the
// launch's thread order, so a run is repeatable, and reverse order starts with the last rank.
// While a worker holds the baton it may read and change the other CTAs' state (their
// mbarriers, shared memory, queues): the others are parked between turns.
//
// If a whole round of turns runs no thread, nothing can ever run again: the cluster is
// deadlocked, and the first CTA with waiting threads reports it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "engine/dim.h"

namespace engine::cpu {

class Worker;
struct GridPlan;

class ClusterRun {
 public:
  ClusterRun(const GridPlan& plan, std::atomic<std::uint64_t>& next_cluster);

  unsigned size() const { return size_; }
  // The CTA rank of `block` inside its cluster, and the block of `rank` in cluster `cluster`.
  static unsigned rank_of(const Dim3& block, const Dim3& cluster_shape);
  Dim3 block_of(std::uint64_t cluster, unsigned rank) const;

  // The OS thread of rank `rank`: runs that rank's CTA of every cluster this group takes.
  void run_member(Worker& worker, unsigned rank);

  // The workers of the cluster, by rank (valid while the grid runs).
  Worker& member(unsigned rank) const { return *members_[rank]; }
  // Whether `rank`'s CTA of the current cluster has started, and whether it has finished: every
  // thread ran to its end. A CTA the engine stopped (a deadlock, a misuse, the grid stopped by
  // another CTA) has not: on a GPU it would still hold its shared memory, and here it keeps it
  // until the cluster is done.
  bool started(unsigned rank) const { return state_[rank] != State::not_started; }
  bool finished(unsigned rank) const { return state_[rank] == State::finished; }

  // The cluster barrier (barrier.cluster.arrive / wait): every thread of every CTA arrives,
  // threads that have exited count as arrived. Called on the thread's fiber.
  void barrier_arrive(unsigned rank, unsigned thread);
  // Returns when the barrier phase that the thread arrived at has completed; false when the
  // thread has not arrived (a finding for the caller).
  bool barrier_wait(unsigned rank, unsigned thread, unsigned line, const char* file, std::uintptr_t site,
                    const char* name);
  void thread_exited(unsigned rank, unsigned thread);
  // Cluster barrier phases completed that `thread` of `rank` has waited for: what it knows the
  // other CTAs have done (it orders accesses across CTAs).
  std::uint32_t barriers_passed(unsigned rank, unsigned thread) const { return passed_[rank][thread]; }
  std::uint32_t barrier_phases() const { return generation_; }
  // Something happened that may let a parked CTA run (a remote arrival, a copy).
  void progress() { ++events_; }

 private:
  enum class State : std::uint8_t { not_started, running, finished, stopped };
  enum class Order : std::uint8_t { none, start, run, last_turn, stop };

  bool take_next_cluster();  // under the lock, by the baton holder
  // `ended`: `from`'s CTA is done; `exited`: all its threads ran to their end.
  void pass_baton(unsigned from, bool ran, bool ended, bool exited);
  void complete_barrier_if_done();

  const GridPlan& plan_;
  std::atomic<std::uint64_t>& next_cluster_;
  Dim3 shape_;
  Dim3 clusters_;  // the grid, counted in clusters
  std::uint64_t cluster_count_ = 0;
  unsigned size_ = 1;
  unsigned threads_ = 0;  // per CTA

  std::mutex lock_;
  std::condition_variable turn_;
  std::vector<Worker*> members_;
  unsigned joined_ = 0;
  std::vector<Order> orders_;
  std::vector<State> state_;
  std::vector<unsigned> rotation_;  // ranks in turn order for the current cluster
  std::uint64_t cluster_ = 0;
  unsigned idle_turns_ = 0;
  std::uint64_t events_ = 0, events_seen_ = 0;

  // The cluster barrier.
  std::uint32_t generation_ = 0;
  unsigned arrived_ = 0, exited_ = 0, arrived_then_exited_ = 0;
  std::vector<std::vector<std::uint32_t>> arrived_at_;  // per rank, per thread: generation + 1 when arrived
  std::vector<std::vector<std::uint32_t>> passed_;
  std::vector<std::vector<bool>> exited_threads_;
  std::vector<std::pair<unsigned, unsigned>> waiting_;  // (rank, thread)
};

}  // namespace engine::cpu

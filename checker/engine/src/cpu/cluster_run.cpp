#include "cluster_run.h"

#include <algorithm>

#include "grid_plan.h"
#include "seeded_shuffle.h"
#include "worker.h"

namespace engine::cpu {

ClusterRun::ClusterRun(const GridPlan& plan, std::atomic<std::uint64_t>& next_cluster)
    : plan_(plan), next_cluster_(next_cluster), shape_(plan.config.cluster) {
  const Dim3& grid = plan.config.grid;
  clusters_ = Dim3(grid.x / shape_.x, grid.y / shape_.y, grid.z / shape_.z);
  cluster_count_ = clusters_.count();
  size_ = static_cast<unsigned>(shape_.count());
  threads_ = plan.threads_per_block;
  members_.assign(size_, nullptr);
  orders_.assign(size_, Order::none);
  state_.assign(size_, State::not_started);
  arrived_at_.assign(size_, std::vector<std::uint32_t>(threads_, 0));
  passed_.assign(size_, std::vector<std::uint32_t>(threads_, 0));
  exited_threads_.assign(size_, std::vector<bool>(threads_, false));
}

unsigned ClusterRun::rank_of(const Dim3& block, const Dim3& shape) {
  return static_cast<unsigned>(shape.linear(Dim3(block.x % shape.x, block.y % shape.y, block.z % shape.z)));
}

Dim3 ClusterRun::block_of(std::uint64_t cluster, unsigned rank) const {
  Dim3 c = clusters_.unlinear(cluster), r = shape_.unlinear(rank);
  return Dim3(c.x * shape_.x + r.x, c.y * shape_.y + r.y, c.z * shape_.z + r.z);
}

// Under the lock, by the worker that holds the baton (or the last to join). Every CTA of the
// new cluster first begins its block on its own OS thread (Order::start), in rank order, so
// that no CTA can reach into another's state from before the cluster began.
bool ClusterRun::take_next_cluster() {
  if (plan_.report->stop.load()) return false;
  std::uint64_t c = next_cluster_.fetch_add(1, std::memory_order_relaxed);
  if (c >= cluster_count_) return false;
  cluster_ = c;
  std::fill(state_.begin(), state_.end(), State::not_started);
  generation_ = 0;
  arrived_ = exited_ = arrived_then_exited_ = 0;
  for (unsigned r = 0; r < size_; ++r) {
    std::fill(arrived_at_[r].begin(), arrived_at_[r].end(), 0u);
    std::fill(passed_[r].begin(), passed_[r].end(), 0u);
    std::fill(exited_threads_[r].begin(), exited_threads_[r].end(), false);
  }
  waiting_.clear();
  idle_turns_ = 0;
  // Turns follow the thread order: forward starts with rank 0, reverse with the last rank,
  // shuffled with a rank drawn from the seed and the cluster (the same run, the same turns).
  rotation_.resize(size_);
  for (unsigned r = 0; r < size_; ++r) rotation_[r] = r;
  switch (plan_.options.order) {
    case ThreadOrder::forward: break;
    case ThreadOrder::reverse: std::reverse(rotation_.begin(), rotation_.end()); break;
    case ThreadOrder::shuffled: {
      shuffle_seeded(rotation_, plan_.options.shuffle_seed * 0x9E3779B97F4A7C15ull + c * 7919u);
      break;
    }
  }
  orders_[0] = Order::start;
  return true;
}

void ClusterRun::run_member(Worker& worker, unsigned rank) {
  std::unique_lock<std::mutex> hold(lock_);
  members_[rank] = &worker;
  worker.join_cluster(this, rank);
  if (++joined_ == size_) {
    if (!take_next_cluster()) std::fill(orders_.begin(), orders_.end(), Order::stop);
    turn_.notify_all();
  }
  for (;;) {
    turn_.wait(hold, [&] { return orders_[rank] != Order::none; });
    Order order = orders_[rank];
    orders_[rank] = Order::none;
    if (order == Order::stop) return;
    hold.unlock();
    WorkerHeartbeat& beat = plan_.report->heartbeat[worker.index()];
    if (order == Order::start) {
      std::uint64_t block = plan_.config.grid.linear(block_of(cluster_, rank));
      beat.block.store(block, std::memory_order_relaxed);
      beat.busy.store(1, std::memory_order_relaxed);
      worker.begin_block(block);
      hold.lock();
      state_[rank] = State::running;
      if (rank + 1 < size_) {
        orders_[rank + 1] = Order::start;
      } else {
        orders_[rotation_[0]] = Order::run;
      }
      turn_.notify_all();
      continue;
    }
    bool ran = false;
    Worker::Turn turn = worker.run_turn(order == Order::last_turn, ran);
    const bool ended = turn == Worker::Turn::over;
    const bool exited = ended && worker.every_thread_exited();
    if (ended) {
      worker.end_block();
      beat.busy.store(0, std::memory_order_relaxed);
    }
    hold.lock();
    pass_baton(rank, ran, ended, exited);
  }
}

// Under the lock. The next CTA in the rotation that has not finished gets the baton; after a
// whole round in which no thread ran and nothing happened, each waiting CTA gets a last turn,
// in which its waits are a deadlock.
void ClusterRun::pass_baton(unsigned from, bool ran, bool ended, bool exited) {
  if (ended) state_[from] = exited ? State::finished : State::stopped;
  if (ran || events_ != events_seen_) idle_turns_ = 0;
  else ++idle_turns_;
  events_seen_ = events_;
  unsigned running = 0;
  for (State s : state_) running += s == State::running;
  if (running == 0) {
    if (!take_next_cluster()) std::fill(orders_.begin(), orders_.end(), Order::stop);
    turn_.notify_all();
    return;
  }
  unsigned at = static_cast<unsigned>(std::find(rotation_.begin(), rotation_.end(), from) - rotation_.begin());
  unsigned next = from;
  for (unsigned step = 1; step <= size_; ++step) {
    unsigned r = rotation_[(at + step) % size_];
    if (state_[r] == State::running) {
      next = r;
      break;
    }
  }
  if (idle_turns_ > running) {
    // Deadlocked. The first CTA to take its last turn reports it: one whose threads wait at
    // an mbarrier or a named barrier, if any, says more than one waiting at the cluster barrier.
    for (unsigned step = 1; step <= size_; ++step) {
      unsigned r = rotation_[(at + step) % size_];
      if (state_[r] == State::running && members_[r]->waits_beyond_cluster_barrier()) {
        next = r;
        break;
      }
    }
    orders_[next] = Order::last_turn;
  } else {
    orders_[next] = Order::run;
  }
  turn_.notify_all();
}

void ClusterRun::barrier_arrive(unsigned rank, unsigned thread) {
  arrived_at_[rank][thread] = generation_ + 1;
  ++arrived_;
  complete_barrier_if_done();
}

bool ClusterRun::barrier_wait(unsigned rank, unsigned thread, unsigned line, const char* file, std::uintptr_t site,
                              const char* name) {
  std::uint32_t arrived = arrived_at_[rank][thread];
  if (arrived == 0) return false;
  if (generation_ < arrived) {
    waiting_.emplace_back(rank, thread);
    WaitReason why;
    why.kind = WaitReason::Kind::cluster_barrier;
    why.object = arrived - 1;
    why.line = line;
    why.file = file;
    why.site = site;
    why.name = name;
    members_[rank]->block_current(why);
  }
  arrived_at_[rank][thread] = 0;
  passed_[rank][thread] = generation_;
  return true;
}

void ClusterRun::thread_exited(unsigned rank, unsigned thread) {
  exited_threads_[rank][thread] = true;
  ++exited_;
  if (arrived_at_[rank][thread] == generation_ + 1) ++arrived_then_exited_;
  complete_barrier_if_done();
}

// The phase completes when every thread of the cluster has arrived or exited. Each CTA's
// accesses before it are ordered before every CTA's accesses after it.
void ClusterRun::complete_barrier_if_done() {
  if (arrived_ + exited_ - arrived_then_exited_ < size_ * threads_ || arrived_ == 0) return;
  ++generation_;
  arrived_ = arrived_then_exited_ = 0;
  ++events_;
  std::vector<std::pair<unsigned, unsigned>> waiting = std::move(waiting_);
  waiting_.clear();
  for (unsigned r = 0; r < size_; ++r) {
    if (!members_[r] || state_[r] != State::running) continue;
    Worker& w = *members_[r];
    OutsideChange change(w);
    w.checks().next_epoch();
    w.sync().barrier_opened();
    w.progress();
  }
  for (auto [rank, thread] : waiting) members_[rank]->release(thread);
}

}  // namespace engine::cpu

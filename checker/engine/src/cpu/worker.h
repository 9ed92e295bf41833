// One worker per core. A worker runs one block at a time (in a cluster launch, one CTA of a
// cluster, taking turns with the workers of the other CTAs: cluster_run.h): each CUDA thread of the block
// is a fiber (Boost.Context) on a pooled stack, and the worker switches between them only
// where CUDA threads wait for each other: at __syncthreads(), at warp collectives
// (__shfl_sync, __syncwarp, wmma, ...), and when a thread returns. So a barrier is a true
// barrier, and all threads of a block see the same __shared__ storage (this OS thread's
// thread_local).
#pragma once

#include <atomic>
#include <boost/context/fiber.hpp>
#include <cstdint>
#include <vector>

#include "access_checks.h"
#include "async_profile.h"
#include "block_loops.h"
#include "tensor_edges.h"
#include "cuda_thread.h"
#include "cuda_cpu/runtime_hooks.h"
#include "grid_plan.h"

namespace engine::cpu {

// A warp collective's misuse, as the rule broken and its numbers (Finding::Misuse).
struct MisuseFacts {
  Finding::Misuse rule = Finding::Misuse::other;
  long long value = 0, limit = 0;
  const char* subject = nullptr;  // a string literal
};
// Stops the grid with that finding; kernel code's collectives (warp_lanes.cpp, wmma.cpp) call it.
[[noreturn]] void warp_misuse(cuda_cpu::WarpOp op, unsigned lane, const MisuseFacts& facts);

// A warp collective that some lanes have reached and others not yet.
struct WarpMeeting {
  cuda_cpu::WarpOp op{};
  unsigned mask = 0, arrived = 0;
  unsigned line = 0;
  const char* file = "";
  void* lane_data[kWarpSize] = {};
  cuda_cpu::WarpComplete complete = nullptr;
  const void* context = nullptr;
  const char* name = nullptr;  // inline PTX: the instruction, in the launch report's text pool
};

class ClusterRun;

class Worker {
 public:
  Worker(const GridPlan& plan, unsigned index);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Takes blocks from `next_block` until none are left or the grid is stopped.
  void run(std::atomic<std::uint64_t>& next_block);

  // Cluster launches (ClusterRun drives these, one CTA of each cluster per worker).
  void join_cluster(ClusterRun* cluster, unsigned rank) { cluster_ = cluster, rank_ = rank; }
  ClusterRun* cluster() const { return cluster_; }
  unsigned rank() const { return rank_; }
  void begin_block(std::uint64_t block);
  void end_block();
  // Runs the block's threads until none can run. `over`: the block has finished (or stopped
  // with a finding). `waiting`: threads wait for what another CTA of the cluster may still give;
  // with `last`, nothing will, and the block stops as deadlocked. `ran`: some thread ran.
  enum class Turn { over, waiting };
  Turn run_turn(bool last, bool& ran);
  // Where this worker's shared address 0 is (its own OS thread's __shared__ storage).
  // Some thread waits at something other than the cluster barrier (an mbarrier, ...): when the
  // cluster deadlocks, this CTA's finding says more than one whose threads only wait there.
  bool waits_beyond_cluster_barrier() const;
  // Whether every thread of the block ran to its end (none was stopped or aborted).
  bool every_thread_exited() const;
  std::uintptr_t window_base() const { return checks_.shared_low() & ~std::uintptr_t{1023}; }
  // Another worker of the cluster changed this one's state from its own OS thread: the checks'
  // per-thread fast path is read again at this worker's next turn.
  void changed_from_outside() { outside_change_ = true; }

  // Called on a CUDA thread's fiber.
  int barrier(cuda_cpu::BarrierReduce reduce, int predicate, unsigned line, const char* file);
  // The two halves of a barrier, which a kernel run as loops calls apart (block_loops.h): the
  // running thread arrives (`site`: where it resumes), and, once resumed, reads the reduction.
  void arrive_at_barrier(unsigned site, int predicate, unsigned line, const char* file);
  int barrier_result(cuda_cpu::BarrierReduce reduce) const;
  // Whether this launch's kernel runs as loops (else on fibers).
  bool runs_as_loops() const { return loops_ != nullptr; }
  // `name`: for WarpOp::ptx, the instruction (lanes meet only at the same one), kept in the
  // launch report's text pool so that findings can name it.
  void warp_collective(cuda_cpu::WarpOp op, unsigned mask, void* lane_data, cuda_cpu::WarpComplete complete,
                       const void* context, unsigned line, const char* file, const char* name = nullptr);
  [[noreturn]] void warp_misuse(cuda_cpu::WarpOp op, unsigned lane, const char* what);
  // The same, for a rule the engine reports as a fact (Finding::Misuse) rather than in words.
  [[noreturn]] void warp_misuse(cuda_cpu::WarpOp op, unsigned lane, const MisuseFacts& facts);
  // cooperative_groups::coalesced_threads(): the lanes of the caller's warp that reach this call
  // (line, file) together, as a mask of warp lanes.
  unsigned coalesce(unsigned line, const char* file);
  // At a volatile access (cuda_cpu/volatile_step.h): the running thread waits until every other
  // lane of its warp that still runs in this phase has reached a step too.
  void volatile_step();
  // At an atomic: while lanes wait at a volatile step or are released from one and not yet on
  // their way, the running thread waits with them, so that a lane spinning on an atomic (a
  // lock, a flag) lets them go on to what it waits for.
  void atomic_step();

  // Waits other than __syncthreads() and warp collectives (block_sync.h). The running thread
  // stops until release() puts it back in the queue; if nothing can release it, the phase ends
  // with it blocked and the block stops with a deadlock finding.
  void block_current(const WaitReason& why);
  void release(unsigned thread);
  // Lets the other threads run before the current one goes on (a polling wait).
  void yield_current();
  BlockSync& sync() { return sync_; }
  // bar.sync id, count (bar.arrive: `wait` false). Returns when the barrier completes.
  void named_barrier(unsigned id, unsigned count, bool wait, const WaitReason& where);
  // The 128 threads of a warpgroup (warps 4g .. 4g + 3) meet, as the lanes of a warp do at a
  // warp collective; the last to arrive calls `complete` with every thread's data.
  void warpgroup_collective(void* data, cuda_cpu::WarpComplete complete, const void* context, const WaitReason& where);
  // Counts a sign of progress (an mbarrier phase, a landed copy): polling threads spin
  // only while something happens.
  void progress() { ++progress_; }
  unsigned active_mask() const;
  CudaThread& current() { return threads_[running_]; }
  CudaThread& thread(unsigned linear) { return threads_[linear]; }
  std::uint64_t current_block() const { return block_; }
  AccessChecks& checks() { return checks_; }
  // With RunOptions::profile: what the asynchronous units did in this worker's CTAs; else null.
  AsyncProfile* async_profile() { return plan_.options.profile ? &async_profile_ : nullptr; }
  // Tensor copies' boxes over the tensor's edges, counted on every launch.
  TensorEdges& tensor_edges() { return tensor_edges_; }
  const GridPlan& plan() const { return plan_; }
  bool in_stack_guard(std::uintptr_t address) const;
  unsigned index() const { return index_; }
  // Adds this worker's counts to the launch report, once its last block is done.
  void fold_statistics();
  // A finding that stops the whole grid, raised on the current thread.
  [[noreturn]] void stop_grid_with(RawFinding& f);
  // Counts completed __syncwarp()s of a warp: accesses on either side are ordered.
  std::uint32_t warp_syncs(unsigned warp) const { return warp_syncs_[warp]; }

 private:
  void make_fibers();
  void make_frames();
  // Runs the queue's threads, each from where it stopped to its next barrier or its end.
  void run_as_loops();
  boost::context::fiber thread_main(unsigned fiber, boost::context::fiber&& from);
  void run_block(std::uint64_t block);
  bool end_of_phase();           // false when the block is over
  // The barrier opens for the threads of at_barrier_, which become the next phase's queue;
  // `only_reads`: each of them goes on into code that only reads (Arrivals::only_reads).
  bool open_barrier(int predicates_true, bool only_reads);
  bool waits_on_other_ctas() const;
  bool resume_after_landing();  // true when landed copies released waiting threads
  bool release_converged();     // true when lanes waiting at coalesced_threads() were released
  bool release_stepping();      // true when lanes waiting at a volatile step were released
  bool runs_later_in_phase(unsigned thread) const;  // queued, and not started since
  void wait_at_step();
  void stop_waiting_threads();
  // `self` and `target` are threads (n_: the scheduler); each runs on the fiber fiber_of_ names.
  void switch_to(unsigned self, unsigned target);
  void become(unsigned target);  // the running thread's state for kernel code and the checks
  void pass_on(unsigned self);
  void wait_here(unsigned self);
  void order_queue(std::vector<unsigned>& queue, std::uint64_t phase);
  void record_divergence(FindingKind kind, const char* op, unsigned warp, unsigned mask,
                         const CudaThread* arriving = nullptr);
  void record_deadlock();

  const GridPlan& plan_;
  unsigned index_;
  unsigned n_;  // threads per block; slot n_ is the scheduler (this OS thread's own stack)
  unsigned warps_;
  const bool instrumented_;      // the kernel's code is (the checks' callbacks, inline checks)
  WorkerHeartbeat& heartbeat_;   // this worker's, in the launch report: which thread runs
  std::vector<CudaThread> threads_;
  std::vector<boost::context::fiber> handles_;  // per fiber; n_: the scheduler's
  // The fiber each thread runs on: its own, unless it had not started when a thread ended on
  // another fiber, which then ran it (thread_main). Reset for each block.
  std::vector<unsigned> fiber_of_;
  std::vector<char> started_;  // whether each thread has begun in this block
  std::vector<std::vector<WarpMeeting>> meetings_;  // per warp, one per mask that lanes wait in
  // Lanes waiting at a coalesced_threads() call, per warp and call.
  struct ConvergencePoint {
    unsigned warp, line;
    const char* file;
    unsigned arrived;
  };
  std::vector<ConvergencePoint> converging_;
  unsigned stepping_ = 0;  // lanes waiting at a volatile step
  unsigned stepped_ = 0;   // lanes released from one and not yet on their way
  const char* completing_name_ = nullptr;  // the PTX instruction whose collective is being completed
  std::vector<std::uint32_t> warp_syncs_;
  unsigned running_ = 0;
  unsigned came_from_ = 0;
  std::vector<unsigned> queue_;
  std::size_t pos_ = 0;
  bool stopping_ = false;
  std::uint64_t block_ = 0;
  std::uint64_t phase_ = 0;
  ClusterRun* cluster_ = nullptr;
  unsigned rank_ = 0;
  bool outside_change_ = false;
  int predicates_true_ = 0, predicates_seen_ = 0;  // at the last barrier, for count/and/or
  // Arrivals at __syncthreads() since the last barrier opened: when every thread of the block
  // arrived at one line, the barrier opens without a look at each thread (end_of_phase).
  struct Arrivals {
    unsigned count = 0;
    int predicates_true = 0;
    unsigned line = 0;
    const char* file = nullptr;
    bool one_place = true;
    // Block loops: whether each arrival resumes into code that writes only its own frame until
    // its next barrier (LoopInvoker::reads_only), so that no thread writes shared memory in the
    // coming epoch.
    bool only_reads = true;
  } arrivals_;
  std::vector<unsigned> at_barrier_;  // end_of_phase's list, kept for its capacity

  // Block loops: the kernel's loop invoker; each thread's frame and where it resumes.
  const LoopInvoker* loops_ = nullptr;
  char* frames_ = nullptr;
  std::size_t frame_stride_ = 0;
  std::vector<unsigned> resume_;

  char* stacks_ = nullptr;
  std::size_t guard_bytes_ = 0;  // one page below each stack
  std::size_t stack_stride_ = 0;
  std::size_t stacks_bytes_ = 0;

  BlockSync sync_;
  std::uint64_t progress_ = 0, spin_progress_ = 0, spins_ = 0;
  AccessChecks checks_;
  MemoryProfile profile_;
  AsyncProfile async_profile_;
  TensorEdges tensor_edges_;
  std::uint64_t barrier_waits_ = 0;
  std::uint64_t intervals_settled_ = 0;  // barrier intervals that only read, settled at their start
  std::uint64_t total_loads_ = 0;
  std::uint64_t max_loads_ = 0, max_loads_block_ = 0;
  std::uint32_t max_loads_thread_ = 0;
};

// Inline: a kernel run as loops calls it for every thread at every barrier.
inline void Worker::arrive_at_barrier(unsigned site, int predicate, unsigned line, const char* file) {
  CudaThread& t = current();
  t.state = CudaThread::State::at_barrier;
  t.wait_line = line;
  t.wait_file = file;
  t.predicate = predicate;
  ++barrier_waits_;
  if (loops_) {
    resume_[t.linear] = site;
    arrivals_.only_reads &= loops_->reads_only != nullptr && loops_->reads_only[site] != 0;
  }
  if (arrivals_.count++ == 0) {
    arrivals_.line = line;
    arrivals_.file = file;
  } else if (line != arrivals_.line || file != arrivals_.file) {
    arrivals_.one_place = false;
  }
  arrivals_.predicates_true += predicate != 0;
}

// The worker of this OS thread while it runs a grid; null elsewhere.
extern __thread Worker* current_worker;

// Held while this OS thread changes another worker's checks (a CTA of the same cluster): the
// checks' fast path is per OS thread, so this thread's is kept, and the owner reads its own again
// at its next turn. For this thread's own worker it does nothing.
class OutsideChange {
 public:
  explicit OutsideChange(Worker& owner) : owner_(owner), kept_(fast_path), outside_(&owner != current_worker) {}
  ~OutsideChange() {
    if (!outside_) return;
    fast_path = kept_;
    owner_.changed_from_outside();
  }
  OutsideChange(const OutsideChange&) = delete;
  OutsideChange& operator=(const OutsideChange&) = delete;

 private:
  Worker& owner_;
  FastPath kept_;
  bool outside_;
};
// The CUDA thread running on this OS thread; null outside kernel code.
extern __thread CudaThread* current_thread;

// This OS thread's worker, for an entry point that kernel code calls (a barrier, a warp
// collective, ...): called anywhere else it is a bug in a test, said with `what` and aborted
// (kernel_calls.cpp).
Worker& worker_here(const char* what);

}  // namespace engine::cpu

#include "worker.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <boost/context/preallocated.hpp>
#include <boost/context/stack_context.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "builtin_slots.h"
#include "cuda_cpu/block_loop_abi.h"
#include "cluster_run.h"
#include "page_size.h"
#include "seeded_shuffle.h"

namespace engine::cpu {

__thread Worker* current_worker = nullptr;
__thread CudaThread* current_thread = nullptr;

namespace ctx = boost::context;
using cuda_cpu::WarpOp;

namespace {
// Room for printf and a few local arrays; a guard page below each stack turns an
// overflow into a reported fault instead of silent corruption.
constexpr std::size_t kStackSize = 256 * 1024;
// Stacks are staggered by this much, over this many offsets (a 4 KiB page: 64 cache lines).
constexpr std::size_t kStackColorBytes = 64;
constexpr std::size_t kStackColors = 64;
// An epoch that only reads has its written shared words settled in one scan as it starts when
// there are at most this many words per thread of the block: each thread's run through the
// epoch costs several times the scan of this many words, and the callbacks it saves (the first
// readers of each word, about 30 ns each) more.
constexpr unsigned kSettledWordsPerThread = 16;

// Stacks come from the worker's pool, made once per launch and reused for every block.
struct PooledStack {
  ctx::stack_context allocate() { return {}; }
  void deallocate(ctx::stack_context&) noexcept {}
};

const char* op_name(const WarpMeeting& m) { return m.name ? m.name : cuda_cpu::warp_op_name(m.op); }

// The meeting of its warp that a lane waits in (null when it waits in none).
const WarpMeeting* meeting_of(const CudaThread& t, const std::vector<std::vector<WarpMeeting>>& meetings) {
  for (const WarpMeeting& m : meetings[t.warp])
    if (m.arrived & (1u << t.lane)) return &m;
  return nullptr;
}

const char* waits_at(const CudaThread& t, const std::vector<std::vector<WarpMeeting>>& meetings) {
  if (t.state == CudaThread::State::at_barrier) return "__syncthreads()";
  if (t.state == CudaThread::State::converging) return "cooperative_groups::coalesced_threads()";
  if (t.state == CudaThread::State::at_warp_collective) {
    const WarpMeeting* m = meeting_of(t, meetings);
    return m ? op_name(*m) : "";
  }
  return "";
}
}  // namespace

Worker::Worker(const GridPlan& plan, unsigned index)
    : plan_(plan),
      index_(index),
      n_(plan.threads_per_block),
      warps_((plan.threads_per_block + kWarpSize - 1) / kWarpSize),
      instrumented_(plan.kernel->instrumented),
      heartbeat_(plan.report->heartbeat[index]) {
  // Workers are made on their own threads (grid_runner.cpp).
  heartbeat_.os_thread.store(static_cast<std::int32_t>(syscall(SYS_gettid)), std::memory_order_relaxed);
  threads_.resize(n_);
  const Dim3& bd = plan.config.block;
  for (unsigned i = 0; i < n_; ++i) {
    Dim3 t = bd.unlinear(i);
    threads_[i].linear = i;
    threads_[i].warp = i / kWarpSize;
    threads_[i].lane = i % kWarpSize;
    threads_[i].thread_idx = uint3{t.x, t.y, t.z};
  }
  meetings_.resize(warps_);
  warp_syncs_.resize(warps_);
  builtin_block_dim = uint3{bd.x, bd.y, bd.z};
  builtin_grid_dim = uint3{plan.config.grid.x, plan.config.grid.y, plan.config.grid.z};
  current_worker = this;
  checks_.prepare(plan);
  if (plan.options.profile && plan.kernel->instrumented) {
    profile_.prepare(n_);
    fast_path.profile = &profile_;
  } else {
    fast_path.profile = nullptr;
  }
  refresh_settled_tags(fast_path);
  loops_ = loop_invoker_for(plan.kernel->cpu_invoke, plan.kernel->address);
  if (loops_)
    make_frames();
  else
    make_fibers();
}

Worker::~Worker() {
  current_worker = nullptr;
  current_thread = nullptr;
  // Fibers still suspended inside a kernel (a stopped block) are abandoned with the
  // process, so their stacks are not unmapped under them.
  for (auto& h : handles_) h = {};
  if (stacks_) munmap(stacks_, stacks_bytes_);
  std::free(frames_);
}

void Worker::make_frames() {
  frame_stride_ = (loops_->frame_bytes + CUDA_CPU_LOOP_FRAME_ALIGNMENT - 1) / CUDA_CPU_LOOP_FRAME_ALIGNMENT *
                  CUDA_CPU_LOOP_FRAME_ALIGNMENT;
  frames_ = static_cast<char*>(std::aligned_alloc(CUDA_CPU_LOOP_FRAME_ALIGNMENT, frame_stride_ * n_));
  if (frames_ == nullptr) {
    std::fprintf(stderr, "the CPU backend could not allocate %zu bytes for the frames of %u threads run as loops\n",
                 frame_stride_ * n_, n_);
    std::abort();
  }
  resume_.assign(n_, 0);
}

void Worker::make_fibers() {
  guard_bytes_ = page_size();
  stack_stride_ = kStackSize + guard_bytes_;
  stacks_bytes_ = stack_stride_ * n_;
  void* mem = mmap(nullptr, stacks_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) std::abort();
  stacks_ = static_cast<char*>(mem);
  handles_.resize(n_ + 1);
  fiber_of_.resize(n_);
  started_.resize(n_);
  for (unsigned i = 0; i < n_; ++i) {
    char* low = stacks_ + i * stack_stride_;
    mprotect(low, guard_bytes_, PROT_NONE);  // guard page
    // Each stack starts at its own offset in the page: with equal offsets, every thread's
    // top frames (the barrier, the switch) would fall into the same few sets of the cache and
    // evict each other at every switch.
    std::size_t color = (i % kStackColors) * kStackColorBytes;
    ctx::stack_context sc;
    sc.size = kStackSize - color;
    sc.sp = low + stack_stride_ - color;
    ctx::preallocated pre(sc.sp, sc.size, sc);
    handles_[i] = ctx::fiber(std::allocator_arg, pre, PooledStack{},
                             [this, i](ctx::fiber&& from) { return thread_main(i, std::move(from)); });
  }
}

bool Worker::in_stack_guard(std::uintptr_t address) const {
  auto base = reinterpret_cast<std::uintptr_t>(stacks_);
  return stacks_ && address - base < stacks_bytes_ && (address - base) % stack_stride_ < guard_bytes_;
}

ctx::fiber Worker::thread_main(unsigned fiber, ctx::fiber&& from) {
  handles_[came_from_] = std::move(from);
  for (;;) {
    unsigned slot = running_;  // the thread this fiber was resumed for, or took over below
    CudaThread& t = threads_[slot];
    started_[slot] = 1;
    try {
      plan_.kernel->cpu_invoke(plan_.args);
      t.state = CudaThread::State::exited;
      if (cluster_) cluster_->thread_exited(rank_, slot);
    } catch (const ThreadAborted&) {
      t.state = CudaThread::State::aborted;
    }
    // The queue's next thread, if it has not started, starts here, on a stack still in the
    // cache: on its own fiber it would start the same way, a switch and a cold stack later.
    // The order of the threads, and so what the checks see, is the same.
    if (pos_ < queue_.size() && !started_[queue_[pos_]] && !stopping_) {
      unsigned next = queue_[pos_++];
      fiber_of_[next] = fiber;
      become(next);
      continue;
    }
    pass_on(slot);
  }
}

// Block loops: each thread of the queue is called from where it stopped to its next barrier.
void Worker::run_as_loops() {
  const CpuInvoker run = loops_->run;
  void* const* args = plan_.args;
  while (pos_ < queue_.size()) {
    unsigned slot = queue_[pos_++];
    CudaThread& t = threads_[slot];
    become(slot);
    t.state = CudaThread::State::ready;  // resumed after its barrier (fibers: in barrier())
    CUDA_CPU_LOOP_FRAME = frames_ + slot * frame_stride_;
    CUDA_CPU_LOOP_RESUME = resume_[slot];
    try {
      run(args);
      if (t.state != CudaThread::State::at_barrier) {
        t.state = CudaThread::State::exited;
        if (cluster_) cluster_->thread_exited(rank_, slot);
      }
    } catch (const ThreadAborted&) {
      t.state = CudaThread::State::aborted;
    }
  }
  become(n_);
}

// Fibers hand control straight to the next thread of the phase, not back through the
// scheduler: one switch per thread per barrier.
void Worker::switch_to(unsigned self, unsigned target) {
  // Only kernels on fibers wait anywhere but at a barrier (the pass keeps the others on fibers).
  if (loops_) {
    std::fprintf(stderr, "internal error: a kernel run as block loops waited outside __syncthreads()\n");
    std::abort();
  }
  came_from_ = self < n_ ? fiber_of_[self] : n_;
  become(target);
  ctx::fiber from = std::move(handles_[target < n_ ? fiber_of_[target] : n_]).resume();
  handles_[came_from_] = std::move(from);
}

void Worker::become(unsigned target) {
  running_ = target;
  // The settled tags, which only instrumented code reads, depend on the running thread through
  // its warp alone: its number and its __syncwarp() count, whose changes refresh them, as does
  // every other change of what they read (a launch's checks as they start: AccessChecks::prepare).
  // A thread of the warp that ran before keeps them, which saves a third of this function's time
  // for each thread of a block loop.
  const bool refresh = instrumented_ && !(fast_path.me != 0 && target < n_ &&
                                          (fast_path.me - 1u) / kWarpSize == target / kWarpSize &&
                                          fast_path.warp_syncs == &warp_syncs_[threads_[target].warp]);
  if (target < n_) {
    current_thread = &threads_[target];
    builtin_thread_idx = threads_[target].thread_idx;
    fast_path.me = static_cast<std::uint16_t>(target + 1);
    fast_path.loads = &threads_[target].global_loads;
    fast_path.proxy_fences = &threads_[target].proxy_fences;
    fast_path.warp_syncs = &warp_syncs_[threads_[target].warp];
  } else {
    current_thread = nullptr;
    fast_path.me = 0;
  }
  if (refresh) refresh_settled_tags(fast_path);
  // The CUDA thread that runs, or last ran: a limit that runs out while the worker is between two
  // threads (a warp's lanes taking their steps pass through the scheduler) still names one.
  if (target < n_) heartbeat_.thread.store(target, std::memory_order_relaxed);
}

void Worker::pass_on(unsigned self) { switch_to(self, pos_ < queue_.size() ? queue_[pos_++] : n_); }

void Worker::wait_here(unsigned self) {
  pass_on(self);
  if (stopping_) throw ThreadAborted{};
}

int Worker::barrier(cuda_cpu::BarrierReduce reduce, int predicate, unsigned line, const char* file) {
  CudaThread& t = current();
  arrive_at_barrier(0, predicate, line, file);
  wait_here(t.linear);
  t.state = CudaThread::State::ready;
  return barrier_result(reduce);
}

int Worker::barrier_result(cuda_cpu::BarrierReduce reduce) const {
  switch (reduce) {
    case cuda_cpu::BarrierReduce::count: return predicates_true_;
    case cuda_cpu::BarrierReduce::all: return predicates_true_ == predicates_seen_ ? 1 : 0;
    case cuda_cpu::BarrierReduce::any: return predicates_true_ > 0 ? 1 : 0;
    case cuda_cpu::BarrierReduce::none: break;
  }
  return 0;
}

void Worker::warp_collective(WarpOp op, unsigned mask, void* lane_data, cuda_cpu::WarpComplete complete,
                             const void* context, unsigned line, const char* file, const char* name) {
  CudaThread& t = current();
  t.wait_line = line;  // also the line of accesses made for the collective (lane_access)
  t.wait_file = file;
  unsigned bit = 1u << t.lane;
  if (!(mask & bit)) warp_misuse(op, t.lane, MisuseFacts{Finding::Misuse::own_lane_not_in_mask});
  // Lanes of a warp meet by mask: collectives of other masks (the two sides of a branch, the
  // groups of a partition, a whole-warp collective that waits for them) are separate meetings,
  // as on a GPU since Volta. Lanes that wait for each other in a cycle are found when no thread
  // can run (end_of_phase), as a divergence.
  std::vector<WarpMeeting>& here = meetings_[t.warp];
  WarpMeeting* found = nullptr;
  for (WarpMeeting& candidate : here)
    if (candidate.mask == mask) {
      found = &candidate;
      break;
    }
  if (found == nullptr) {
    here.emplace_back();
    found = &here.back();
    found->op = op;
    found->mask = mask;
    found->line = line;
    found->file = file;
    found->complete = complete;
    found->context = context;
    found->name = name;
  } else if (found->op != op || (name && found->name && std::strcmp(name, found->name) != 0)) {
    // Lanes of one warp at different collectives with the same mask: they can never meet.
    // CUDA lets matching __syncwarp()s sit on different lines, but not different ops.
    record_divergence(FindingKind::warp_divergence, name ? name : warp_op_name(op), t.warp, mask, &t);
    throw ThreadAborted{};
  }
  WarpMeeting& m = *found;
  m.lane_data[t.lane] = lane_data;
  m.arrived |= bit;
  unsigned first = t.warp * kWarpSize;
  unsigned lanes_here = std::min(kWarpSize, n_ - first);
  unsigned existing = lanes_here == kWarpSize ? ~0u : (1u << lanes_here) - 1u;
  unsigned needed = mask & existing;
  if ((m.arrived & needed) != needed) {
    t.state = CudaThread::State::at_warp_collective;
    wait_here(t.linear);
    t.state = CudaThread::State::ready;
    return;
  }
  // The last lane to arrive does the collective's work for all of them.
  WarpMeeting done = m;
  here.erase(here.begin() + (&m - here.data()));
  completing_name_ = done.name;
  done.complete(done.lane_data, done.arrived, done.context);
  completing_name_ = nullptr;
  if (op == WarpOp::syncwarp) {
    ++warp_syncs_[t.warp];
    refresh_settled_tags(fast_path);  // the running lane's warp
  }
  for (unsigned l = 0; l < lanes_here; ++l) {
    if (l == t.lane || !(done.arrived & (1u << l))) continue;
    threads_[first + l].state = CudaThread::State::ready;
    queue_.push_back(first + l);
  }
}

// coalesced_threads(): the lanes of the warp that reach this call together. Lanes run one after
// another here, so together means: at this call (its line and file) once every other lane of the
// warp has arrived too, returned, or stopped elsewhere (a barrier, a collective, a wait). The
// two sides of a branch that both call it are two groups, as on a GPU.
unsigned Worker::coalesce(unsigned line, const char* file) {
  CudaThread& t = current();
  unsigned first = t.warp * kWarpSize;
  unsigned lanes_here = std::min(kWarpSize, n_ - first);
  ConvergencePoint* point = nullptr;
  for (ConvergencePoint& p : converging_)
    if (p.warp == t.warp && p.line == line && p.file == file) point = &p;
  if (point == nullptr) {
    converging_.push_back(ConvergencePoint{t.warp, line, file, 0});
    point = &converging_.back();
  }
  point->arrived |= 1u << t.lane;
  unsigned live = 0;
  for (unsigned l = 0; l < lanes_here; ++l) {
    auto state = threads_[first + l].state;
    if (state != CudaThread::State::exited && state != CudaThread::State::aborted) live |= 1u << l;
  }
  if (point->arrived == live) {
    unsigned group = point->arrived;
    converging_.erase(converging_.begin() + (point - converging_.data()));
    for (unsigned l = 0; l < lanes_here; ++l) {
      if (l == t.lane || !(group & (1u << l))) continue;
      threads_[first + l].converged = group;
      threads_[first + l].state = CudaThread::State::ready;
      queue_.push_back(first + l);
    }
    return group;
  }
  t.state = CudaThread::State::converging;
  t.wait_line = line;
  t.wait_file = file;
  wait_here(t.linear);
  t.state = CudaThread::State::ready;
  return t.converged;
}

// Every runnable thread has stopped: the lanes waiting at each coalesced_threads() call form its
// group, and run on.
bool Worker::release_converged() {
  if (converging_.empty()) return false;
  queue_.clear();
  pos_ = 0;
  for (const ConvergencePoint& p : converging_)
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!(p.arrived & (1u << l))) continue;
      CudaThread& lane = threads_[p.warp * kWarpSize + l];
      lane.converged = p.arrived;
      lane.state = CudaThread::State::ready;
      queue_.push_back(lane.linear);
    }
  converging_.clear();
  return true;
}

void Worker::volatile_step() {
  CudaThread& t = current();
  unsigned first = t.warp * kWarpSize, end = std::min(first + kWarpSize, n_);
  bool partner = false;
  for (unsigned i = first; i < end && !partner; ++i) {
    if (i == t.linear) continue;
    CudaThread::State s = threads_[i].state;
    // A lane at a barrier is either done for this phase, or released by it and not started yet
    // (a lane released from any other wait is ready again at once).
    partner = s == CudaThread::State::ready || s == CudaThread::State::stepping ||
              (s == CudaThread::State::at_barrier && runs_later_in_phase(i));
  }
  if (!partner) return;  // alone: nothing can come between its accesses
  wait_at_step();
}

void Worker::atomic_step() {
  if (stepping_ != 0 || stepped_ != 0) wait_at_step();
}

void Worker::wait_at_step() {
  CudaThread& t = current();
  t.state = CudaThread::State::stepping;
  ++stepping_;
  wait_here(t.linear);
  --stepped_;
  t.state = CudaThread::State::ready;
}

bool Worker::runs_later_in_phase(unsigned thread) const {
  for (std::size_t i = pos_; i < queue_.size(); ++i)
    if (queue_[i] == thread) return true;
  return false;
}

// Every lane that could run has reached its step (or stopped elsewhere): each takes its access.
bool Worker::release_stepping() {
  if (stepping_ == 0) return false;
  queue_.clear();
  pos_ = 0;
  for (CudaThread& t : threads_)
    if (t.state == CudaThread::State::stepping) {
      t.state = CudaThread::State::ready;
      queue_.push_back(t.linear);
    }
  stepped_ += stepping_;
  stepping_ = 0;
  return true;
}

void Worker::warp_misuse(WarpOp op, unsigned lane, const MisuseFacts& facts) {
  CudaThread& t = current();
  RawFinding f{};
  f.kind = FindingKind::warp_misuse;
  f.block = block_;
  f.thread = t.warp * kWarpSize + lane;
  f.op = cuda_cpu::warp_op_name(op);
  f.warp = t.warp;
  f.line = t.wait_line;
  f.file = t.wait_file;
  f.misuse = static_cast<std::uint32_t>(facts.rule);
  f.misuse_value = facts.value;
  f.misuse_limit = facts.limit;
  f.misuse_subject = facts.subject;
  stop_grid_with(f);
}

void Worker::warp_misuse(WarpOp op, unsigned lane, const char* what) {
  CudaThread& t = current();
  RawFinding f{};
  f.kind = FindingKind::warp_misuse;
  f.block = block_;
  f.thread = t.warp * kWarpSize + lane;
  f.op = op == WarpOp::ptx && completing_name_ ? plan_.report->intern(completing_name_) : cuda_cpu::warp_op_name(op);
  f.warp = t.warp;
  f.line = t.wait_line;
  f.file = t.wait_file;
  if (op == WarpOp::ptx) f.pc = t.wait_site;
  std::snprintf(f.detail, sizeof f.detail, "%s", what);
  stop_grid_with(f);
}

unsigned Worker::active_mask() const {
  const CudaThread& me = threads_[running_];
  unsigned mask = 0, first = me.warp * kWarpSize;
  for (unsigned l = 0; l < kWarpSize && first + l < n_; ++l) {
    auto s = threads_[first + l].state;
    if (s != CudaThread::State::exited && s != CudaThread::State::aborted) mask |= 1u << l;
  }
  return mask;
}

void Worker::stop_grid_with(RawFinding& f) {
  plan_.report->add(f, index_);
  plan_.report->stop.store(1);
  throw ThreadAborted{};
}

void Worker::order_queue(std::vector<unsigned>& queue, std::uint64_t phase) {
  switch (plan_.options.order) {
    case ThreadOrder::forward:
      break;
    case ThreadOrder::reverse:
      std::reverse(queue.begin(), queue.end());
      break;
    case ThreadOrder::shuffled: {
      // Seeded by block and phase: the same run gives the same order.
      shuffle_seeded(queue, plan_.options.shuffle_seed * 0x9E3779B97F4A7C15ull + block_ * 1000003u + phase);
      break;
    }
  }
}

void Worker::run(std::atomic<std::uint64_t>& next_block) {
  while (!plan_.report->stop.load(std::memory_order_relaxed)) {
    std::uint64_t b = next_block.fetch_add(1, std::memory_order_relaxed);
    if (b >= plan_.blocks) break;
    heartbeat_.block.store(b, std::memory_order_relaxed);
    heartbeat_.busy.store(1, std::memory_order_relaxed);
    run_block(b);
    heartbeat_.busy.store(0, std::memory_order_relaxed);
  }
  fold_statistics();
}

void Worker::run_block(std::uint64_t block) {
  begin_block(block);
  bool ran = false;
  run_turn(true, ran);
  end_block();
}

void Worker::begin_block(std::uint64_t block) {
  block_ = block;
  Dim3 b = plan_.config.grid.unlinear(block);
  builtin_block_idx = uint3{b.x, b.y, b.z};
  for (CudaThread& t : threads_) {
    t.state = CudaThread::State::ready;
    t.global_loads = 0;
    t.copies.reset();
    t.proxy_fences = 0;
    t.accumulators.clear();
  }
  for (auto& warp_meetings : meetings_) warp_meetings.clear();
  converging_.clear();
  stepping_ = stepped_ = 0;
  arrivals_ = Arrivals{};
  std::fill(warp_syncs_.begin(), warp_syncs_.end(), 0u);
  sync_.reset(n_);
  checks_.new_block();
  queue_.resize(n_);
  for (unsigned i = 0; i < n_; ++i) queue_[i] = i;
  if (loops_) {
    std::fill(resume_.begin(), resume_.end(), 0u);
  } else {
    for (unsigned i = 0; i < n_; ++i) fiber_of_[i] = i;
    std::fill(started_.begin(), started_.end(), 0);
  }
  pos_ = 0;
  phase_ = 0;
}

Worker::Turn Worker::run_turn(bool last, bool& ran) {
  ran = false;
  if (outside_change_) {
    checks_.resume_fast_path();
    outside_change_ = false;
  }
  for (;;) {
    // Threads queued since the last run: at the start, by an opened barrier, by landed copies,
    // or released by another CTA of the cluster while this one was parked.
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(pos_));
    pos_ = 0;
    if (!queue_.empty()) {
      ran = true;
      order_queue(queue_, phase_++);
      if (loops_)
        run_as_loops();
      else
        switch_to(n_, queue_[pos_++]);  // returns when every thread in the queue has stopped
      queue_.clear();
      pos_ = 0;
      continue;
    }
    // Lanes at a volatile step first: they may go on to a coalesced_threads() that others wait at.
    if (release_stepping()) continue;
    if (release_converged()) continue;
    if (sync_.land_awaited_copies && resume_after_landing()) continue;
    if (cluster_ && plan_.report->stop.load()) {
      // Another CTA of the cluster stopped the grid: this one's waiting threads end quietly.
      stop_waiting_threads();
      return Turn::over;
    }
    if (cluster_ && !last && waits_on_other_ctas()) return Turn::waiting;
    if (!end_of_phase()) return Turn::over;
    sync_.barrier_opened();
  }
}

// Some threads wait at an mbarrier or the cluster barrier, none can run, and no thread was
// stopped: another CTA of the cluster may still release them.
bool Worker::waits_on_other_ctas() const {
  bool blocked = false;
  for (const CudaThread& t : threads_) {
    if (t.state == CudaThread::State::aborted) return false;
    blocked |= t.state == CudaThread::State::blocked;
  }
  return blocked;
}

bool Worker::waits_beyond_cluster_barrier() const {
  for (const CudaThread& t : threads_)
    if (t.state == CudaThread::State::blocked && t.wait.kind != WaitReason::Kind::cluster_barrier) return true;
  return false;
}

bool Worker::every_thread_exited() const {
  for (const CudaThread& t : threads_)
    if (t.state != CudaThread::State::exited) return false;
  return true;
}

void Worker::end_block() {
  checks_.end_block();
  if (fast_path.profile) profile_.end_phase(n_);
  for (const CudaThread& t : threads_) {
    total_loads_ += t.global_loads;
    if (t.global_loads > max_loads_) max_loads_ = t.global_loads, max_loads_block_ = block_, max_loads_thread_ = t.linear;
  }
  plan_.report->threads_run.fetch_add(n_, std::memory_order_relaxed);
  heartbeat_.blocks_done.fetch_add(1, std::memory_order_relaxed);
}

// Every runnable thread has stopped, some of them waiting for tensor copies still in flight:
// the copies land (a copy always does, in the end), and the threads they release run on.
bool Worker::resume_after_landing() {
  queue_.clear();
  pos_ = 0;
  sync_.land_awaited_copies();
  if (queue_.empty()) return false;
  for (unsigned t : queue_) threads_[t].state = CudaThread::State::ready;
  return true;
}

// Every runnable thread now waits at a barrier or a warp collective, has returned, or was
// aborted. Decides whether the barrier opens (true) or the block is over.
bool Worker::end_of_phase() {
  const Arrivals arrivals = arrivals_;
  arrivals_ = Arrivals{};
  if (arrivals.count == n_ && arrivals.one_place) {
    // Every thread waits at the same barrier: it opens for all of them (the loop below would
    // find the same, a thread at a time).
    at_barrier_.resize(n_);
    for (unsigned i = 0; i < n_; ++i) at_barrier_[i] = i;
    return open_barrier(arrivals.predicates_true, arrivals.only_reads);
  }
  std::vector<unsigned>& at_barrier = at_barrier_;
  at_barrier.clear();
  bool exited = false, aborted = false, several_barriers = false, at_collective = false, blocked = false;
  for (const CudaThread& t : threads_) {
    if (t.state == CudaThread::State::at_barrier) {
      if (!at_barrier.empty() && (threads_[at_barrier[0]].wait_line != t.wait_line ||
                                  threads_[at_barrier[0]].wait_file != t.wait_file))
        several_barriers = true;
      at_barrier.push_back(t.linear);
    }
    at_collective |= t.state == CudaThread::State::at_warp_collective;
    blocked |= t.state == CudaThread::State::blocked;
    exited |= t.state == CudaThread::State::exited;
    aborted |= t.state == CudaThread::State::aborted;
  }
  if (at_barrier.empty() && !at_collective && !blocked) return false;
  if (aborted) {
    // After a thread was stopped for another mistake, the others are not blamed for it:
    // a barrier opens without it; a warp collective or a wait that needs it ends quietly.
    if (at_collective || blocked || plan_.report->stop.load()) {
      stop_waiting_threads();
      return false;
    }
  } else if (blocked) {
    // Nothing can run, and these threads wait for an arrival, a transaction or a warpgroup
    // partner that no thread can still give: the block would hang on a GPU.
    record_deadlock();
    plan_.report->stop.store(1);
    stop_waiting_threads();
    return false;
  } else if (at_collective) {
    for (unsigned w = 0; w < warps_; ++w)
      if (!meetings_[w].empty()) {
        unsigned waiting_for = 0;  // every lane that a collective of this warp still waits for
        for (const WarpMeeting& m : meetings_[w]) waiting_for |= m.mask;
        record_divergence(FindingKind::warp_divergence, op_name(meetings_[w].front()), w, waiting_for);
        break;
      }
    plan_.report->stop.store(1);
    stop_waiting_threads();
    return false;
  } else if (exited || several_barriers) {
    record_divergence(FindingKind::barrier_divergence, "__syncthreads()", 0, 0);
    plan_.report->stop.store(1);
    stop_waiting_threads();
    return false;
  }
  int predicates_true = 0;
  for (unsigned i : at_barrier) predicates_true += threads_[i].predicate != 0;
  // The arrivals' flag speaks for at_barrier where they are the same threads: as many.
  return open_barrier(predicates_true, arrivals.only_reads && arrivals.count == at_barrier.size());
}

bool Worker::open_barrier(int predicates_true, bool only_reads) {
  // __syncthreads_count/and/or read the predicates of those that reached it.
  predicates_true_ = predicates_true;
  predicates_seen_ = static_cast<int>(at_barrier_.size());
  checks_.next_epoch();
  // Only for instrumented code, which alone reads the settled entries. Not in a cluster: another
  // CTA's threads may write this one's shared memory in any interval.
  if (instrumented_ && loops_ && only_reads && !cluster_ &&
      checks_.settle_for_reads(std::size_t{kSettledWordsPerThread} * n_))
    ++intervals_settled_;
  if (fast_path.profile) profile_.end_phase(n_);
  queue_.swap(at_barrier_);
  return true;
}

void Worker::stop_waiting_threads() {
  std::vector<unsigned> waiting;
  for (const CudaThread& t : threads_)
    if (t.state == CudaThread::State::at_barrier || t.state == CudaThread::State::at_warp_collective ||
        t.state == CudaThread::State::converging || t.state == CudaThread::State::stepping ||
        t.state == CudaThread::State::blocked)
      waiting.push_back(t.linear);
  stepping_ = stepped_ = 0;
  if (waiting.empty()) return;
  if (loops_) {
    // A thread run as loops waits in no call: there is nothing to unwind (the pass keeps to
    // kernels whose barriers need no clean-up on an exception, as a fiber's unwinding would do).
    for (unsigned i : waiting) threads_[i].state = CudaThread::State::aborted;
    return;
  }
  stopping_ = true;
  queue_ = std::move(waiting);
  pos_ = 0;
  switch_to(n_, queue_[pos_++]);  // each one unwinds out of its wait
  stopping_ = false;
}

// Groups the threads of the block (barriers) or of one warp's mask (collectives) by what
// they are doing, for the finding.
void Worker::record_divergence(FindingKind kind, const char* op, unsigned warp, unsigned mask,
                               const CudaThread* arriving) {
  RawFinding f{};
  f.kind = kind;
  f.block = block_;
  // The parent process reads these names: PTX instructions are copied into the report.
  f.op = plan_.report->intern(op);
  f.warp = warp;
  f.mask = mask;
  auto add_to_group = [&](const CudaThread& t) {
    bool exited = t.state == CudaThread::State::exited || t.state == CudaThread::State::aborted;
    // The lane that arrived at a different collective waits at its own op; lanes still running
    // have not arrived anywhere yet (their last wait line is stale): no line for them.
    bool running = &t != arriving && (t.state == CudaThread::State::ready || t.state == CudaThread::State::stepping);
    const char* at = exited || running ? "" : &t == arriving ? op : waits_at(t, meetings_);
    unsigned line = exited || running ? 0 : t.wait_line;
    const char* file = exited || running ? "" : t.wait_file;
    for (unsigned g = 0; g < f.group_count; ++g) {
      RawGroup& group = f.groups[g];
      if (group.exited == (exited ? 1u : 0u) &&
          (exited || (group.line == line && group.file == file && std::strcmp(group.waits_at, at) == 0))) {
        if (group.count < kGroupSample) group.sample[group.count] = t.linear;
        ++group.count;
        return;
      }
    }
    if (f.group_count == kMaxGroups) return;
    RawGroup& group = f.groups[f.group_count++];
    group.exited = exited ? 1 : 0;
    group.line = line;
    group.file = file;
    group.waits_at = *at ? plan_.report->intern(at) : "";
    group.count = 1;
    group.sample[0] = t.linear;
  };
  bool first = true;
  for (const CudaThread& t : threads_) {
    bool counts = kind == FindingKind::barrier_divergence
                      ? t.state != CudaThread::State::ready && t.state != CudaThread::State::aborted
                      : t.warp == warp && (mask & (1u << t.lane)) != 0;
    if (!counts) continue;
    if (first) f.thread = t.linear, first = false;
    add_to_group(t);
  }
  plan_.report->add(f, index_);
}

void Worker::block_current(const WaitReason& why) {
  CudaThread& t = current();
  t.state = CudaThread::State::blocked;
  t.wait = why;
  t.wait_line = why.line;
  t.wait_file = why.file;
  wait_here(t.linear);
  t.state = CudaThread::State::ready;
}

void Worker::release(unsigned thread) {
  CudaThread& t = threads_[thread];
  if (t.state != CudaThread::State::blocked) return;
  t.state = CudaThread::State::ready;
  queue_.push_back(thread);
}

void Worker::yield_current() {
  CudaThread& t = current();
  // A polling loop that sees nothing change for this long waits for what will never come:
  // it is blocked (and, if nothing releases it, a deadlock), not running.
  if (progress_ != spin_progress_) {
    spin_progress_ = progress_;
    spins_ = 0;
  }
  if (++spins_ > 64ull * n_ + 1024) {
    spins_ = 0;
    block_current(t.wait.kind == WaitReason::Kind::none ? WaitReason{} : t.wait);
    return;
  }
  // No other thread can run: the others wait, some perhaps for tensor copies still in flight.
  // A polling thread waits too, so those copies land now, as they would once every thread had
  // stopped; if none lands, this thread goes on polling (it must never switch to itself).
  if (pos_ >= queue_.size() && stepping_ != 0) release_stepping();  // they run before it polls again
  if (pos_ >= queue_.size()) {
    if (sync_.land_awaited_copies) sync_.land_awaited_copies();
    if (pos_ >= queue_.size()) return;
  }
  queue_.push_back(t.linear);
  wait_here(t.linear);
}

void Worker::named_barrier(unsigned id, unsigned count, bool wait, const WaitReason& where) {
  CudaThread& t = current();
  NamedBarrier& b = sync_.named[id];
  if (b.arrived == 0) {
    b.expected = count;
  } else if (b.expected != count) {
    RawFinding f{};
    f.kind = FindingKind::inline_ptx;
    f.block = block_;
    f.thread = t.linear;
    f.line = where.line;
    f.file = where.file;
    f.pc = where.site;
    f.op = plan_.report->intern(where.name);
    std::snprintf(f.detail, sizeof f.detail,
                  "barrier %u is used with %u threads here and with %u threads by another thread: every bar.sync "
                  "and bar.arrive of one barrier must give the same thread count",
                  id, count, b.expected);
    stop_grid_with(f);
  }
  ++b.arrived;
  progress();
  if (b.arrived >= b.expected) {
    std::vector<unsigned> waiting = std::move(b.waiting);
    b = NamedBarrier{};
    // The barrier orders its threads' shared accesses: the race checks start a new epoch
    // (for every thread, so a race between threads it did not order can go unseen).
    checks_.next_epoch();
    for (unsigned w : waiting) release(w);
    return;
  }
  if (!wait) return;
  b.waiting.push_back(t.linear);
  WaitReason why = where;
  why.kind = WaitReason::Kind::named_barrier;
  why.object = id;
  block_current(why);
}

void Worker::warpgroup_collective(void* data, cuda_cpu::WarpComplete complete, const void* context,
                                  const WaitReason& where) {
  CudaThread& t = current();
  unsigned group = t.linear / 128, index = t.linear % 128;
  if (n_ % 128 != 0 && group == n_ / 128) {
    t.wait_line = where.line;
    t.wait_file = where.file;
    t.wait_site = where.site;
    completing_name_ = where.name;
    warp_misuse(cuda_cpu::WarpOp::ptx, t.lane,
                "it is executed by a whole warpgroup (128 threads, 4 warps), and this block's last warpgroup has "
                "fewer: make the block's thread count a multiple of 128");
  }
  WarpgroupMeeting& m = sync_.warpgroups[group];
  if (m.arrived == 0) {
    m.name = where.name;
    m.complete = complete;
    m.context = context;
  } else if (std::strcmp(m.name, where.name) != 0) {
    // Threads of one warpgroup at different warpgroup instructions: they can never meet.
    t.state = CudaThread::State::blocked;
    t.wait = where;
    t.wait.kind = WaitReason::Kind::warpgroup;
    t.wait_line = where.line;
    t.wait_file = where.file;
    record_deadlock();
    plan_.report->stop.store(1);
    throw ThreadAborted{};
  }
  m.lane_data[index] = data;
  m.arrived_mask[index / 64] |= 1ull << (index % 64);
  if (++m.arrived < 128) {
    WaitReason why = where;
    why.kind = WaitReason::Kind::warpgroup;
    why.object = group;
    block_current(why);
    return;
  }
  WarpgroupMeeting done = m;
  m = WarpgroupMeeting{};
  t.wait_line = where.line;
  t.wait_file = where.file;
  t.wait_site = where.site;
  completing_name_ = done.name;
  done.complete(done.lane_data, 128, done.context);
  completing_name_ = nullptr;
  progress();
  for (unsigned i = 0; i < 128; ++i)
    if (group * 128 + i != t.linear) release(group * 128 + i);
}

// The block cannot go on: every thread that has not returned waits, and some wait at an
// mbarrier, a named barrier or a warpgroup instruction that no thread can still complete.
// The finding groups the threads by what they wait at, with each barrier's state.
void Worker::record_deadlock() {
  RawFinding f{};
  f.kind = FindingKind::deadlock;
  f.block = block_;
  bool first = true;
  // Threads at the same line may wait for different barriers (a producer for a free stage,
  // consumers for a full one, in one helper function): they are different groups.
  auto same_wait = [](const CudaThread& a, const RawGroup& g) {
    std::uint64_t object = a.state == CudaThread::State::blocked ? a.wait.object : 0;
    return g.wait_object == object && g.line == a.wait_line && g.file == a.wait_file;
  };
  for (const CudaThread& t : threads_) {
    bool exited = t.state == CudaThread::State::exited || t.state == CudaThread::State::aborted;
    bool running = t.state == CudaThread::State::ready || t.state == CudaThread::State::stepping;
    if (running) continue;
    if (first) f.thread = t.linear, first = false;
    const char* at = exited ? "" : waits_at(t, meetings_);
    if (t.state == CudaThread::State::blocked) at = t.wait.name && *t.wait.name ? t.wait.name : "a barrier";
    RawGroup* group = nullptr;
    for (unsigned g = 0; g < f.group_count && !group; ++g) {
      RawGroup& c = f.groups[g];
      if (c.exited != (exited ? 1u : 0u)) continue;
      if (exited || (std::strcmp(c.waits_at, at) == 0 && same_wait(t, c))) group = &c;
    }
    if (!group) {
      if (f.group_count == kMaxGroups) continue;
      group = &f.groups[f.group_count++];
      group->exited = exited ? 1 : 0;
      group->line = exited ? 0 : t.wait_line;
      group->file = exited ? "" : t.wait_file;
      group->waits_at = *at ? plan_.report->intern(at) : "";
      group->wait_slot = -1;
      group->wait_object = t.state == CudaThread::State::blocked ? t.wait.object : 0;
      group->wait_site = t.state == CudaThread::State::blocked ? t.wait.site : 0;
      if (t.state == CudaThread::State::blocked && t.wait.kind == WaitReason::Kind::mbarrier) {
        group->wait_kind = 1;
        group->wait_parity = t.wait.parity;
        auto it = sync_.mbarriers.find(t.wait.object);
        const MBarrier* b = it == sync_.mbarriers.end() ? nullptr : &it->second;
        group->wait_initialized = b && b->initialized;
        if (b) {
          group->wait_phase_parity = b->completed & 1u;
          group->wait_pending = b->pending;
          group->wait_expected = b->expected;
          group->wait_bytes_expected = static_cast<std::int64_t>(b->expected_tx);
          group->wait_bytes_delivered = static_cast<std::int64_t>(b->delivered);
        }
        checks_.place_of(t.wait.object, group->wait_slot, group->wait_byte_offset);
      } else if (t.state == CudaThread::State::blocked && t.wait.kind == WaitReason::Kind::named_barrier) {
        group->wait_kind = 2;
        group->wait_number = static_cast<std::uint32_t>(t.wait.object);
        const NamedBarrier& b = sync_.named[t.wait.object];
        group->wait_arrived = b.arrived;
        group->wait_count = b.expected;
      }
    }
    if (group->count < kGroupSample) group->sample[group->count] = t.linear;
    ++group->count;
  }
  plan_.report->add(f, index_);
}

void Worker::fold_statistics() {
  LaunchReport& r = *plan_.report;
  if (fast_path.profile) profile_.fold_into(r);
  async_profile_.fold_into(r);
  tensor_edges_.fold_into(r);
  r.barrier_waits.fetch_add(barrier_waits_);
  r.intervals_settled.fetch_add(intervals_settled_);
  r.total_loads.fetch_add(total_loads_);
  while (r.lock.test_and_set(std::memory_order_acquire)) {
  }
  bool earlier = max_loads_block_ < r.max_loads_block ||
                 (max_loads_block_ == r.max_loads_block && max_loads_thread_ < r.max_loads_thread);
  if (max_loads_ > r.max_loads || (max_loads_ == r.max_loads && max_loads_ > 0 && earlier))
    r.max_loads = max_loads_, r.max_loads_block = max_loads_block_, r.max_loads_thread = max_loads_thread_;
  r.lock.clear(std::memory_order_release);
}

}  // namespace engine::cpu

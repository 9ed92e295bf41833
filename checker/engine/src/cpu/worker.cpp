#include "worker.h"

#include <sys/mman.h>

#include <algorithm>
#include <boost/context/preallocated.hpp>
#include <boost/context/stack_context.hpp>
#include <cstdlib>
#include <random>

__thread const cuda_cpu::ThreadContext* cuda_cpu_current_thread = nullptr;

namespace engine::cpu {

__thread Worker* current_worker = nullptr;

namespace ctx = boost::context;

namespace {
constexpr std::size_t kPage = 4096;
constexpr unsigned kWarpSize = 32;
// Room for printf and a few local arrays; a guard page below each stack turns an
// overflow into a reported fault instead of silent corruption.
constexpr std::size_t kStackSize = 256 * 1024;

// Stacks come from the worker's pool, made once per launch and reused for every block.
struct PooledStack {
  ctx::stack_context allocate() { return {}; }
  void deallocate(ctx::stack_context&) noexcept {}
};
}  // namespace

Worker::Worker(const GridPlan& plan, unsigned index)
    : plan_(plan), index_(index), n_(plan.threads_per_block) {
  threads_.resize(n_);
  const Dim3& bd = plan.config.block;
  for (unsigned i = 0; i < n_; ++i) {
    Dim3 t = bd.unlinear(i);
    threads_[i].linear = i;
    threads_[i].warp = i / kWarpSize;
    threads_[i].lane = i % kWarpSize;
    threads_[i].context.thread_idx = uint3{t.x, t.y, t.z};
    threads_[i].context.block_dim = dim3(bd.x, bd.y, bd.z);
    threads_[i].context.grid_dim = dim3(plan.config.grid.x, plan.config.grid.y, plan.config.grid.z);
  }
  current_worker = this;
  checks_.prepare(plan);
  make_fibers();
}

Worker::~Worker() {
  current_worker = nullptr;
  // Fibers still suspended inside a kernel (a stopped block) are abandoned with the
  // process, so their stacks are not unmapped under them.
  for (auto& h : handles_) h = {};
  if (stacks_) munmap(stacks_, stacks_bytes_);
}

void Worker::make_fibers() {
  stack_stride_ = kStackSize + kPage;
  stacks_bytes_ = stack_stride_ * n_;
  void* mem = mmap(nullptr, stacks_bytes_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) std::abort();
  stacks_ = static_cast<char*>(mem);
  handles_.resize(n_ + 1);
  for (unsigned i = 0; i < n_; ++i) {
    char* low = stacks_ + i * stack_stride_;
    mprotect(low, kPage, PROT_NONE);  // guard page
    ctx::stack_context sc;
    sc.size = kStackSize;
    sc.sp = low + stack_stride_;
    ctx::preallocated pre(sc.sp, sc.size, sc);
    handles_[i] = ctx::fiber(std::allocator_arg, pre, PooledStack{},
                             [this, i](ctx::fiber&& from) { return thread_main(i, std::move(from)); });
  }
}

bool Worker::in_stack_guard(std::uintptr_t address) const {
  auto base = reinterpret_cast<std::uintptr_t>(stacks_);
  return stacks_ && address - base < stacks_bytes_ && (address - base) % stack_stride_ < kPage;
}

ctx::fiber Worker::thread_main(unsigned slot, ctx::fiber&& from) {
  handles_[came_from_] = std::move(from);
  for (;;) {
    CudaThread& t = threads_[slot];
    try {
      plan_.kernel->cpu_invoke(plan_.args);
      t.state = CudaThread::State::exited;
    } catch (const ThreadAborted&) {
      t.state = CudaThread::State::aborted;
    }
    pass_on(slot);
  }
}

// Fibers hand control straight to the next thread of the phase, not back through the
// scheduler: one switch per thread per barrier.
void Worker::switch_to(unsigned self, unsigned target) {
  came_from_ = self;
  cuda_cpu_current_thread = target < n_ ? &threads_[target].context : nullptr;
  plan_.report->heartbeat[index_].thread.store(target, std::memory_order_relaxed);
  ctx::fiber from = std::move(handles_[target]).resume();
  handles_[came_from_] = std::move(from);
}

void Worker::pass_on(unsigned self) {
  switch_to(self, pos_ < queue_.size() ? queue_[pos_++] : n_);
}

void Worker::barrier(unsigned line, const char* file) {
  CudaThread& t = current();
  t.state = CudaThread::State::waiting;
  t.barrier_line = line;
  t.barrier_file = file;
  ++barrier_waits_;
  pass_on(t.linear);
  if (stopping_) throw ThreadAborted{};
  t.state = CudaThread::State::ready;
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
      std::mt19937_64 rng(plan_.options.shuffle_seed * 0x9E3779B97F4A7C15ull + block_ * 1000003u + phase);
      for (std::size_t i = queue.size(); i > 1; --i) std::swap(queue[i - 1], queue[rng() % i]);
      break;
    }
  }
}

void Worker::run(std::atomic<std::uint64_t>& next_block) {
  WorkerHeartbeat& beat = plan_.report->heartbeat[index_];
  while (!plan_.report->stop.load(std::memory_order_relaxed)) {
    std::uint64_t b = next_block.fetch_add(1, std::memory_order_relaxed);
    if (b >= plan_.blocks) break;
    beat.block.store(b, std::memory_order_relaxed);
    beat.busy.store(1, std::memory_order_relaxed);
    run_block(b);
    beat.busy.store(0, std::memory_order_relaxed);
  }
  fold_statistics();
}

void Worker::run_block(std::uint64_t block) {
  block_ = block;
  Dim3 b = plan_.config.grid.unlinear(block);
  for (CudaThread& t : threads_) {
    t.context.block_idx = uint3{b.x, b.y, b.z};
    t.state = CudaThread::State::ready;
    t.global_loads = 0;
  }
  checks_.new_block();
  queue_.resize(n_);
  for (unsigned i = 0; i < n_; ++i) queue_[i] = i;
  for (phase_ = 0;; ++phase_) {
    order_queue(queue_, phase_);
    pos_ = 0;
    switch_to(n_, queue_[pos_++]);  // returns when every thread in the queue has blocked
    if (!release_barrier()) break;
  }
  for (const CudaThread& t : threads_) {
    total_loads_ += t.global_loads;
    if (t.global_loads > max_loads_) {
      max_loads_ = t.global_loads, max_loads_block_ = block, max_loads_thread_ = t.linear;
    }
  }
  plan_.report->threads_run.fetch_add(n_, std::memory_order_relaxed);
}

// Every runnable thread is now waiting at a barrier, has returned, or was aborted. Decides
// whether the barrier opens (true) or the block is over.
bool Worker::release_barrier() {
  std::vector<unsigned> waiting;
  bool exited = false, aborted = false, several_barriers = false;
  for (const CudaThread& t : threads_) {
    if (t.state == CudaThread::State::waiting) {
      if (!waiting.empty() && (threads_[waiting[0]].barrier_line != t.barrier_line ||
                               threads_[waiting[0]].barrier_file != t.barrier_file))
        several_barriers = true;
      waiting.push_back(t.linear);
    }
    exited |= t.state == CudaThread::State::exited;
    aborted |= t.state == CudaThread::State::aborted;
  }
  if (waiting.empty()) return false;
  // After a thread was aborted for another mistake, the rest still run to the end (to
  // find more), without blaming the barrier for the missing thread.
  if (!aborted && (exited || several_barriers)) {
    record_divergence(waiting);
    plan_.report->stop.store(1);
    stop_waiting_threads();
    return false;
  }
  checks_.next_epoch();
  queue_ = std::move(waiting);
  return true;
}

void Worker::stop_waiting_threads() {
  std::vector<unsigned> waiting;
  for (const CudaThread& t : threads_)
    if (t.state == CudaThread::State::waiting) waiting.push_back(t.linear);
  stopping_ = true;
  queue_ = std::move(waiting);
  pos_ = 0;
  switch_to(n_, queue_[pos_++]);  // each one unwinds out of its barrier
  stopping_ = false;
}

void Worker::record_divergence(const std::vector<unsigned>& waiting) {
  RawFinding f{};
  f.kind = FindingKind::barrier_divergence;
  f.block = block_;
  f.thread = waiting.front();
  auto add_to_group = [&](bool exited, const CudaThread& t) {
    for (unsigned g = 0; g < f.group_count; ++g) {
      RawGroup& group = f.groups[g];
      if (group.exited == (exited ? 1u : 0u) &&
          (exited || (group.line == t.barrier_line && group.file == t.barrier_file))) {
        if (group.count < kGroupSample) group.sample[group.count] = t.linear;
        ++group.count;
        return;
      }
    }
    if (f.group_count == kMaxGroups) return;
    RawGroup& group = f.groups[f.group_count++];
    group.exited = exited ? 1 : 0;
    group.line = exited ? 0 : t.barrier_line;
    group.file = exited ? "" : t.barrier_file;
    group.count = 1;
    group.sample[0] = t.linear;
  };
  for (const CudaThread& t : threads_) {
    if (t.state == CudaThread::State::waiting) add_to_group(false, t);
    if (t.state == CudaThread::State::exited) add_to_group(true, t);
  }
  plan_.report->add(f);
}

void Worker::fold_statistics() {
  LaunchReport& r = *plan_.report;
  r.barrier_waits.fetch_add(barrier_waits_);
  r.total_loads.fetch_add(total_loads_);
  while (r.lock.test_and_set(std::memory_order_acquire)) {
  }
  bool earlier = max_loads_block_ < r.max_loads_block ||
                 (max_loads_block_ == r.max_loads_block && max_loads_thread_ < r.max_loads_thread);
  if (max_loads_ > r.max_loads || (max_loads_ == r.max_loads && max_loads_ > 0 && earlier)) {
    r.max_loads = max_loads_, r.max_loads_block = max_loads_block_, r.max_loads_thread = max_loads_thread_;
  }
  r.lock.clear(std::memory_order_release);
}

}  // namespace engine::cpu

void cuda_cpu::syncthreads(unsigned line, const char* file) {
  engine::cpu::Worker* w = engine::cpu::current_worker;
  if (w == nullptr || cuda_cpu_current_thread == nullptr) {
    std::fprintf(stderr, "__syncthreads() called outside a kernel\n");
    std::abort();
  }
  w->barrier(line, file);
}

void cuda_cpu::trap(unsigned line, const char* file) {
  engine::cpu::Worker* w = engine::cpu::current_worker;
  if (w == nullptr || cuda_cpu_current_thread == nullptr) std::abort();
  engine::cpu::RawFinding f{};
  f.kind = engine::FindingKind::fault;
  f.block = w->current_block();
  f.thread = w->current().linear;
  f.line = line;
  f.file = file;
  std::snprintf(f.detail, sizeof f.detail, "the kernel called __trap()");
  w->plan().report->add(f);
  w->plan().report->stop.store(1);
  throw engine::cpu::ThreadAborted{};
}

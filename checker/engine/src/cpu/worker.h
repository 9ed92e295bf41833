// One worker per core. A worker runs one block at a time: each CUDA thread of the block
// is a fiber (Boost.Context) on a pooled stack, and the worker switches between them only
// at __syncthreads() and when a thread returns. So a barrier is a true barrier, and all
// threads of a block see the same __shared__ storage (this OS thread's thread_local).
#pragma once

#include <atomic>
#include <boost/context/fiber.hpp>
#include <cstdint>
#include <vector>

#include "access_checks.h"
#include "cuda_cpu/runtime_hooks.h"
#include "grid_plan.h"

namespace engine::cpu {

struct CudaThread {
  cuda_cpu::ThreadContext context;  // first: cuda_cpu_current_thread points at it
  unsigned linear = 0;
  // Warps are 32 consecutive linear threads, as on a GPU: the unit that __syncwarp and
  // __shfl_*_sync will synchronise (a warp-sized phase of the same scheduler).
  unsigned warp = 0, lane = 0;
  enum class State : std::uint8_t { ready, waiting, exited, aborted } state = State::ready;
  unsigned barrier_line = 0;
  const char* barrier_file = "";
  std::uint64_t global_loads = 0;
};

class Worker {
 public:
  Worker(const GridPlan& plan, unsigned index);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Takes blocks from `next_block` until none are left or the grid is stopped.
  void run(std::atomic<std::uint64_t>& next_block);

  // Called on a CUDA thread's fiber.
  void barrier(unsigned line, const char* file);
  CudaThread& current() {
    return *reinterpret_cast<CudaThread*>(const_cast<cuda_cpu::ThreadContext*>(cuda_cpu_current_thread));
  }
  std::uint64_t current_block() const { return block_; }
  AccessChecks& checks() { return checks_; }
  const GridPlan& plan() const { return plan_; }
  bool in_stack_guard(std::uintptr_t address) const;

 private:
  void make_fibers();
  boost::context::fiber thread_main(unsigned slot, boost::context::fiber&& from);
  void run_block(std::uint64_t block);
  bool release_barrier();  // false when the block must stop
  void stop_waiting_threads();
  void switch_to(unsigned self, unsigned target);
  void pass_on(unsigned self);
  void order_queue(std::vector<unsigned>& queue, std::uint64_t phase);
  void record_divergence(const std::vector<unsigned>& waiting);
  void fold_statistics();

  const GridPlan& plan_;
  unsigned index_;
  unsigned n_;  // threads per block; slot n_ is the scheduler (this OS thread's own stack)
  std::vector<CudaThread> threads_;
  std::vector<boost::context::fiber> handles_;
  unsigned came_from_ = 0;
  std::vector<unsigned> queue_;
  std::size_t pos_ = 0;
  bool stopping_ = false;
  std::uint64_t block_ = 0;
  std::uint64_t phase_ = 0;

  char* stacks_ = nullptr;
  std::size_t stack_stride_ = 0;
  std::size_t stacks_bytes_ = 0;

  AccessChecks checks_;
  std::uint64_t barrier_waits_ = 0;
  std::uint64_t total_loads_ = 0;
  std::uint64_t max_loads_ = 0, max_loads_block_ = 0;
  std::uint32_t max_loads_thread_ = 0;
};

// The worker of this OS thread while it runs a grid; null elsewhere.
extern __thread Worker* current_worker;

}  // namespace engine::cpu

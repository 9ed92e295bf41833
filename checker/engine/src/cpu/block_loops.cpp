#include "block_loops.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "cuda_cpu/block_loop_abi.h"
#include "worker.h"

namespace engine::cpu {
namespace {

// Filled by the kernels' constructors at program start; only read afterwards.
std::unordered_map<CpuInvoker, LoopInvoker>& registry() {
  static std::unordered_map<CpuInvoker, LoopInvoker> kernels;
  return kernels;
}

// PUZZLES_CPU_EXECUTION_MODEL: "fibers" runs every kernel on fibers; "loops" (or unset) runs
// those compiled as loops so. Tests set it to compare the two.
bool loops_allowed() {
  const char* text = std::getenv("PUZZLES_CPU_EXECUTION_MODEL");
  if (text == nullptr || *text == '\0' || std::strcmp(text, "loops") == 0) return true;
  if (std::strcmp(text, "fibers") == 0) return false;
  std::fprintf(stderr, "PUZZLES_CPU_EXECUTION_MODEL=%s: expected \"loops\" or \"fibers\"\n", text);
  std::exit(2);
}

Worker& worker_here(const char* what) {
  if (current_worker == nullptr || current_thread == nullptr) {
    std::fprintf(stderr, "%s called outside a kernel\n", what);
    std::abort();
  }
  return *current_worker;
}

// Read once, at program start: a value the engine does not know stops the program there, with
// its message, before a launch's child process could take it for a crash.
const bool loops_wanted = loops_allowed();

}  // namespace

const LoopInvoker* loop_invoker_for(CpuInvoker fibers) {
  if (!loops_wanted) return nullptr;
  auto found = registry().find(fibers);
  return found == registry().end() ? nullptr : &found->second;
}

}  // namespace engine::cpu

extern "C" {

__thread char* CUDA_CPU_LOOP_FRAME = nullptr;
__thread unsigned CUDA_CPU_LOOP_RESUME = 0;

void CUDA_CPU_LOOP_ARRIVE(unsigned site, unsigned, int predicate, unsigned line, const char* file) {
  engine::cpu::worker_here("__syncthreads()").arrive_at_barrier(site, predicate, line, file);
}

int CUDA_CPU_LOOP_BARRIER_RESULT(unsigned reduce) {
  return engine::cpu::worker_here("__syncthreads()").barrier_result(static_cast<cuda_cpu::BarrierReduce>(reduce));
}

void CUDA_CPU_LOOP_REGISTER(void (*fibers)(void* const*), void (*loops)(void* const*), std::size_t frame_bytes,
                            unsigned barriers) {
  engine::cpu::registry().emplace(fibers, engine::cpu::LoopInvoker{loops, frame_bytes, barriers});
}

}  // extern "C"

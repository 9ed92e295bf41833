#include "block_loops.h"

#include <functional>
#include <unordered_map>
#include <utility>

#include "cuda_cpu/block_loop_abi.h"
#include "environment_switch.h"
#include "worker.h"

namespace engine::cpu {
namespace {

// A kernel as its fiber invoker and, where that invoker calls whichever kernel a launch names
// (a whole program's), the kernel's address; else null.
using KernelKey = std::pair<CpuInvoker, const void*>;
struct KernelKeyHash {
  std::size_t operator()(const KernelKey& key) const {
    return std::hash<const void*>()(reinterpret_cast<const void*>(key.first)) * 31 + std::hash<const void*>()(key.second);
  }
};

// Filled by the kernels' constructors at program start; only read afterwards.
std::unordered_map<KernelKey, LoopInvoker, KernelKeyHash>& registry() {
  static std::unordered_map<KernelKey, LoopInvoker, KernelKeyHash> kernels;
  return kernels;
}

// PUZZLES_CPU_EXECUTION_MODEL: "fibers" runs every kernel on fibers; "loops" (or unset) runs
// those compiled as loops so. Tests set it to compare the two.
const bool loops_wanted = environment_switch("PUZZLES_CPU_EXECUTION_MODEL", "loops", "fibers");

}  // namespace

const LoopInvoker* loop_invoker_for(CpuInvoker fibers, const void* kernel) {
  if (!loops_wanted) return nullptr;
  for (const KernelKey& key : {KernelKey{fibers, nullptr}, KernelKey{fibers, kernel}}) {
    auto found = registry().find(key);
    if (found != registry().end()) return &found->second;
  }
  return nullptr;
}

}  // namespace engine::cpu

extern "C" {

__thread char* CUDA_CPU_LOOP_FRAME = nullptr;
__thread unsigned CUDA_CPU_LOOP_RESUME = 0;

void CUDA_CPU_LOOP_ARRIVE(unsigned site, unsigned, int predicate, unsigned line, const char* file) {
  // Only Worker::run_as_loops calls a loop invoker, with its worker and thread set.
  engine::cpu::current_worker->arrive_at_barrier(site, predicate, line, file);
}

int CUDA_CPU_LOOP_BARRIER_RESULT(unsigned reduce) {
  return engine::cpu::worker_here("__syncthreads()").barrier_result(static_cast<cuda_cpu::BarrierReduce>(reduce));
}

void CUDA_CPU_LOOP_REGISTER(void (*fibers)(void* const*), const void* kernel, void (*loops)(void* const*),
                            std::size_t frame_bytes, unsigned barriers, const unsigned char* reads_only) {
  engine::cpu::registry().emplace(engine::cpu::KernelKey{fibers, kernel},
                                  engine::cpu::LoopInvoker{loops, frame_bytes, barriers, reads_only});
}

}  // extern "C"

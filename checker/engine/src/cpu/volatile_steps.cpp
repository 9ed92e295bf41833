// The engine's side of volatile steps (cuda_cpu/volatile_step.h): kernel code calls it in front
// of and after its volatile accesses of memory; host code compiled in the same file does too,
// and nothing happens there.
#include "cuda_cpu/volatile_step.h"

#include "worker.h"

extern "C" void CUDA_CPU_VOLATILE_STEP() {
  if (engine::cpu::current_thread == nullptr) return;
  engine::cpu::worker_here("a volatile access").volatile_step();
}

// CUDA has two clock()s: the C library's in host code (processor time, CLOCKS_PER_SEC a second)
// and the multiprocessor's cycle counter in device code (its low 32 bits, PTX's %clock). The CPU
// backend compiles a program once, as host code, so one function must answer both: this
// definition takes the C library's place in every executable linked with the engine and answers
// by where its caller runs. Without it, a kernel that waits clockRate * ms cycles (a common way to
// make a kernel take some time) would wait that many microseconds of processor time instead.
#include <time.h>

#include <cstdint>

#include "cuda_cpu/runtime_hooks.h"
#include "worker.h"

extern "C" clock_t clock() noexcept {
  if (engine::cpu::current_thread != nullptr)
    return static_cast<clock_t>(static_cast<std::uint32_t>(cuda_cpu::cycles_now()));
  // As glibc computes it: the process's processor time, in CLOCKS_PER_SEC units.
  timespec used;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used) != 0) return static_cast<clock_t>(-1);
  return static_cast<clock_t>(used.tv_sec * CLOCKS_PER_SEC + used.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}

// Kernels launched by host code on the CPU backend: cudaLaunchKernelEx and cudaLaunchKernel
// (cuda_cpu/runtime_api.h) run them on a CPU backend of their own, as the checkers' launches
// run. They find the kernel's image (its __shared__ storage, whether it is instrumented) by
// its address among the images the build exports, which register themselves here
// (checker/cmake/KernelTargets.cmake); a kernel that no build exports cannot be launched so.
#ifndef CUDA_CPU_HOST_LAUNCH_H_
#define CUDA_CPU_HOST_LAUNCH_H_

#include <cstddef>
#include <cstdint>

#include "cuda_cpu/image_registry.h"
#include "engine/findings.h"
#include "engine/kernel_image.h"

namespace cuda_cpu {

// What the last launch from host code on this OS thread found: its refusal, findings and
// statistics. Host code only sees CUDA's error code; programs and tests read the facts here.
const engine::LaunchResult& last_host_launch();

// A whole program (checker/cmake/program_cpu.cpp.in): cudaLaunchKernel(Ex) also launches kernels
// that no build exports, as described by their type (cuda_cpu::describe_kernel), with the
// program's extern __shared__ storage. Elsewhere such a launch is refused, as a function that
// is not a kernel would be on a GPU.
void run_as_program(void* (*dynamic_shared)(), std::size_t dynamic_shared_bytes, bool instrumented);

// One launch from host code, as facts: what ran, where it was written, what it found.
struct HostLaunch {
  const char* kernel = "";  // as the launch names it ("scale<float, 4>"), or the image's name
  const char* file = "";    // the <<<...>>> launch's file and line; "" and 0 for cudaLaunchKernel*
  unsigned line = 0;
  engine::Dim3 grid, block, cluster;  // cluster: (1,1,1) without clusters
  std::size_t dynamic_shared_bytes = 0;
  int cuda_error = 0;  // the cudaError_t the launch returned
  const char* cuda_error_name = "";
  bool ran = false;  // false: refused before it ran, or not run after an earlier launch's sticky error
  const engine::LaunchResult* result = nullptr;
};
// Called after every launch from host code, on the launching thread (a program's report:
// checker/lib/src/program_report.cpp). Null: none.
using HostLaunchObserver = void (*)(const HostLaunch& launch);
void observe_host_launches(HostLaunchObserver observer);

// A runtime call the CPU backend does not model: says so through the observer below (or on
// stderr without one) and ends the program with this status (checker/run reads it).
constexpr int kNotModelledStatus = 125;
[[noreturn]] void not_modelled(const char* call);
using NotModelledObserver = void (*)(const char* call);
void observe_not_modelled(NotModelledObserver observer);

// An allocation (cudaMalloc, cudaMallocManaged, cudaHostAlloc, ...) the CPU backend refused
// for a limit of its own, where a GPU's only limit is its memory: it returns
// cudaErrorMemoryAllocation, and a program's report says why, once a limit.
struct AllocationRefusal {
  enum class Limit { buffer_size, buffer_count, host_memory } limit;
  std::uint64_t bytes;  // asked for
  std::uint64_t most;   // the limit: bytes a buffer, or buffers at once; 0 for host memory
};
using AllocationRefusedObserver = void (*)(const AllocationRefusal& refusal);
void observe_allocation_refusals(AllocationRefusedObserver observer);

}  // namespace cuda_cpu

#endif  // CUDA_CPU_HOST_LAUNCH_H_

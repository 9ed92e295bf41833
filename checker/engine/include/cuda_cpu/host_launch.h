// Kernels launched by host code on the CPU backend: cudaLaunchKernelEx and cudaLaunchKernel
// (cuda_cpu/runtime_api.h) run them on a CPU backend of their own, as the checkers' launches
// run. They find the kernel's image (its __shared__ storage, whether it is instrumented) by
// its address among the images the build exports, which register themselves here
// (checker/cmake/KernelTargets.cmake); a kernel that no build exports cannot be launched so.
#pragma once

#include "engine/findings.h"
#include "engine/kernel_image.h"

namespace cuda_cpu {

// Called once per exported CPU image, before main. Returns true, for a static initializer.
bool register_kernel_image(const engine::KernelImage* image);
// The registered image of the kernel at this address, or null.
const engine::KernelImage* registered_kernel_image(const void* kernel);

// What the last launch from host code on this OS thread found: its refusal, findings and
// statistics. Host code only sees CUDA's error code; programs and tests read the facts here.
const engine::LaunchResult& last_host_launch();

}  // namespace cuda_cpu

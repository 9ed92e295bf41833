// Kernel launches written with nvcc's <<<...>>> in host code, for the CPU backend. nvcc
// lowers `k<<<grid, block, shared, stream>>>(args...)` itself; here the preprocessed file is
// rewritten into C++ that the host compiler understands:
//
//   ::cuda_cpu::chevron_launch(::cuda_cpu::chevron_exact, {"k", "file.cu", 57},
//                              ::cuda_cpu::chevron_config(grid, block, shared, stream), k, args...)
//
// (cuda_cpu/chevron.h), which converts the arguments to the kernel's parameter types and runs
// it on the CPU backend, as cudaLaunchKernel does. The kernel expression, the configuration
// and the arguments are copied as written, and the replacement keeps the line count, so the
// compiler still reports every line where the file has it.
#pragma once

#include <string>

// Rewrites every launch outside system headers. Returns false, with `error` in the
// compiler's "file:line:1: error: ..." form, for a launch it cannot read (no closing >>>,
// no argument list after it).
bool rewrite_chevron_launches(std::string& text, std::string& error);

// CUDA's built-in variables (threadIdx, blockIdx, blockDim, gridDim) are the engine's
// per-OS-thread slots on the CPU backend (cuda_cpu/runtime_hooks.h). Kernels read them at
// every use, and the instrumentation made each read a call into the checks, which then found
// an address outside device memory and returned: up to six calls per thread in a kernel that
// indexes a 2-D grid, as many as its own loads and stores.
#pragma once

namespace llvm {
class LoadInst;
class Module;
}

namespace block_loops {

// Marks every load from those four variables "nosanitize", so that the instrumentation that
// follows leaves it alone. Only loads: a copy out of them (a memcpy) may write device memory,
// and stays checked. Marks them invariant too (the .cpp says why). Returns whether it marked any.
bool quiet_builtin_variable_reads(llvm::Module& m);

// Whether `load` reads one of those variables (at its address, an offset or a cast of it). What it
// reads stays the same for a CUDA thread from its start to its end.
bool reads_builtin_variable(const llvm::LoadInst& load);

}  // namespace block_loops

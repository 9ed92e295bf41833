// Which kernels can run as block loops. A kernel qualifies when, once every function on the way
// to its barriers is inlined into its invoker, the only place where its thread waits for others
// is a __syncthreads() in the invoker's own body: nothing it calls may switch to another CUDA
// thread (a warp collective, an mbarrier, a named barrier, a cluster barrier, anything the pass
// does not know), and its frame has a size known at compile time. Everything else stays on
// fibers, which run any kernel.
#pragma once

#include <string>

namespace llvm {
class Function;
class Module;
class CallBase;
}  // namespace llvm

namespace block_loops {

// The engine's __syncthreads() and its reductions (cuda_cpu::syncthreads).
bool is_barrier(const llvm::Function* callee);

// Inlines, into `invoker`, every call whose callee reaches a barrier. Returns an empty string,
// or why the kernel stays on fibers (a call it cannot see into, recursion, ...).
std::string inline_barriers(llvm::Function& invoker);

// After inline_barriers: empty when `invoker` qualifies, else the first reason it does not.
std::string why_not_loops(llvm::Function& invoker);

}  // namespace block_loops

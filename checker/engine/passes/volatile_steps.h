// Volatile accesses of memory as steps that the lanes of a warp take together
// (cuda_cpu/volatile_step.h says why).
#pragma once

namespace llvm {
class Module;
}

namespace block_loops {

// Puts a call to the engine's step in front of each volatile load or store of memory and after
// each such store, so that every lane of a warp makes the access before any goes on; but no
// step between two volatile loads, or between a store's step and the volatile access after it,
// with nothing that touches memory between them in the block (nothing another lane's access
// could come before). A local variable's accesses take none (a stack slot is the thread's own). A kernel that takes
// such a step stays on fibers (the call is not one eligibility.cpp knows). Returns whether it
// put any.
bool insert_volatile_steps(llvm::Module& m);

}  // namespace block_loops

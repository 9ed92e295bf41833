// Values that a thread keeps across a barrier but that stay the same for it from start to end
// (an address in shared memory, a row computed from threadIdx and blockIdx, an argument) are
// computed again where they are used, not kept in its frame. The optimizer hoists such values
// out of the kernel's loops, and kept in the frame, each would be a load per use: a tiled
// matmul kept 48 of them, a 384-byte frame per thread and six cache lines to read at each
// barrier, where what it really keeps is its sum and its step.
#pragma once

#include <set>

namespace llvm {
class Function;
class Instruction;
}  // namespace llvm

namespace block_loops {

// Of `crossing` (values of `loops`, the invoker being made, live across a barrier), those that
// depend only on constants, the invoker's argument array, the arguments' bytes and CUDA's
// built-in variables, through a few pure instructions, are recomputed at each of their uses;
// the originals are erased. Returns what is left to keep in the frame.
std::set<llvm::Instruction*> rematerialize_invariants(llvm::Function& loops, const std::set<llvm::Instruction*>& crossing);

}  // namespace block_loops

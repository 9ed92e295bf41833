// Turns a qualifying invoker (eligibility.h) into one that runs a CUDA thread from where it
// stopped to its next barrier and returns, keeping what it needs across the barrier in its
// frame (block_loop_abi.h). The regions between barriers are not reordered or duplicated: each
// call runs exactly the instructions the fiber would have run up to its next switch.
#pragma once

#include <cstdint>
#include <vector>

namespace llvm {
class Function;
}

namespace block_loops {

struct LoopShape {
  std::uint64_t frame_bytes = 0;  // one thread's frame
  unsigned barriers = 0;          // __syncthreads() calls in the code
  // Per barrier, in order: whether the code a thread runs after it, up to its next barrier,
  // writes nothing but its own frame (read_only_regions.h).
  std::vector<bool> reads_only;
};

// `loops` is a copy of the invoker after inline_barriers, and qualifies (why_not_loops).
LoopShape make_resumable(llvm::Function& loops);

// Marks the invoker's reads of its argument array (the array, and each argument's bytes, which
// the engine holds and the kernel cannot reach) as the pass's own, so that the instrumentation
// leaves them alone: a thread run as loops starts with them at every launch, and they are no
// access of the kernel's. Values read from the arguments, and every access through them, stay
// checked.
void quiet_argument_reads(llvm::Function& loops);

}  // namespace block_loops

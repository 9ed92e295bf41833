// The second execution model: a kernel that the block-loop pass compiled as loops
// (checker/engine/passes) runs each CUDA thread from barrier to barrier as a call, where the
// fiber model switches stacks (worker.h). The threads run in the same order and stop at the
// same places, so the checks see the same accesses by the same threads.
#pragma once

#include <cstddef>

#include "engine/kernel_image.h"

namespace engine::cpu {

struct LoopInvoker {
  CpuInvoker run = nullptr;    // resumes the running thread (block_loop_abi.h)
  std::size_t frame_bytes = 0;  // one thread's frame
  unsigned barriers = 0;
  // Per resume site (0: the start, k: after barrier k), barriers + 1 of them: 1 where the code a
  // thread runs from there to its next barrier writes only its own frame (block_loop_abi.h).
  const unsigned char* reads_only = nullptr;
};

// The loop invoker that the pass made for this kernel (its fiber invoker and its address), or
// null: the kernel did not qualify, its file was compiled without the pass, or
// PUZZLES_CPU_EXECUTION_MODEL=fibers asks for fibers.
const LoopInvoker* loop_invoker_for(CpuInvoker fibers, const void* kernel);

}  // namespace engine::cpu

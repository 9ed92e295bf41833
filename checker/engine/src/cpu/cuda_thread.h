// One CUDA thread of the block a worker runs: its coordinates, its state in the scheduler,
// and what the checks count for it.
#pragma once

#include <cstdint>
#include <vector>

#include "async_copies.h"
#include "block_sync.h"
#include "cuda_cpu/vector_types.h"
#include "fast_path.h"

namespace engine::cpu {

struct alignas(64) CudaThread {
  // What the scheduler and the checks touch at every barrier comes first, in the thread's first
  // cache line (the struct starts one): a block of 256 threads keeps 16 KiB of them hot, not
  // twice that.
  uint3 thread_idx{};
  unsigned linear = 0;
  // Warps are 32 consecutive linear threads, as on a GPU.
  unsigned warp = 0, lane = 0;
  // blocked: at a named barrier, an mbarrier or a warpgroup collective (`wait` says which).
  // converging: at coalesced_threads(), until the lanes that reach it together are known.
  // stepping: at a volatile access, until the other lanes of its warp that run reach one too
  // (cuda_cpu/volatile_step.h).
  enum class State : std::uint8_t {
    ready, at_barrier, at_warp_collective, converging, stepping, blocked, exited, aborted
  } state = State::ready;
  unsigned wait_line = 0;  // where it waits
  const char* wait_file = "";
  int predicate = 0;  // __syncthreads_count/and/or
  // fence.proxy.async (any form covering shared memory) executed so far: a generic write to
  // shared memory made at a lower count is ordered before the async proxy.
  std::uint32_t proxy_fences = 0;
  std::uint64_t global_loads = 0;
  unsigned converged = 0;  // the lanes of its last coalesced_threads() group
  WaitReason wait;
  std::uintptr_t wait_site = 0;  // inline PTX: the code address of the collective, for its call chain
  PendingCopies copies;  // its asynchronous copies in flight
  // The C++ variables a wgmma.mma_async writes its accumulators to (the asm's output operands,
  // on this thread's stack), until a wgmma.wait_group retires `group`: any other access to them
  // is undefined behaviour in PTX.
  struct Accumulators {
    std::uintptr_t begin = 0, end = 0;
    std::uint32_t group = 0;
    std::uintptr_t site = 0;  // the wgmma's code address
  };
  std::vector<Accumulators> accumulators;
  bool writing_outputs = false;  // the engine stores an inline-PTX statement's outputs
};

}  // namespace engine::cpu

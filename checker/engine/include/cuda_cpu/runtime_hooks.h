// The few places where kernel code on the CPU backend calls into the engine.
#pragma once

#include "cuda_cpu/vector_types.h"

namespace cuda_cpu {

// What threadIdx, blockIdx, blockDim and gridDim read for the CUDA thread that runs now.
struct ThreadContext {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
};

// Out of line on purpose: the compiler must assume that other threads changed memory
// during a barrier, so it cannot keep shared values in registers across one.
void syncthreads(unsigned line, const char* file);
// Atomics are not seen by the load/store instrumentation; they report themselves.
void note_atomic(const void* address, unsigned size);
[[noreturn]] void trap(unsigned line, const char* file);

}  // namespace cuda_cpu

// The running CUDA thread of this worker. __thread (not thread_local): a plain TLS slot
// with no initialisation wrapper, so that reading threadIdx stays cheap.
extern __thread const cuda_cpu::ThreadContext* cuda_cpu_current_thread;

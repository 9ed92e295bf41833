// The calls and per-OS-thread variables of the block-loop ABI (block_loop_names.h says what
// they are for), as the engine defines them.
#ifndef CUDA_CPU_BLOCK_LOOP_ABI_H_
#define CUDA_CPU_BLOCK_LOOP_ABI_H_

#include "cuda_cpu/block_loop_names.h"
#include <cstddef>

extern "C" {
// This OS thread's running CUDA thread: its frame, and the barrier it resumes after (0: it
// starts at the kernel's beginning; k: after the k-th barrier of the kernel's code).
extern __thread char* CUDA_CPU_LOOP_FRAME;
extern __thread unsigned CUDA_CPU_LOOP_RESUME;
// In place of __syncthreads() and its reductions: the thread arrives at barrier `site` and
// returns to the engine, which resumes it there once the barrier opens.
// `reduce` is a cuda_cpu::BarrierReduce, widened (a narrow argument's upper bits are the
// caller's to set, and the pass's calls are not clang's).
void CUDA_CPU_LOOP_ARRIVE(unsigned site, unsigned reduce, int predicate, unsigned line, const char* file);
// After the barrier: what __syncthreads_count/and/or return.
int CUDA_CPU_LOOP_BARRIER_RESULT(unsigned reduce);
// Made at program start for each kernel the pass compiled as loops: its invoker for fibers,
// the kernel's address where that invoker calls whichever kernel a launch names (null where
// the invoker calls one kernel), the invoker for loops, the bytes of a thread's frame, the
// barriers in its code, and for each place a thread resumes at (0: the start, k: after barrier
// k) a 1 where the code from there to the next barrier writes nothing but the thread's frame.
void CUDA_CPU_LOOP_REGISTER(void (*fibers)(void* const*), const void* kernel, void (*loops)(void* const*),
                            std::size_t frame_bytes, unsigned barriers, const unsigned char* reads_only);
}

#endif  // CUDA_CPU_BLOCK_LOOP_ABI_H_

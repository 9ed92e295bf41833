// How kernels compiled as block loops talk to the engine. The compiler pass
// (checker/engine/passes/block_loops.cpp) writes calls to these names into a second copy of
// each kernel's invoker; the engine (src/cpu/block_loops.cpp) defines them. One copy of the
// names, here, for both: the pass reads them as strings (CUDA_CPU_LOOP_NAME).
//
// A block-loop invoker runs one CUDA thread from a barrier to the next, then returns: the
// engine calls it once per thread and per phase, where the fiber model switches stacks.
// Everything the thread keeps across a barrier (its values, its local arrays) lives in its
// frame, at cuda_cpu_loop_frame; cuda_cpu_loop_resume says where it goes on.
#pragma once

#define CUDA_CPU_LOOP_FRAME cuda_cpu_loop_frame
#define CUDA_CPU_LOOP_RESUME cuda_cpu_loop_resume
#define CUDA_CPU_LOOP_ARRIVE cuda_cpu_loop_arrive
#define CUDA_CPU_LOOP_BARRIER_RESULT cuda_cpu_loop_barrier_result
#define CUDA_CPU_LOOP_REGISTER cuda_cpu_loop_register
// The annotation that marks a kernel's invoker (engine/kernel_image.h) for the pass.
#define CUDA_CPU_LOOP_ENTRY_ANNOTATION "cuda_cpu.block_loop_entry"
#define CUDA_CPU_LOOP_STRING_(name) #name
#define CUDA_CPU_LOOP_NAME(name) CUDA_CPU_LOOP_STRING_(name)

// Frames are this aligned; a kernel whose locals ask for more stays on fibers.
#define CUDA_CPU_LOOP_FRAME_ALIGNMENT 64


// How kernels compiled as block loops talk to the engine. The compiler pass
// (checker/engine/passes/block_loops.cpp) writes calls to these names into a second copy of
// each kernel's invoker; the engine (src/cpu/block_loops.cpp) defines them. One copy of the
// names, here, for both: the pass reads them as strings (CUDA_CPU_LOOP_NAME).
//
// A block-loop invoker runs one CUDA thread from a barrier to the next, then returns: the
// engine calls it once per thread and per phase, where the fiber model switches stacks.
// Everything the thread keeps across a barrier (its values, its local arrays) lives in its
// frame, at cuda_cpu_loop_frame; cuda_cpu_loop_resume says where it goes on.
#ifndef CUDA_CPU_BLOCK_LOOP_NAMES_H_
#define CUDA_CPU_BLOCK_LOOP_NAMES_H_

#define CUDA_CPU_LOOP_FRAME cuda_cpu_loop_frame
#define CUDA_CPU_LOOP_RESUME cuda_cpu_loop_resume
#define CUDA_CPU_LOOP_ARRIVE cuda_cpu_loop_arrive
#define CUDA_CPU_LOOP_BARRIER_RESULT cuda_cpu_loop_barrier_result
#define CUDA_CPU_LOOP_REGISTER cuda_cpu_loop_register
// The annotation that marks a kernel's invoker (engine/kernel_image.h) for the pass.
#define CUDA_CPU_LOOP_ENTRY_ANNOTATION "cuda_cpu.block_loop_entry"
// The one that marks an invoker of any kernel of one type, whose address ends the argument
// array (cuda_cpu::invoke_through_pointer: whole programs' launches). The pass makes a loop
// invoker for each kernel of that type the file defines, registered with the kernel's address.
#define CUDA_CPU_LOOP_DISPATCH_ANNOTATION "cuda_cpu.block_loop_dispatch"
#define CUDA_CPU_LOOP_STRING_(name) #name
#define CUDA_CPU_LOOP_NAME(name) CUDA_CPU_LOOP_STRING_(name)

// The marks themselves. Other compilers (nvcc, g++) have no use for them.
#if defined(__clang__)
#define CUDA_CPU_LOOP_ENTRY __attribute__((annotate(CUDA_CPU_LOOP_ENTRY_ANNOTATION)))
#define CUDA_CPU_LOOP_DISPATCH __attribute__((annotate(CUDA_CPU_LOOP_DISPATCH_ANNOTATION)))
#else
#define CUDA_CPU_LOOP_ENTRY
#define CUDA_CPU_LOOP_DISPATCH
#endif

// Frames are this aligned; a kernel whose locals ask for more stays on fibers.
#define CUDA_CPU_LOOP_FRAME_ALIGNMENT 64

#endif  // CUDA_CPU_BLOCK_LOOP_NAMES_H_

// Lanes of a warp in step at volatile accesses. Code written for GPUs before Volta sums the last
// values of a reduction through a `volatile` pointer with no __syncwarp(), counting on the
// lanes of a warp running in lockstep: each statement's reads by every lane before any lane's
// write. GPUs still run such code so in practice, and the CPU backend, which runs a lane to its
// next meeting point before the next lane starts, got other sums. The block-loop pass
// (passes/volatile_steps.h) puts calls to this function around the volatile accesses of memory;
// at each, the engine (src/cpu/volatile_steps.cpp) waits for the other lanes of the warp that
// still run to reach a step too, so that each access is made by every lane before any lane
// goes on. Races stay races: the checks see the same accesses, and report them.
#ifndef CUDA_CPU_VOLATILE_STEP_H_
#define CUDA_CPU_VOLATILE_STEP_H_

#define CUDA_CPU_VOLATILE_STEP cuda_cpu_volatile_step
#define CUDA_CPU_VOLATILE_STEP_STRING_(name) #name
#define CUDA_CPU_VOLATILE_STEP_NAME(name) CUDA_CPU_VOLATILE_STEP_STRING_(name)

extern "C" void CUDA_CPU_VOLATILE_STEP();

#endif  // CUDA_CPU_VOLATILE_STEP_H_

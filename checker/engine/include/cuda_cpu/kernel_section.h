// Where the device pass of a whole program's file places its kernels, so that the build can tell
// them from every other function of the object: checker/cmake/program_cpu.cpp.in spells
// __global__ with it there, and the step that joins the device pass to the host pass
// (tools/device_pass_merge.cpp) reads it. A macro: the preprocessor needs it.
#ifndef CUDA_CPU_KERNEL_SECTION_H_
#define CUDA_CPU_KERNEL_SECTION_H_

#define CUDA_CPU_KERNEL_SECTION ".text.cuda_cpu_kernel"

#endif  // CUDA_CPU_KERNEL_SECTION_H_

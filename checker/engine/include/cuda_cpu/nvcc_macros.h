// The macros nvcc defines for every .cu file it compiles, for the CPU backend's build of one
// (cuda_cpu/kernel_shim.h includes this first). Headers test __CUDACC__ to know that a CUDA
// compiler reads them (NVIDIA's helper_math.h defines host versions of CUDA's math functions
// without it), and the version macros to pick what that compiler has: the cuda_cpu headers
// follow CUDA 12.8 (CUDART_VERSION, cuda_cpu/runtime_api.h).
// __CUDA_ARCH__ is not defined here: nvcc defines it in device passes only, and so does the CPU
// backend, which compiles a whole program's file that tests it as both passes (-D__CUDA_ARCH__ in
// the device pass's command: checker/cli/course/device_pass.py).
#ifndef CUDA_CPU_NVCC_MACROS_H_
#define CUDA_CPU_NVCC_MACROS_H_

#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 0

#endif  // CUDA_CPU_NVCC_MACROS_H_

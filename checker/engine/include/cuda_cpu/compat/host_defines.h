// <host_defines.h> for the CPU backend: the attribute macros CUDA's headers and some programs
// use besides the execution-space qualifiers. __global__, __device__, __shared__ and the
// rest are defined by cuda_cpu/kernel_shim.h, which the build includes before every .cu file.
#ifndef CUDA_CPU_COMPAT_HOST_DEFINES_H_
#define CUDA_CPU_COMPAT_HOST_DEFINES_H_
#define __HOST_DEFINES_H__

#define CUDARTAPI
#define CUDAAPI
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define __builtin_align__(a) __attribute__((aligned(a)))
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
#define __no_return__ __attribute__((noreturn))
#define __thread__ __thread
#define __import__
#define __export__
#define __cdecl__

#endif  // CUDA_CPU_COMPAT_HOST_DEFINES_H_

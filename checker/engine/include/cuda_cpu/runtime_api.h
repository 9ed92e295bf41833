// The CUDA runtime API on the CPU backend: the calls a kernel file's helper code may make.
// They act on the CPU backend's device memory, so they behave as on a GPU. Launching with
// <<<...>>> is C++ that only nvcc understands (the checkers launch kernels themselves);
// host code written for the GPU launches with cudaLaunchKernelEx or cudaLaunchKernel, which
// run the kernel on the CPU backend (cuda_cpu/host_launch.h), thread block clusters included.
#pragma once

#include <cstddef>
#include <utility>

#include "cuda_cpu/vector_types.h"

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorInvalidClusterSize = 912,
};
typedef cudaError_t cudaError;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

typedef struct CUstream_st* cudaStream_t;

// cudaLaunchKernelEx's configuration, laid out as CUDA's driver_types.h lays it out. Of the
// attributes, the CPU backend knows the cluster's shape; cudaLaunchAttributeIgnore is skipped.
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
};
union cudaLaunchAttributeValue {
  char pad[64];
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
  int cooperative;
  int priority;
};
typedef struct cudaLaunchAttribute_st {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  std::size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;

const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaMalloc(void** pointer, std::size_t bytes);
cudaError_t cudaFree(void* pointer);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes);
cudaError_t cuda_cpu_func_set_attribute(const void* kernel, cudaFuncAttribute attribute, int value);
// Both run the kernel to its end on the CPU backend (launches are synchronous there). A refused
// launch returns CUDA's error for it (cudaErrorInvalidClusterSize for a cluster that does not
// tile the grid), a kernel stopped by a crash or the time limit cudaErrorLaunchFailure; either
// is also what cudaGetLastError returns next. The findings: cuda_cpu::last_host_launch().
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* kernel, void** args);
cudaError_t cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args, std::size_t dynamic_shared_bytes = 0,
                             cudaStream_t stream = nullptr);

template <typename T>
inline cudaError_t cudaMalloc(T** pointer, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(pointer), bytes);
}
// As CUDA's cuda_runtime.h writes it: the arguments converted to the kernel's parameter types,
// then passed by address.
template <typename... ExpTypes, typename... ActTypes>
inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(ExpTypes...),
                                      ActTypes&&... args) {
  return [&](ExpTypes... coerced) {
    void* pointers[] = {static_cast<void*>(&coerced)..., nullptr};
    return cudaLaunchKernelExC(config, reinterpret_cast<const void*>(kernel), pointers);
  }(std::forward<ActTypes>(args)...);
}
template <typename... ExpTypes>
inline cudaError_t cudaLaunchKernel(void (*kernel)(ExpTypes...), dim3 grid, dim3 block, void** args,
                                    std::size_t dynamic_shared_bytes = 0, cudaStream_t stream = nullptr) {
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, dynamic_shared_bytes, stream);
}
template <typename T>
inline cudaError_t cudaFuncSetAttribute(T* kernel, cudaFuncAttribute attribute, int value) {
  return cuda_cpu_func_set_attribute(reinterpret_cast<const void*>(kernel), attribute, value);
}

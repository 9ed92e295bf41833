// The CUDA runtime API on the CPU backend: the calls a kernel file's helper code, or a whole
// program (docs/programs.md), may make. They act on the CPU backend's device memory, so they
// behave as on a GPU. Host code launches with <<<...>>> (rewritten at build time,
// cuda_cpu/chevron.h), cudaLaunchKernelEx or cudaLaunchKernel, which run the kernel on the
// CPU backend (cuda_cpu/host_launch.h), thread block clusters included. Launches, copies and
// everything on a stream run to their end before the call returns, so streams keep their
// order and events time what came before them on the CPU's clock. A function CUDA has and
// this file does not declare does not compile (the compiler names it); a declared one that
// the backend does not model stops the program with a message naming it.
#pragma once

#include <cstddef>
#include <typeinfo>
#include <type_traits>
#include <utility>

#include "cuda_cpu/vector_types.h"

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
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

namespace cuda_cpu {
// A kernel known by its address at run time: the argument array of its launch ends with the
// kernel's address, after one pointer per parameter.
template <typename... P, std::size_t... I>
void invoke_through_pointer(void* const* args, std::index_sequence<I...>) {
  auto kernel = reinterpret_cast<void (*)(P...)>(args[sizeof...(P)]);
  kernel(*static_cast<std::remove_reference_t<P>*>(args[I])...);
}
template <typename... P>
void invoke_through_pointer(void* const* args) {
  invoke_through_pointer<P...>(args, std::index_sequence_for<P...>{});
}
// In a whole program, a kernel that no build exports is launched by cudaLaunchKernel(Ex) from
// what its type says: its signature and how to call it (runtime_api.cpp).
void describe_kernel(const void* kernel, const char* signature, void (*invoke)(void* const*));
}  // namespace cuda_cpu

template <typename T>
inline cudaError_t cudaMalloc(T** pointer, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(pointer), bytes);
}
// As CUDA's cuda_runtime.h writes it: the arguments converted to the kernel's parameter types,
// then passed by address.
template <typename... ExpTypes, typename... ActTypes>
inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(ExpTypes...),
                                      ActTypes&&... args) {
  cuda_cpu::describe_kernel(reinterpret_cast<const void*>(kernel), typeid(void(ExpTypes...)).name(),
                            &cuda_cpu::invoke_through_pointer<ExpTypes...>);
  return [&](ExpTypes... coerced) {
    void* pointers[] = {static_cast<void*>(&coerced)..., reinterpret_cast<void*>(kernel)};
    return cudaLaunchKernelExC(config, reinterpret_cast<const void*>(kernel), pointers);
  }(std::forward<ActTypes>(args)...);
}
template <typename... ExpTypes>
inline cudaError_t cudaLaunchKernel(void (*kernel)(ExpTypes...), dim3 grid, dim3 block, void** args,
                                    std::size_t dynamic_shared_bytes = 0, cudaStream_t stream = nullptr) {
  cuda_cpu::describe_kernel(reinterpret_cast<const void*>(kernel), typeid(void(ExpTypes...)).name(),
                            &cuda_cpu::invoke_through_pointer<ExpTypes...>);
  void* pointers[sizeof...(ExpTypes) + 1];
  for (std::size_t i = 0; i < sizeof...(ExpTypes); ++i) pointers[i] = args ? args[i] : nullptr;
  pointers[sizeof...(ExpTypes)] = reinterpret_cast<void*>(kernel);
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args ? pointers : nullptr,
                          dynamic_shared_bytes, stream);
}
template <typename T>
inline cudaError_t cudaFuncSetAttribute(T* kernel, cudaFuncAttribute attribute, int value) {
  return cuda_cpu_func_set_attribute(reinterpret_cast<const void*>(kernel), attribute, value);
}

// --- What whole programs use (runtime_program.cpp) -------------------------------------------

typedef struct CUevent_st* cudaEvent_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
enum : unsigned {
  cudaStreamDefault = 0x0,
  cudaStreamNonBlocking = 0x1,
  cudaEventDefault = 0x0,
  cudaEventBlockingSync = 0x1,
  cudaEventDisableTiming = 0x2,
  cudaEventInterprocess = 0x4,
  cudaHostAllocDefault = 0x0,
  cudaHostAllocPortable = 0x1,
  cudaHostAllocMapped = 0x2,
  cudaHostAllocWriteCombined = 0x4,
  cudaMemAttachGlobal = 0x1,
  cudaMemAttachHost = 0x2,
};

// The device the CPU backend models: an H100 SXM (runtime_program.cpp fills it in). The
// fields are CUDA's, by name; the name says that the CPU backend is running.
struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  std::size_t totalConstMem;
  int major;
  int minor;
  std::size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int cooperativeLaunch;
  std::size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  std::size_t reservedSharedMemPerBlock;
  int clusterLaunch;
};

// CUDA's values (driver_types.h) for the attributes the CPU backend answers; any other stops
// the program with its number.
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrReservedSharedMemoryPerBlock = 111,
};

cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device);
cudaError_t cudaDeviceReset();
cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total);

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaMallocHost(void** pointer, std::size_t bytes);
cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned int flags);
cudaError_t cudaFreeHost(void* pointer);
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int flags);
cudaError_t cudaMallocManaged(void** pointer, std::size_t bytes, unsigned int flags = cudaMemAttachGlobal);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

// Declared so that a program using them compiles; each stops the program with its name.
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                         std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMallocPitch(void** pointer, std::size_t* pitch, std::size_t width, std::size_t height);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, void (*fn)(void*), void* data);
cudaError_t cudaLaunchCooperativeKernel(const void* kernel, dim3 grid, dim3 block, void** args,
                                        std::size_t dynamic_shared_bytes = 0, cudaStream_t stream = nullptr);

// __constant__ and __device__ variables are the host's own globals here: a symbol's device
// address is its address.
cudaError_t cuda_cpu_symbol_copy(void* dst, const void* src, std::size_t bytes, std::size_t symbol_size,
                                 std::size_t offset);
template <typename T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                                      cudaMemcpyKind = cudaMemcpyHostToDevice) {
  return cuda_cpu_symbol_copy(reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset, src, bytes, sizeof(T),
                              offset);
}
template <typename T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                        cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  return cuda_cpu_symbol_copy(dst, reinterpret_cast<const char*>(&symbol) + offset, bytes, sizeof(T), offset);
}
template <typename T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
template <typename T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
template <typename T>
inline cudaError_t cudaGetSymbolAddress(void** pointer, const T& symbol) {
  if (pointer == nullptr) return cudaErrorInvalidValue;
  *pointer = const_cast<T*>(&symbol);
  return cudaSuccess;
}
template <typename T>
inline cudaError_t cudaGetSymbolSize(std::size_t* size, const T&) {
  if (size == nullptr) return cudaErrorInvalidValue;
  *size = sizeof(T);
  return cudaSuccess;
}
template <typename T>
inline cudaError_t cudaMallocHost(T** pointer, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(pointer), bytes);
}
template <typename T>
inline cudaError_t cudaHostAlloc(T** pointer, std::size_t bytes, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(pointer), bytes, flags);
}

// Occupancy on the modelled H100: threads, blocks and shared memory per multiprocessor (the
// kernel's static __shared__ variables and the dynamic bytes); registers are not counted,
// since the CPU backend does not allocate them.
cudaError_t cuda_cpu_occupancy(int* blocks, const void* kernel, int block_size, std::size_t dynamic_shared_bytes);
template <typename T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T* kernel, int block_size,
                                                                 std::size_t dynamic_shared_bytes) {
  return cuda_cpu_occupancy(blocks, reinterpret_cast<const void*>(kernel), block_size, dynamic_shared_bytes);
}
// As CUDA's: the block size (a multiple of 32, at most block_size_limit when not 0) with the
// most threads resident per multiprocessor, the largest such; and the grid that fills the device.
template <typename T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, T* kernel,
                                                      std::size_t dynamic_shared_bytes = 0, int block_size_limit = 0) {
  if (min_grid_size == nullptr || block_size == nullptr) return cudaErrorInvalidValue;
  int limit = block_size_limit > 0 && block_size_limit < 1024 ? block_size_limit : 1024;
  int best_threads = 0, best_size = 0, best_blocks = 0;
  for (int size = limit / 32 * 32; size >= 32; size -= 32) {
    int blocks = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, size, dynamic_shared_bytes);
    if (e != cudaSuccess) return e;
    if (blocks * size > best_threads) best_threads = blocks * size, best_size = size, best_blocks = blocks;
  }
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  *block_size = best_size;
  *min_grid_size = best_blocks * p.multiProcessorCount;
  return cudaSuccess;
}
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3,
};
template <typename T>
inline cudaError_t cudaFuncSetCacheConfig(T*, cudaFuncCache) {  // a hint
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }  // a hint
inline cudaError_t cudaMemPrefetchAsync(const void*, std::size_t, int, cudaStream_t = nullptr) {  // a hint
  return cudaSuccess;
}
inline cudaError_t cudaMemAdvise(const void*, std::size_t, int, int) { return cudaSuccess; }  // a hint

// cudaMalloc and cudaMallocManaged name their buffer after the pointer the program passes
// (cudaMalloc(&d_out, ...) makes "d_out"), with its element type's size, so that a finding
// says d_out[100] as the program would. (cudaMalloc)(...) calls the function itself.
cudaError_t cuda_cpu_malloc(void** pointer, std::size_t bytes, std::size_t element_size, const char* expression,
                            bool managed);
template <typename T>
constexpr std::size_t cuda_cpu_element_size() {
  if constexpr (std::is_void<T>::value) {
    return 1;
  } else {
    return sizeof(T);
  }
}
template <typename T>
inline cudaError_t cuda_cpu_malloc_named(T** pointer, std::size_t bytes, const char* expression) {
  return cuda_cpu_malloc(reinterpret_cast<void**>(pointer), bytes, cuda_cpu_element_size<T>(), expression, false);
}
template <typename T>
inline cudaError_t cuda_cpu_malloc_managed_named(const char* expression, T** pointer, std::size_t bytes,
                                                 unsigned int = cudaMemAttachGlobal) {
  return cuda_cpu_malloc(reinterpret_cast<void**>(pointer), bytes, cuda_cpu_element_size<T>(), expression, true);
}
#define cudaMalloc(pointer, bytes) cuda_cpu_malloc_named(pointer, bytes, #pointer)
#define cudaMallocManaged(pointer, ...) cuda_cpu_malloc_managed_named(#pointer, pointer, __VA_ARGS__)

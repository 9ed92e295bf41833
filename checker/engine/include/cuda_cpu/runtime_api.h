// The CUDA runtime API on the CPU backend: the calls a kernel file's helper code, or a whole
// program (docs/programs.md), may make. They act on the CPU backend's device memory, so they
// behave as on a GPU. Host code launches with <<<...>>> (rewritten at build time,
// cuda_cpu/chevron.h), cudaLaunchKernelEx or cudaLaunchKernel, which run the kernel on the
// CPU backend (cuda_cpu/host_launch.h), thread block clusters included. Launches, copies and
// everything on a stream run to their end before the call returns, so streams keep their
// order and events time what came before them on the CPU's clock. A function CUDA has and
// this file does not declare does not compile (the compiler names it); a declared one that
// the backend does not model stops the program with a message naming it.
#ifndef CUDA_CPU_RUNTIME_API_H_
#define CUDA_CPU_RUNTIME_API_H_

#include <cstddef>
#include <typeinfo>
#include <type_traits>
#include <utility>

#include "cuda_cpu/block_loop_names.h"
#include "cuda_cpu/driver_types.h"
#include "cuda_cpu/kernel_parameters.h"
#include "cuda_cpu/vector_types.h"

// The CUDA runtime this file stands for (cudaRuntimeGetVersion and cudaDriverGetVersion say
// the same): 12.8, whose declarations and numbers the cuda_cpu headers follow.
#define CUDART_VERSION 12080

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
// kernel's address, after one pointer per parameter. Marked for the block-loop pass, which
// gives each kernel of this type that the file defines a loop invoker of its own.
template <typename... P>
CUDA_CPU_LOOP_DISPATCH void invoke_through_pointer(void* const* args) {
  call_kernel(reinterpret_cast<void (*)(P...)>(args[sizeof...(P)]), args);
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
// CUDA's C++ overload (cuda_runtime.h): cudaEventCreate with flags.
inline cudaError_t cudaEventCreate(cudaEvent_t* event, unsigned int flags) {
  return cudaEventCreateWithFlags(event, flags);
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

// 2D copies and pitched allocations: a pitch is the row's width rounded up to 512 bytes, as
// on the GPU (cudaDeviceProp::texturePitchAlignment).
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                         std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                              std::size_t height, cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMallocPitch(void** pointer, std::size_t* pitch, std::size_t width, std::size_t height);
cudaError_t cudaMemset2D(void* pointer, std::size_t pitch, int value, std::size_t width, std::size_t height);
cudaError_t cudaMemset2DAsync(void* pointer, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t stream = nullptr);
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream = nullptr);
template <typename T>
inline cudaError_t cudaMallocPitch(T** pointer, std::size_t* pitch, std::size_t width, std::size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(pointer), pitch, width, height);
}

// Host functions on a stream run when they are reached, which is at once: everything before
// them on the stream has already finished.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* data, unsigned int flags);
// Grid-wide synchronization (cooperative_groups::this_grid().sync()) is not modelled.
cudaError_t cudaLaunchCooperativeKernel(const void* kernel, dim3 grid, dim3 block, void** args,
                                        std::size_t dynamic_shared_bytes = 0, cudaStream_t stream = nullptr);
template <typename T>
inline cudaError_t cudaLaunchCooperativeKernel(T* kernel, dim3 grid, dim3 block, void** args,
                                               std::size_t dynamic_shared_bytes = 0, cudaStream_t stream = nullptr) {
  return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid, block, args, dynamic_shared_bytes,
                                     stream);
}

// The modelled device and its settings. Flags, limits and cache or bank preferences are
// accepted and remembered where CUDA reports them back; none changes how a kernel runs here.
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* properties);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int* flags);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value);
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config);
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device);
cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attribute, int src_device, int dst_device);
cudaError_t cudaDeviceGetPCIBusId(char* bus_id, int length, int device);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* pointer);
cudaError_t cudaHostRegister(void* pointer, std::size_t bytes, unsigned int flags);
cudaError_t cudaHostUnregister(void* pointer);
cudaError_t cudaHostGetFlags(unsigned int* flags, void* host);
cudaError_t cudaCtxResetPersistingL2Cache();

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags);
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attribute, const cudaStreamAttrValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attribute, cudaStreamAttrValue* value);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* pointer, std::size_t bytes = 0,
                                     unsigned int flags = cudaMemAttachSingle);
// No stream ever captures here (cudaStreamBeginCapture is not modelled).
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream = nullptr, unsigned int flags = 0);

// Stream-ordered allocation: the allocation is made at once (the stream is in order), from
// the device's one pool, whose attributes are remembered.
cudaError_t cudaFreeAsync(void* pointer, cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descriptions, std::size_t count);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t keep);

// Deprecated names CUDA still declares.
cudaError_t cudaThreadSynchronize();
cudaError_t cudaThreadExit();
cudaError_t cudaThreadSetLimit(cudaLimit limit, std::size_t value);
cudaError_t cudaThreadGetLimit(std::size_t* value, cudaLimit limit);
cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* config);
cudaError_t cudaThreadSetCacheConfig(cudaFuncCache config);

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
// CUDA's C++ overloads (cuda_runtime.h): any pointer type, and cudaMallocHost with flags.
inline cudaError_t cudaMallocHost(void** pointer, std::size_t bytes, unsigned int flags) {
  return cudaHostAlloc(pointer, bytes, flags);
}
template <typename T>
inline cudaError_t cudaMallocHost(T** pointer, std::size_t bytes, unsigned int flags = 0) {
  return cudaHostAlloc(reinterpret_cast<void**>(pointer), bytes, flags);
}
template <typename T>
inline cudaError_t cudaHostAlloc(T** pointer, std::size_t bytes, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(pointer), bytes, flags);
}
template <typename T>
inline cudaError_t cudaHostGetDevicePointer(T** device, void* host, unsigned int flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(device), host, flags);
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
template <typename T>
inline cudaError_t cudaFuncSetCacheConfig(T*, cudaFuncCache) {  // a hint
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);  // a hint, reported back
template <typename T>
inline cudaError_t cudaFuncSetSharedMemConfig(T*, cudaSharedMemConfig) {  // a hint (deprecated)
  return cudaSuccess;
}
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

// cudaMallocAsync: cudaMalloc's naming (above), made at once on an in-order stream; from the
// device's pool or from a pool the program names.
template <typename T>
inline cudaError_t cuda_cpu_malloc_async_named(const char* expression, T** pointer, std::size_t bytes,
                                               cudaStream_t = nullptr) {
  return cuda_cpu_malloc(reinterpret_cast<void**>(pointer), bytes, cuda_cpu_element_size<T>(), expression, false);
}
template <typename T>
inline cudaError_t cuda_cpu_malloc_async_named(const char* expression, T** pointer, std::size_t bytes, cudaMemPool_t,
                                               cudaStream_t = nullptr) {
  return cuda_cpu_malloc(reinterpret_cast<void**>(pointer), bytes, cuda_cpu_element_size<T>(), expression, false);
}
#define cudaMallocAsync(pointer, ...) cuda_cpu_malloc_async_named(#pointer, pointer, __VA_ARGS__)
#define cudaMallocFromPoolAsync(pointer, ...) cuda_cpu_malloc_async_named(#pointer, pointer, __VA_ARGS__)

// What cudaFuncGetAttributes says of a kernel: its static __shared__ bytes and the modelled
// device's limits; registers and local memory are not allocated here, so they read 0.
cudaError_t cuda_cpu_func_attributes(cudaFuncAttributes* attributes, const void* kernel);
template <typename T>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, T* kernel) {
  return cuda_cpu_func_attributes(attributes, reinterpret_cast<const void*>(kernel));
}
template <typename T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, T* kernel, int block_size,
                                                                          std::size_t dynamic_shared_bytes,
                                                                          unsigned int) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, block_size, dynamic_shared_bytes);
}
template <typename T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid_size, int* block_size, T* kernel,
                                                               std::size_t dynamic_shared_bytes = 0,
                                                               int block_size_limit = 0, unsigned int = 0) {
  return cudaOccupancyMaxPotentialBlockSize(min_grid_size, block_size, kernel, dynamic_shared_bytes, block_size_limit);
}
// As cudaOccupancyMaxPotentialBlockSize, with the dynamic shared memory a function of the
// block size.
template <typename Bytes, typename T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size, int* block_size, T* kernel,
                                                                  Bytes bytes_for_block_size, int block_size_limit = 0,
                                                                  unsigned int = 0) {
  if (min_grid_size == nullptr || block_size == nullptr) return cudaErrorInvalidValue;
  int limit = block_size_limit > 0 && block_size_limit < 1024 ? block_size_limit : 1024;
  int best_threads = 0, best_size = 0, best_blocks = 0;
  for (int size = limit / 32 * 32; size >= 32; size -= 32) {
    int blocks = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, kernel, size, static_cast<std::size_t>(bytes_for_block_size(size)));
    if (e != cudaSuccess) return e;
    if (blocks * size > best_threads) best_threads = blocks * size, best_size = size, best_blocks = blocks;
  }
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  *block_size = best_size;
  *min_grid_size = best_blocks * p.multiProcessorCount;
  return cudaSuccess;
}
template <typename T>
inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* bytes, T*, int, int) {
  if (bytes == nullptr) return cudaErrorInvalidValue;
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  *bytes = p.sharedMemPerBlockOptin;
  return cudaSuccess;
}

// Channel formats (CUDA's channel_descriptor.h): the bits per channel of each element type.
inline cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}
namespace cuda_cpu {
template <typename T>
struct channel_of {
  static constexpr int count = 0;  // not a channel type: cudaChannelFormatKindNone
  using element = void;
};
#define CUDA_CPU_CHANNELS(T, E, n) \
  template <>                      \
  struct channel_of<T> {           \
    static constexpr int count = n; \
    using element = E;             \
  };
CUDA_CPU_CHANNELS(char, char, 1)
CUDA_CPU_CHANNELS(signed char, signed char, 1)
CUDA_CPU_CHANNELS(unsigned char, unsigned char, 1)
CUDA_CPU_CHANNELS(short, short, 1)
CUDA_CPU_CHANNELS(unsigned short, unsigned short, 1)
CUDA_CPU_CHANNELS(int, int, 1)
CUDA_CPU_CHANNELS(unsigned int, unsigned int, 1)
CUDA_CPU_CHANNELS(float, float, 1)
CUDA_CPU_CHANNELS(char1, char, 1)
CUDA_CPU_CHANNELS(char2, char, 2)
CUDA_CPU_CHANNELS(char4, char, 4)
CUDA_CPU_CHANNELS(uchar1, unsigned char, 1)
CUDA_CPU_CHANNELS(uchar2, unsigned char, 2)
CUDA_CPU_CHANNELS(uchar4, unsigned char, 4)
CUDA_CPU_CHANNELS(short1, short, 1)
CUDA_CPU_CHANNELS(short2, short, 2)
CUDA_CPU_CHANNELS(short4, short, 4)
CUDA_CPU_CHANNELS(ushort1, unsigned short, 1)
CUDA_CPU_CHANNELS(ushort2, unsigned short, 2)
CUDA_CPU_CHANNELS(ushort4, unsigned short, 4)
CUDA_CPU_CHANNELS(int1, int, 1)
CUDA_CPU_CHANNELS(int2, int, 2)
CUDA_CPU_CHANNELS(int4, int, 4)
CUDA_CPU_CHANNELS(uint1, unsigned int, 1)
CUDA_CPU_CHANNELS(uint2, unsigned int, 2)
CUDA_CPU_CHANNELS(uint4, unsigned int, 4)
CUDA_CPU_CHANNELS(float1, float, 1)
CUDA_CPU_CHANNELS(float2, float, 2)
CUDA_CPU_CHANNELS(float4, float, 4)
#undef CUDA_CPU_CHANNELS
}  // namespace cuda_cpu
template <typename T>
inline cudaChannelFormatDesc cudaCreateChannelDesc() {
  using E = typename cuda_cpu::channel_of<T>::element;
  constexpr int n = cuda_cpu::channel_of<T>::count;
  if constexpr (n == 0) {
    return cudaChannelFormatDesc{0, 0, 0, 0, cudaChannelFormatKindNone};
  } else {
    const int bits = static_cast<int>(sizeof(E) * 8);
    const cudaChannelFormatKind kind = std::is_floating_point<E>::value ? cudaChannelFormatKindFloat
                                       : std::is_signed<E>::value       ? cudaChannelFormatKindSigned
                                                                        : cudaChannelFormatKindUnsigned;
    return cudaChannelFormatDesc{bits, n > 1 ? bits : 0, n > 2 ? bits : 0, n > 3 ? bits : 0, kind};
  }
}

#include "cuda_cpu/unsupported_api.h"

#endif  // CUDA_CPU_RUNTIME_API_H_

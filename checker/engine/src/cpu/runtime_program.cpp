// The CUDA runtime calls that whole programs make beyond a kernel file's helpers
// (cuda_cpu/runtime_api.h): the modelled device, streams, events, pinned and managed memory,
// symbols, occupancy. Everything runs to its end before the call returns, so a stream is in
// order by construction and an event's time is the CPU's clock when it was recorded.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "cuda_cpu/host_launch.h"
#include "cuda_cpu/runtime_api.h"
#include "device_arena.h"
#include "engine/backend.h"
#include "shared_layout.h"

using engine::cpu::DeviceArena;

cudaError_t cuda_cpu_sticky_error();

namespace {

// An H100 SXM5 80GB, as CUDA describes it; the limits the CPU backend enforces are
// engine::DeviceLimits' (the same numbers).
cudaDeviceProp modelled_device() {
  const engine::DeviceLimits limits;
  cudaDeviceProp p{};
  std::snprintf(p.name, sizeof p.name, "NVIDIA H100 80GB HBM3 (modelled by the CPU backend)");
  p.totalGlobalMem = std::size_t{80} << 30;
  p.sharedMemPerBlock = limits.max_shared_per_block;
  p.regsPerBlock = 65536;
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = static_cast<int>(limits.max_threads_per_block);
  p.maxThreadsDim[0] = static_cast<int>(limits.max_block.x);
  p.maxThreadsDim[1] = static_cast<int>(limits.max_block.y);
  p.maxThreadsDim[2] = static_cast<int>(limits.max_block.z);
  p.maxGridSize[0] = static_cast<int>(limits.max_grid.x);
  p.maxGridSize[1] = static_cast<int>(limits.max_grid.y);
  p.maxGridSize[2] = static_cast<int>(limits.max_grid.z);
  p.clockRate = 1980000;  // kHz
  p.totalConstMem = 65536;
  p.major = static_cast<int>(limits.compute_capability / 10);
  p.minor = static_cast<int>(limits.compute_capability % 10);
  p.textureAlignment = 512;
  p.deviceOverlap = 1;
  p.multiProcessorCount = static_cast<int>(limits.multiprocessors);
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.ECCEnabled = 1;
  p.asyncEngineCount = 3;
  p.unifiedAddressing = 1;
  p.memoryClockRate = 2619000;  // kHz
  p.memoryBusWidth = 5120;
  p.l2CacheSize = 50 << 20;
  p.persistingL2CacheMaxSize = 30 << 20;
  p.maxThreadsPerMultiProcessor = 2048;
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = 228 * 1024;
  p.regsPerMultiprocessor = 65536;
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = limits.max_shared_optin;
  p.maxBlocksPerMultiProcessor = 32;
  p.reservedSharedMemPerBlock = 1024;
  p.clusterLaunch = 1;
  return p;
}

const cudaDeviceProp& device() {
  static const cudaDeviceProp p = modelled_device();
  return p;
}

using Clock = std::chrono::steady_clock;

}  // namespace

struct CUstream_st {
  unsigned flags;
};
struct CUevent_st {
  unsigned flags;
  bool recorded = false;
  Clock::time_point at;
};

namespace {

std::mutex handles_lock;
std::set<const void*>& live_handles() {
  static std::set<const void*> handles;
  return handles;
}
bool live(const void* handle) {
  std::lock_guard<std::mutex> hold(handles_lock);
  return live_handles().count(handle) > 0;
}
// The default stream (null, cudaStreamLegacy, cudaStreamPerThread) or one made here.
bool stream_ok(cudaStream_t s) {
  return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread || live(s);
}

}  // namespace

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return cudaErrorInvalidValue;
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return cudaErrorInvalidValue;
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int d) {
  if (properties == nullptr) return cudaErrorInvalidValue;
  if (d != 0) return cudaErrorInvalidDevice;
  *properties = device();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int d) {
  if (value == nullptr) return cudaErrorInvalidValue;
  if (d != 0) return cudaErrorInvalidDevice;
  const cudaDeviceProp& p = device();
  switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = static_cast<int>(p.reservedSharedMemPerBlock); break;
    default: {
      static char call[96];
      std::snprintf(call, sizeof call, "cudaDeviceGetAttribute with attribute %d", static_cast<int>(attribute));
      cuda_cpu::not_modelled(call);
    }
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceReset() { return cudaSuccess; }

cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total) {
  if (free == nullptr || total == nullptr) return cudaErrorInvalidValue;
  *total = device().totalGlobalMem;
  *free = *total;
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t s) {
  if (!stream_ok(s)) return cudaErrorInvalidResourceHandle;
  return cudaMemcpy(dst, src, bytes, kind);
}
cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t s) {
  if (!stream_ok(s)) return cudaErrorInvalidResourceHandle;
  return cudaMemset(pointer, value, bytes);
}

// Pinned host memory is ordinary host memory here (there is no copy engine to pin it for).
cudaError_t cudaMallocHost(void** pointer, std::size_t bytes) { return cudaHostAlloc(pointer, bytes, 0); }
cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned int) {
  if (pointer == nullptr) return cudaErrorInvalidValue;
  *pointer = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096 + (bytes == 0 ? 4096 : 0));
  return *pointer ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFreeHost(void* pointer) {
  std::free(pointer);
  return cudaSuccess;
}
cudaError_t cudaHostGetDevicePointer(void** device_pointer, void* host, unsigned int) {
  if (device_pointer == nullptr || host == nullptr) return cudaErrorInvalidValue;
  *device_pointer = host;
  return cudaSuccess;
}
// Managed memory is a device buffer, which the host can read and write here as on a system
// with concurrent managed access: kernels' accesses to it are checked like any buffer's.
cudaError_t(cudaMallocManaged)(void** pointer, std::size_t bytes, unsigned int) {
  return cuda_cpu_malloc(pointer, bytes, 1, nullptr, true);
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  if (stream == nullptr) return cudaErrorInvalidValue;
  *stream = new CUstream_st{flags};
  std::lock_guard<std::mutex> hold(handles_lock);
  live_handles().insert(*stream);
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  {
    std::lock_guard<std::mutex> hold(handles_lock);
    if (stream == nullptr || live_handles().erase(stream) == 0) return cudaErrorInvalidResourceHandle;
  }
  delete stream;
  return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return stream_ok(stream) ? cuda_cpu_sticky_error() : cudaErrorInvalidResourceHandle;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (!stream_ok(stream) || !live(event)) return cudaErrorInvalidResourceHandle;
  return cudaSuccess;  // everything before the event has already happened
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  if (event == nullptr) return cudaErrorInvalidValue;
  *event = new CUevent_st{flags, false, Clock::time_point{}};
  std::lock_guard<std::mutex> hold(handles_lock);
  live_handles().insert(*event);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!live(event) || !stream_ok(stream)) return cudaErrorInvalidResourceHandle;
  event->recorded = true;
  event->at = Clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!live(event)) return cudaErrorInvalidResourceHandle;
  return cuda_cpu_sticky_error();
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (!live(event)) return cudaErrorInvalidResourceHandle;
  return cuda_cpu_sticky_error();
}
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  if (milliseconds == nullptr) return cudaErrorInvalidValue;
  if (!live(start) || !live(end)) return cudaErrorInvalidResourceHandle;
  if ((start->flags | end->flags) & cudaEventDisableTiming) return cudaErrorInvalidResourceHandle;
  if (!start->recorded || !end->recorded) return cudaErrorInvalidResourceHandle;
  *milliseconds = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  {
    std::lock_guard<std::mutex> hold(handles_lock);
    if (event == nullptr || live_handles().erase(event) == 0) return cudaErrorInvalidResourceHandle;
  }
  delete event;
  return cudaSuccess;
}

cudaError_t cuda_cpu_symbol_copy(void* dst, const void* src, std::size_t bytes, std::size_t symbol_size,
                                 std::size_t offset) {
  if (offset > symbol_size || bytes > symbol_size - offset) return cudaErrorInvalidValue;
  if (dst == nullptr || src == nullptr) return cudaErrorInvalidValue;
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cuda_cpu_occupancy(int* blocks, const void* kernel, int block_size, std::size_t dynamic_shared_bytes) {
  if (blocks == nullptr || kernel == nullptr || block_size <= 0) return cudaErrorInvalidValue;
  const cudaDeviceProp& p = device();
  std::size_t static_shared = 0;
  try {
    for (const engine::cpu::SharedVariable& v : engine::cpu::shared_variables_of(kernel)) static_shared += v.size;
  } catch (const engine::Error&) {
    return cudaErrorInvalidDeviceFunction;
  }
  if (block_size > p.maxThreadsPerBlock) {
    *blocks = 0;
    return cudaSuccess;
  }
  int warps = (block_size + 31) / 32;
  int by_threads = p.maxThreadsPerMultiProcessor / 32 / warps;
  int by_blocks = p.maxBlocksPerMultiProcessor;
  std::size_t per_block = static_shared + dynamic_shared_bytes + p.reservedSharedMemPerBlock;
  int by_shared = static_cast<int>(p.sharedMemPerMultiprocessor / per_block);
  if (static_shared + dynamic_shared_bytes > p.sharedMemPerBlockOptin) by_shared = 0;
  int n = by_threads < by_blocks ? by_threads : by_blocks;
  *blocks = n < by_shared ? n : by_shared;
  return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void*, std::size_t, const void*, std::size_t, std::size_t, std::size_t, cudaMemcpyKind) {
  cuda_cpu::not_modelled("cudaMemcpy2D");
}
cudaError_t cudaMallocPitch(void**, std::size_t*, std::size_t, std::size_t) {
  cuda_cpu::not_modelled("cudaMallocPitch");
}
cudaError_t cudaLaunchHostFunc(cudaStream_t, void (*)(void*), void*) { cuda_cpu::not_modelled("cudaLaunchHostFunc"); }
cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, std::size_t, cudaStream_t) {
  cuda_cpu::not_modelled("cudaLaunchCooperativeKernel");
}

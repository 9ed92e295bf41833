// The CUDA runtime calls that whole programs make beyond a kernel file's helpers
// (cuda_cpu/runtime_api.h): the modelled device, streams, events, pinned and managed memory,
// symbols, occupancy. Everything runs to its end before the call returns, so a stream is in
// order by construction and an event's time is the CPU's clock when it was recorded.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "cuda_cpu/host_launch.h"
#include "cuda_cpu/runtime_api.h"
#include "cuda_cpu/runtime_hooks.h"
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
  p.clockRate = static_cast<int>(cuda_cpu::kClockKhz);
  p.totalConstMem = 65536;
  p.major = static_cast<int>(limits.compute_capability / 10);
  p.minor = static_cast<int>(limits.compute_capability % 10);
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
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
  p.computeMode = cudaComputeModeDefault;
  p.pciBusID = 1;
  p.hostNativeAtomicSupported = 1;
  p.singleToDoublePrecisionPerfRatio = 2;
  p.computePreemptionSupported = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.pageableMemoryAccess = 0;
  p.directManagedMemAccessFromHost = 0;
  p.accessPolicyMaxWindowSize = 134213632;
  p.hostRegisterSupported = 1;
  p.memoryPoolsSupported = 1;
  p.ipcEventSupported = 0;
  p.unifiedFunctionPointers = 0;
  p.surfaceAlignment = 512;
  // Textures and surfaces are not modelled; their limits are an H100's, for programs that print them.
  p.maxTexture1D = 131072;
  p.maxTexture1DMipmap = 32768;
  p.maxTexture2D[0] = 131072, p.maxTexture2D[1] = 65536;
  p.maxTexture3D[0] = p.maxTexture3D[1] = p.maxTexture3D[2] = 16384;
  p.maxTexture1DLayered[0] = 32768, p.maxTexture1DLayered[1] = 2048;
  p.maxTexture2DLayered[0] = 32768, p.maxTexture2DLayered[1] = 32768, p.maxTexture2DLayered[2] = 2048;
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
  int priority = 0;
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
    case cudaDevAttrMaxPitch: *value = static_cast<int>(p.memPitch); break;
    case cudaDevAttrTextureAlignment: *value = static_cast<int>(p.textureAlignment); break;
    case cudaDevAttrTexturePitchAlignment: *value = static_cast<int>(p.texturePitchAlignment); break;
    case cudaDevAttrGpuOverlap: *value = p.deviceOverlap; break;
    case cudaDevAttrKernelExecTimeout: *value = p.kernelExecTimeoutEnabled; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *value = p.computeMode; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; break;
    case cudaDevAttrTccDriver: *value = p.tccDriver; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case cudaDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case cudaDevAttrMultiGpuBoardGroupID: *value = p.multiGpuBoardGroupID; break;
    case cudaDevAttrHostNativeAtomicSupported: *value = p.hostNativeAtomicSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *value = p.singleToDoublePrecisionPerfRatio; break;
    case cudaDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; break;
    case cudaDevAttrComputePreemptionSupported: *value = p.computePreemptionSupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *value = p.canUseHostPointerForRegisteredMem; break;
    case cudaDevAttrCooperativeMultiDeviceLaunch: *value = p.cooperativeMultiDeviceLaunch; break;
    case cudaDevAttrHostRegisterSupported: *value = p.hostRegisterSupported; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *value = p.pageableMemoryAccessUsesHostPageTables; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: *value = p.directManagedMemAccessFromHost; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *value = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *value = p.accessPolicyMaxWindowSize; break;
    case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; break;
    case cudaDevAttrClusterLaunch: *value = p.clusterLaunch; break;
    case cudaDevAttrIpcEventSupport: *value = p.ipcEventSupported; break;
    case cudaDevAttrSurfaceAlignment: *value = static_cast<int>(p.surfaceAlignment); break;
    case cudaDevAttrMaxTexture1DWidth: *value = p.maxTexture1D; break;
    case cudaDevAttrMaxTexture2DWidth: *value = p.maxTexture2D[0]; break;
    case cudaDevAttrMaxTexture2DHeight: *value = p.maxTexture2D[1]; break;
    case cudaDevAttrMaxTexture3DWidth: *value = p.maxTexture3D[0]; break;
    case cudaDevAttrMaxTexture3DHeight: *value = p.maxTexture3D[1]; break;
    case cudaDevAttrMaxTexture3DDepth: *value = p.maxTexture3D[2]; break;
    default: {
      static char call[96];
      std::snprintf(call, sizeof call, "cudaDeviceGetAttribute with attribute %d", static_cast<int>(attribute));
      cuda_cpu::not_modelled(call);
    }
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceReset() { return cudaSuccess; }

// Free: the modelled GPU's memory less the live buffers, as on a GPU, but no more than this
// machine has available: programs size their buffers by it (a benchmark takes nine tenths).
cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total) {
  if (free == nullptr || total == nullptr) return cudaErrorInvalidValue;
  *total = device().totalGlobalMem;
  const std::uint64_t used = engine::cpu::DeviceArena::instance().live_bytes();
  std::uint64_t left = used < *total ? *total - used : 0;
  if (std::FILE* meminfo = std::fopen("/proc/meminfo", "r")) {
    char line[128];
    unsigned long long kib = 0;
    while (std::fgets(line, sizeof line, meminfo))
      if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
        if (kib * 1024 < left) left = kib * 1024;
        break;
      }
    std::fclose(meminfo);
  }
  *free = static_cast<std::size_t>(left);
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

// Pinned host memory is a buffer of the device arena, as managed memory is: kernels run in a
// child process (isolated_launch.h), and only the arena is shared with it, so a kernel that
// writes mapped host memory (zero-copy) is seen by the host, and its accesses are checked.
cudaError_t cudaMallocHost(void** pointer, std::size_t bytes) { return cudaHostAlloc(pointer, bytes, 0); }
cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned int) {
  if (pointer == nullptr) return cudaErrorInvalidValue;
  return cuda_cpu_malloc(pointer, bytes, 1, "a cudaHostAlloc buffer", true);
}
cudaError_t cudaFreeHost(void* pointer) {
  if (pointer != nullptr && !DeviceArena::instance().contains(reinterpret_cast<std::uintptr_t>(pointer)))
    return cudaErrorInvalidValue;
  return cudaFree(pointer);
}
// Memory from cudaHostAlloc is its own device pointer. Memory that cudaHostRegister pinned in
// place is not shared with the child process that runs kernels: a kernel's writes to it
// would be lost, so its device pointer is not modelled.
cudaError_t cudaHostGetDevicePointer(void** device_pointer, void* host, unsigned int) {
  if (device_pointer == nullptr || host == nullptr) return cudaErrorInvalidValue;
  if (!DeviceArena::instance().contains(reinterpret_cast<std::uintptr_t>(host)))
    cuda_cpu::not_modelled("cudaHostGetDevicePointer of memory pinned by cudaHostRegister");
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
  *stream = new CUstream_st{flags, 0};
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


cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, std::size_t, cudaStream_t) {
  cuda_cpu::not_modelled("cudaLaunchCooperativeKernel");
}

// Priorities are kept and reported back; a stream runs its work at once whatever its priority.
// CUDA's range on an H100: 0 (least) to -5 (greatest).
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
  cudaError_t e = cudaStreamCreateWithFlags(stream, flags);
  if (e == cudaSuccess) (*stream)->priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
  return e;
}
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
  if (priority == nullptr) return cudaErrorInvalidValue;
  if (!stream_ok(stream)) return cudaErrorInvalidResourceHandle;
  *priority = live(stream) ? stream->priority : 0;
  return cudaSuccess;
}
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags) {
  if (flags == nullptr) return cudaErrorInvalidValue;
  if (!stream_ok(stream)) return cudaErrorInvalidResourceHandle;
  *flags = live(stream) ? stream->flags : cudaStreamDefault;
  return cudaSuccess;
}
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID, const cudaStreamAttrValue* value) {
  if (value == nullptr) return cudaErrorInvalidValue;
  return stream_ok(stream) ? cudaSuccess : cudaErrorInvalidResourceHandle;  // a hint
}
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID, cudaStreamAttrValue* value) {
  if (value == nullptr) return cudaErrorInvalidValue;
  if (!stream_ok(stream)) return cudaErrorInvalidResourceHandle;
  *value = cudaStreamAttrValue{};
  return cudaSuccess;
}
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void*, std::size_t, unsigned int) {
  return stream_ok(stream) ? cudaSuccess : cudaErrorInvalidResourceHandle;  // a hint
}
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  if (status == nullptr) return cudaErrorInvalidValue;
  if (!stream_ok(stream)) return cudaErrorInvalidResourceHandle;
  *status = cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int) {
  return cudaEventRecord(event, stream);
}

// Everything before a host function on its stream has finished when it is reached, so it runs
// now, on the calling thread, as a callback with the stream's status.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data) {
  if (fn == nullptr) return cudaErrorInvalidValue;
  if (!stream_ok(stream)) return cudaErrorInvalidResourceHandle;
  fn(data);
  return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* data, unsigned int flags) {
  if (callback == nullptr || flags != 0) return cudaErrorInvalidValue;
  if (!stream_ok(stream)) return cudaErrorInvalidResourceHandle;
  callback(stream, cuda_cpu_sticky_error(), data);
  return cudaSuccess;
}

cudaError_t cuda_cpu_func_attributes(cudaFuncAttributes* attributes, const void* kernel) {
  if (attributes == nullptr || kernel == nullptr) return cudaErrorInvalidValue;
  std::size_t static_shared = 0;
  try {
    for (const engine::cpu::SharedVariable& v : engine::cpu::shared_variables_of(kernel)) static_shared += v.size;
  } catch (const engine::Error&) {
    return cudaErrorInvalidDeviceFunction;
  }
  const cudaDeviceProp& p = device();
  *attributes = cudaFuncAttributes{};
  attributes->sharedSizeBytes = static_shared;
  attributes->maxThreadsPerBlock = p.maxThreadsPerBlock;
  attributes->ptxVersion = p.major * 10 + p.minor;
  attributes->binaryVersion = p.major * 10 + p.minor;
  attributes->maxDynamicSharedSizeBytes = static_cast<int>(p.sharedMemPerBlock - static_shared);
  attributes->preferredShmemCarveout = -1;
  return cudaSuccess;
}

// The runtime calls about the modelled device's settings, 2D and peer copies, registered host
// memory and the device's memory pool (cuda_cpu/runtime_api.h). There is one device and its
// memory is the host's: settings are accepted and reported back, copies are copies.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "cuda_cpu/runtime_api.h"
#include "device_arena.h"

using engine::cpu::DeviceArena;

namespace {

std::mutex settings_lock;
unsigned device_flags = cudaDeviceScheduleAuto;
cudaFuncCache cache_config = cudaFuncCachePreferNone;
cudaSharedMemConfig bank_config = cudaSharedMemBankSizeFourByte;
// cudaLimitStackSize ... cudaLimitPersistingL2CacheSize, CUDA's defaults on an H100.
std::size_t limits[] = {1024, 1 << 20, 8 << 20, 2, 2048, 32, 0};

constexpr std::size_t kPitchAlignment = 512;

}  // namespace

cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return cudaErrorInvalidValue;
  *version = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  if (version == nullptr) return cudaErrorInvalidValue;
  *version = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* properties) {
  if (device == nullptr || properties == nullptr) return cudaErrorInvalidValue;
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  if (flags & ~static_cast<unsigned>(cudaDeviceMask)) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(settings_lock);
  device_flags = flags;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (flags == nullptr) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(settings_lock);
  *flags = device_flags | cudaDeviceMapHost;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize) return cudaErrorUnsupportedLimit;
  std::lock_guard<std::mutex> hold(settings_lock);
  // The device heap is at least 4 MiB: CUDA 13 on an H200 reads back 4 MiB after any smaller
  // value, and every value from 4 MiB on as set (docs/dev/runs/2026-11-29-h200-2).
  if (limit == cudaLimitMallocHeapSize && value < (std::size_t{4} << 20)) value = std::size_t{4} << 20;
  limits[limit] = value;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
  if (value == nullptr) return cudaErrorInvalidValue;
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize) return cudaErrorUnsupportedLimit;
  std::lock_guard<std::mutex> hold(settings_lock);
  *value = limits[limit];
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config) {
  std::lock_guard<std::mutex> hold(settings_lock);
  cache_config = config;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
  if (config == nullptr) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(settings_lock);
  *config = cache_config;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  std::lock_guard<std::mutex> hold(settings_lock);
  bank_config = config;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config) {
  if (config == nullptr) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(settings_lock);
  *config = bank_config;
  return cudaSuccess;
}
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
  if (can_access == nullptr) return cudaErrorInvalidValue;
  if (device != 0 || peer_device != 0) return cudaErrorInvalidDevice;
  *can_access = 0;  // a device is not its own peer
  return cudaSuccess;
}
cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr, int src_device, int dst_device) {
  if (value == nullptr) return cudaErrorInvalidValue;
  if (src_device != 0 || dst_device != 0) return cudaErrorInvalidDevice;
  *value = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetPCIBusId(char* bus_id, int length, int device) {
  if (bus_id == nullptr || length <= 0) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  std::snprintf(bus_id, static_cast<std::size_t>(length), "0000:01:00.0");
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }

// A pointer into the device arena is device (or managed) memory; any other is the host's.
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* pointer) {
  if (attributes == nullptr) return cudaErrorInvalidValue;
  auto a = reinterpret_cast<std::uintptr_t>(pointer);
  const DeviceArena& arena = DeviceArena::instance();
  const bool on_device = arena.contains(a) && arena.slot_of(a).live;
  attributes->type = on_device ? cudaMemoryTypeDevice : cudaMemoryTypeUnregistered;
  attributes->device = 0;
  attributes->devicePointer = on_device ? const_cast<void*>(pointer) : nullptr;
  attributes->hostPointer = on_device ? nullptr : const_cast<void*>(pointer);
  return cudaSuccess;
}
// Host memory is the device's here: registering it only has to be accepted.
cudaError_t cudaHostRegister(void* pointer, std::size_t bytes, unsigned int) {
  return pointer == nullptr || bytes == 0 ? cudaErrorInvalidValue : cudaSuccess;
}
cudaError_t cudaHostUnregister(void* pointer) { return pointer == nullptr ? cudaErrorInvalidValue : cudaSuccess; }
cudaError_t cudaHostGetFlags(unsigned int* flags, void* host) {
  if (flags == nullptr || host == nullptr) return cudaErrorInvalidValue;
  *flags = cudaHostAllocMapped;
  return cudaSuccess;
}

cudaError_t cudaMallocPitch(void** pointer, std::size_t* pitch, std::size_t width, std::size_t height) {
  if (pointer == nullptr || pitch == nullptr) return cudaErrorInvalidValue;
  *pitch = (width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
  return cuda_cpu_malloc(pointer, *pitch * height, 1, "a cudaMallocPitch buffer", false);
}
// Row by row, each row one cudaMemcpy (which checks it against the buffers it touches).
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                         std::size_t height, cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) return cudaErrorInvalidPitchValue;
  for (std::size_t row = 0; row < height; ++row) {
    cudaError_t e = (cudaMemcpy)(static_cast<char*>(dst) + row * dpitch, static_cast<const char*>(src) + row * spitch,
                                 width, kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                              std::size_t height, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaMemset2D(void* pointer, std::size_t pitch, int value, std::size_t width, std::size_t height) {
  if (width > pitch) return cudaErrorInvalidPitchValue;
  for (std::size_t row = 0; row < height; ++row) {
    cudaError_t e = cudaMemset(static_cast<char*>(pointer) + row * pitch, value, width);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
cudaError_t cudaMemset2DAsync(void* pointer, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t) {
  return cudaMemset2D(pointer, pitch, value, width, height);
}
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes) {
  if (dst_device != 0 || src_device != 0) return cudaErrorInvalidDevice;
  return (cudaMemcpy)(dst, src, bytes, cudaMemcpyDeviceToDevice);
}
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t) {
  return cudaMemcpyPeer(dst, dst_device, src, src_device, bytes);
}

// The device's one memory pool: cudaMallocAsync allocates from the arena at once, and
// cudaFreeAsync frees at once; the pool's attributes are remembered.
struct CUmemPoolHandle_st {
  unsigned long long release_threshold = 0;
  unsigned long long reserved = 0, used = 0;
};
namespace {
CUmemPoolHandle_st default_pool;
}  // namespace

cudaError_t cudaFreeAsync(void* pointer, cudaStream_t) { return cudaFree(pointer); }
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (pool == nullptr) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  *pool = &default_pool;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) { return cudaDeviceGetDefaultMemPool(pool, device); }
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (device != 0) return cudaErrorInvalidDevice;
  return pool == &default_pool ? cudaSuccess : cudaErrorInvalidValue;
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
  if (pool == nullptr || value == nullptr) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(settings_lock);
  if (attribute == cudaMemPoolAttrReleaseThreshold) pool->release_threshold = *static_cast<unsigned long long*>(value);
  return cudaSuccess;
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
  if (pool == nullptr || value == nullptr) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> hold(settings_lock);
  switch (attribute) {
    case cudaMemPoolAttrReleaseThreshold: *static_cast<unsigned long long*>(value) = pool->release_threshold; break;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemCurrent:
    case cudaMemPoolAttrUsedMemHigh: *static_cast<unsigned long long*>(value) = 0; break;
    default: *static_cast<int*>(value) = 1; break;  // the reuse policies are booleans, all on
  }
  return cudaSuccess;
}
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descriptions, std::size_t count) {
  if (pool == nullptr || (descriptions == nullptr && count > 0)) return cudaErrorInvalidValue;
  for (std::size_t i = 0; i < count; ++i)
    if (descriptions[i].location.type == cudaMemLocationTypeDevice && descriptions[i].location.id != 0)
      return cudaErrorInvalidDevice;
  return cudaSuccess;
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t) {
  return pool == nullptr ? cudaErrorInvalidValue : cudaSuccess;
}

// The deprecated names CUDA still declares, as the calls that replaced them.
cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
cudaError_t cudaThreadExit() { return cudaDeviceReset(); }
cudaError_t cudaThreadSetLimit(cudaLimit limit, std::size_t value) { return cudaDeviceSetLimit(limit, value); }
cudaError_t cudaThreadGetLimit(std::size_t* value, cudaLimit limit) { return cudaDeviceGetLimit(value, limit); }
cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* config) { return cudaDeviceGetCacheConfig(config); }
cudaError_t cudaThreadSetCacheConfig(cudaFuncCache config) { return cudaDeviceSetCacheConfig(config); }

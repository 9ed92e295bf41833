// The runtime calls that programs make beyond allocation, copies and launches, as CUDA 12
// declares them: 2D copies into pitched memory, zero-copy pinned memory, host functions and
// callbacks on streams, stream priorities, the memory pool of stream-ordered allocation, kernel
// attributes, error names, device settings, the deprecated names, directed rounding and
// wrapping atomics, `extern T __shared__` arrays and rows of them, clock() on both sides, and
// NVTX's ranges and names (through its version 2 headers where the toolkit has them). main checks
// each answer.
#include <cuda_runtime.h>
#if __has_include(<nvToolsExt.h>)  // CUDA up to 12.8, whose headers the CPU backend follows
#include <nvToolsExt.h>
#include <nvToolsExtCudaRt.h>
#else
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>
#endif

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "include/expect.cuh"

// Adds one to every element of a pitched 2D array, one thread per element.
__global__ void add_one(float* rows, std::size_t pitch, int width) {
  float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(rows) + blockIdx.x * pitch);
  if (static_cast<int>(threadIdx.x) < width) row[threadIdx.x] += 1.0f;
}

__global__ void uses_shared(int* out) {
  __shared__ int staged[64];
  staged[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = staged[63 - threadIdx.x];
}

// Directed rounding and wrapping atomics, as interval arithmetic and ring buffers use them.
__global__ void rounding_and_wrapping(float* out, unsigned* counter) {
  if (threadIdx.x == 0) {
    out[0] = __fadd_rd(1.0f, 1e-10f);
    out[1] = __fadd_ru(1.0f, 1e-10f);
  }
  atomicInc_system(counter, 3u);  // 0, 1, 2, 3, 0, ...: eight increments come back to 0
}

// Dynamic shared memory declared with the type before __shared__, as CUDA also accepts.
__global__ void reverse_dynamic(int* data) {
  extern int __shared__ staged[];
  staged[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x];
}

// Dynamic shared memory as rows of four: an extern __shared__ array whose first bound is unknown.
__global__ void rows_dynamic(int* data) {
  extern __shared__ int rows[][4];
  rows[threadIdx.x / 4][threadIdx.x % 4] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = rows[threadIdx.x % 4][threadIdx.x / 4] + rows[0][0];
}

// Writes the host's pinned memory through its device pointer (zero-copy).
__global__ void write_mapped(int* mapped) { mapped[threadIdx.x] = 7 * static_cast<int>(threadIdx.x); }

// Waits `cycles` of the multiprocessor's clock, as kernels that must take some time do: clock()
// in device code is the cycle counter (32 bits, so the difference is taken in unsigned).
__global__ void wait_cycles(long long cycles, long long* waited) {
  unsigned start = static_cast<unsigned>(clock());
  long long offset = 0;
  while (offset < cycles) offset = static_cast<unsigned>(clock()) - start;
  *waited = offset;
}

static void CUDART_CB count_call(void* data) { ++*static_cast<int*>(data); }
static void CUDART_CB count_callback(cudaStream_t, cudaError_t status, void* data) {
  if (status == cudaSuccess) ++*static_cast<int*>(data);
}

int main() {
  const int width = 10, height = 3;
  float host[height][width];
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c) host[r][c] = static_cast<float>(r * 100 + c);

  float* rows = nullptr;
  std::size_t pitch = 0;
  EXPECT(cudaMallocPitch(&rows, &pitch, width * sizeof(float), height) == cudaSuccess);
  EXPECT(pitch >= width * sizeof(float) && pitch % 256 == 0);
  EXPECT(cudaMemset2D(rows, pitch, 0, pitch, height) == cudaSuccess);
  EXPECT(cudaMemcpy2D(rows, pitch, host, sizeof host[0], sizeof host[0], height, cudaMemcpyHostToDevice) ==
         cudaSuccess);
  add_one<<<height, 32>>>(rows, pitch, width);
  float back[height][width];
  EXPECT(cudaMemcpy2D(back, sizeof back[0], rows, pitch, sizeof back[0], height, cudaMemcpyDeviceToHost) ==
         cudaSuccess);
  EXPECT(back[2][9] == 210.0f && back[0][0] == 1.0f);
  EXPECT(cudaMemcpy2D(back, 4, rows, pitch, sizeof back[0], height, cudaMemcpyDeviceToHost) ==
         cudaErrorInvalidPitchValue);
  EXPECT(cudaFree(rows) == cudaSuccess);

  int least = 1, greatest = 1, priority = 1, calls = 0;
  EXPECT(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess && greatest < least);
  cudaStream_t stream;
  EXPECT(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest) == cudaSuccess);
  EXPECT(cudaStreamGetPriority(stream, &priority) == cudaSuccess && priority == greatest);
  EXPECT(cudaLaunchHostFunc(stream, count_call, &calls) == cudaSuccess);
  EXPECT(cudaStreamAddCallback(stream, count_callback, &calls, 0) == cudaSuccess);
  EXPECT(cudaStreamSynchronize(stream) == cudaSuccess && calls == 2);

  cudaMemPool_t pool;
  unsigned long long threshold = ~0ull, read_back = 0;
  EXPECT(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess);
  EXPECT(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) == cudaSuccess);
  EXPECT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read_back) == cudaSuccess &&
         read_back == threshold);
  int* numbers = nullptr;
  EXPECT(cudaMallocAsync(&numbers, 64 * sizeof(int), stream) == cudaSuccess);
  uses_shared<<<1, 64, 0, stream>>>(numbers);
  int first = -1;
  EXPECT(cudaMemcpyAsync(&first, numbers, sizeof first, cudaMemcpyDeviceToHost, stream) == cudaSuccess);
  EXPECT(cudaFreeAsync(numbers, stream) == cudaSuccess);
  EXPECT(cudaStreamSynchronize(stream) == cudaSuccess && first == 63);
  EXPECT(cudaStreamDestroy(stream) == cudaSuccess);

  float* rounded = nullptr;
  unsigned* counter = nullptr;
  EXPECT(cudaMallocManaged(&rounded, 2 * sizeof(float)) == cudaSuccess);
  EXPECT(cudaMallocManaged(&counter, sizeof(unsigned)) == cudaSuccess);
  *counter = 0;
  rounding_and_wrapping<<<1, 8>>>(rounded, counter);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess);
  EXPECT(rounded[0] == 1.0f && rounded[1] > 1.0f && *counter == 0);

  int *pinned = nullptr, *mapped = nullptr;
  EXPECT(cudaHostAlloc(&pinned, 32 * sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  EXPECT(cudaHostGetDevicePointer(&mapped, pinned, 0) == cudaSuccess);  // C++'s overload: any T**
  write_mapped<<<1, 32>>>(mapped);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess && pinned[31] == 217);
  reverse_dynamic<<<1, 32, 32 * sizeof(int)>>>(mapped);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess && pinned[0] == 217 && pinned[31] == 0);
  rows_dynamic<<<1, 16, 16 * sizeof(int)>>>(mapped);  // a 4 x 4 transpose, plus the first element
  EXPECT(cudaDeviceSynchronize() == cudaSuccess && pinned[0] == 434 && pinned[1] == 406 &&
         pinned[4] == 427);
  EXPECT(cudaFreeHost(pinned) == cudaSuccess);
  // cudaMallocHost with flags, for any pointer type and for void** (C++'s overloads).
  double* portable = nullptr;
  void* portable_bytes = nullptr;
  EXPECT(cudaMallocHost(&portable, 4 * sizeof(double), cudaHostAllocPortable) == cudaSuccess && portable != nullptr);
  EXPECT(cudaMallocHost(&portable_bytes, 16, cudaHostAllocMapped) == cudaSuccess && portable_bytes != nullptr);
  EXPECT(cudaFreeHost(portable) == cudaSuccess && cudaFreeHost(portable_bytes) == cudaSuccess);

  cudaFuncAttributes attributes;
  EXPECT(cudaFuncGetAttributes(&attributes, uses_shared) == cudaSuccess);
  EXPECT(attributes.sharedSizeBytes == 64 * sizeof(int) && attributes.maxThreadsPerBlock == 1024);

  cudaDeviceProp prop;
  int mode = -1, version = 0;
  EXPECT(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  EXPECT(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0) == cudaSuccess);
#if CUDART_VERSION < 13000  // CUDA 13 removed cudaDeviceProp::computeMode
  EXPECT(mode == prop.computeMode);
#endif
  EXPECT(mode != cudaComputeModeProhibited);
  EXPECT(cudaRuntimeGetVersion(&version) == cudaSuccess && version == CUDART_VERSION);
  EXPECT(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost) == cudaSuccess);
  std::size_t heap = 0;
  EXPECT(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 24) == cudaSuccess);
  EXPECT(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess && heap == (1u << 24));
  int peer = 1;
  EXPECT(cudaDeviceCanAccessPeer(&peer, 0, 0) == cudaSuccess && peer == 0);

  EXPECT(std::strcmp(cudaGetErrorName(cudaErrorAssert), "cudaErrorAssert") == 0);
  EXPECT(std::strcmp(cudaGetErrorName(cudaErrorNoDevice), "cudaErrorNoDevice") == 0);
  EXPECT(std::strcmp(cudaGetErrorString(cudaErrorInvalidPitchValue), "invalid pitch argument") == 0);
#if CUDART_VERSION < 13000  // CUDA 13 removed the cudaThread* names; the CPU backend follows 12.8
  EXPECT(cudaThreadSynchronize() == cudaSuccess);
#endif

  // 20 ms of cycles at the device's clock rate: on the GPU as on the CPU backend, the kernel
  // waits about that long (the C library's clock() would count microseconds of processor time).
  int khz = 0;
  long long* waited = nullptr;
  EXPECT(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) == cudaSuccess && khz > 0);
  EXPECT(cudaMallocManaged(&waited, sizeof(long long)) == cudaSuccess);
  const long long cycles = 20LL * khz;
  auto before = std::chrono::steady_clock::now();
  wait_cycles<<<1, 1>>>(cycles, waited);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess && *waited >= cycles);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
  EXPECT(seconds >= 0.015 && seconds < 5.0);
  EXPECT(cudaFree(waited) == cudaSuccess);
  // In host code clock() stays the C library's: the process's processor time.
  timespec used;
  clock_t host_clock = clock();
  EXPECT(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used) == 0);
  long long library_ticks = used.tv_sec * CLOCKS_PER_SEC + used.tv_nsec / (1000000000 / CLOCKS_PER_SEC);
  EXPECT(host_clock >= 0 && library_ticks - host_clock >= 0 && library_ticks - host_clock < CLOCKS_PER_SEC / 10);

  // Free memory: never above the total less the live buffers (on the CPU backend also no more than
  // the machine has available, which moves with everything else it runs).
  std::size_t free_before = 0, free_after = 0, total = 0;
  const std::size_t buffer_bytes = std::size_t{64} << 20;
  void* buffer = nullptr;
  EXPECT(cudaMemGetInfo(&free_before, &total) == cudaSuccess && free_before <= total);
  EXPECT(cudaMalloc(&buffer, buffer_bytes) == cudaSuccess);
  EXPECT(cudaMemGetInfo(&free_after, &total) == cudaSuccess);
  EXPECT(free_after > 0 && free_after + buffer_bytes <= total);
  EXPECT(cudaFree(buffer) == cudaSuccess);

  // NVTX's event attributes, filled in by name as its documentation shows; a range around a copy.
  nvtxEventAttributes_t event = {};
  event.version = NVTX_VERSION;
  event.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  event.colorType = NVTX_COLOR_ARGB;
  event.color = 0xFF00FF00u;
  event.messageType = NVTX_MESSAGE_TYPE_ASCII;
  event.message.ascii = "copy";
  event.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  event.payload.llValue = 42;
  EXPECT(event.size == sizeof event);
  cudaStream_t named;
  EXPECT(cudaStreamCreate(&named) == cudaSuccess);
  nvtxNameCudaStreamA(named, "copies");
  nvtxRangeId_t range = nvtxRangeStartEx(&event);
  nvtxRangePushA("copy");
  int from = 7, *to = nullptr;
  EXPECT(cudaMalloc(&to, sizeof from) == cudaSuccess);
  EXPECT(cudaMemcpyAsync(to, &from, sizeof from, cudaMemcpyHostToDevice, named) == cudaSuccess);
  EXPECT(cudaStreamSynchronize(named) == cudaSuccess);
  nvtxRangePop();
  nvtxRangeEnd(range);
  EXPECT(cudaFree(to) == cudaSuccess && cudaStreamDestroy(named) == cudaSuccess);

  std::printf("%d failed expectations\n", failures);
  return failures == 0 ? 0 : 1;
}

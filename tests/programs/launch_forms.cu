// Launch syntax and runtime queries as programs write them, checked by main
// (tests/programs/test_programs.py runs it with -I include).
#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>

#include <cassert>
#include <cstdio>
#include <cstring>

#include "launch_helpers.cuh"

#include "include/expect.cuh"

__global__ void fill(int* out, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

__global__ void reverse_block(int* data) {
  extern __shared__ int staged[];
  staged[threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  data[blockIdx.x * blockDim.x + threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x];
}

__global__ void say_hello() {
  if (threadIdx.x == 0) printf("hello from block %d\n", blockIdx.x);
}

__global__ void checks_its_input(const int* data) { assert(data[threadIdx.x] >= 0); }

struct Pair {
  int first, second;
};
__global__ void sum_pair(Pair p, int* out) { *out = p.first + p.second; }

int main() {
  const int n = 256;
  int *a, *b, *c;
  cudaMallocManaged(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&c, n * sizeof(int));
  cudaProfilerStart();

  // Integers and dim3, 2, 3 and 4 configuration arguments, comments and nested parentheses.
  fill<<<n / 64, 64>>>(a, 7, n);
  fill<<<dim3(n / 128, 1, 1), dim3(128), 0>>>(b, (int)(sizeof(Pair) / sizeof(int)), n);
  const char* not_a_launch = "fill<<<1, 1>>>(a, 0, n)";  // a string is left alone
  helpers::add<<</* grid */ 2, 32, 0, 0>>>(a, b, c, n);  // T deduced; const T* takes int*
  EXPECT(std::strlen(not_a_launch) == 23);
  cudaDeviceSynchronize();
  EXPECT(a[5] == 7);  // managed memory, read on the host
  int host[n];
  cudaMemcpy(host, c, sizeof host, cudaMemcpyDeviceToHost);
  EXPECT(host[0] == 9 && host[n - 1] == 9);

  helpers::launch_scale_by_3(a, c, n);
  cudaMemcpy(host, c, sizeof host, cudaMemcpyDeviceToHost);
  EXPECT(host[17] == 21);

  for (int i = 0; i < n; ++i) host[i] = i;
  cudaMemcpy(b, host, sizeof host, cudaMemcpyHostToDevice);
  reverse_block<<<2, 128, 128 * sizeof(int)>>>(b);
  cudaMemcpy(host, b, sizeof host, cudaMemcpyDefault);
  EXPECT(host[0] == 127 && host[128] == 255);

  int* sum;
  cudaMalloc(&sum, sizeof(int));
  sum_pair<<<1, 1>>>(Pair{2, 40}, sum);
  int got = 0;
  cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost);
  EXPECT(got == 42);

  say_hello<<<2, 32>>>();
  cudaDeviceSynchronize();
  std::fflush(stdout);

  // cudaLaunchKernelEx, in clusters of two blocks.
  cudaLaunchAttribute cluster[1] = {};
  cluster[0].id = cudaLaunchAttributeClusterDimension;
  cluster[0].val.clusterDim.x = 2;
  cluster[0].val.clusterDim.y = 1;
  cluster[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(n / 64);
  config.blockDim = dim3(64);
  config.attrs = cluster;
  config.numAttrs = 1;
  EXPECT(cudaLaunchKernelEx(&config, fill, c, 5, n) == cudaSuccess);
  cudaMemcpy(host, c, sizeof host, cudaMemcpyDeviceToHost);
  EXPECT(host[0] == 5 && host[n - 1] == 5);

  // A refused launch: its error is the next cudaGetLastError, then cleared. (CUDA 13 on an H100
  // says cudaErrorInvalidValue for a block of too many threads.)
  fill<<<1, 2048>>>(a, 0, n);
  cudaError_t refused = cudaGetLastError();
  EXPECT(refused == cudaErrorInvalidValue);
  EXPECT(std::strcmp(cudaGetErrorName(refused), "cudaErrorInvalidValue") == 0);
  EXPECT(cudaGetLastError() == cudaSuccess);

  int count = 0, device = -1, sms = 0, major = 0;
  cudaGetDeviceCount(&count);
  cudaSetDevice(0);
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  EXPECT(count >= 1 && device == 0 && major >= 7 && sms == prop.multiProcessorCount);
  EXPECT(cudaSetDevice(count) == cudaErrorInvalidDevice);
  std::printf("device 0: %s, sm_%d%d, %d SMs\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);

  int blocks = 0, min_grid = 0, block_size = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 256, 0);
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_size, fill);
  EXPECT(blocks >= 1 && block_size >= 32 && block_size % 32 == 0 && min_grid >= sms);
  cudaFuncSetAttribute(reverse_block, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  EXPECT(cudaGetLastError() == cudaSuccess);

  // An assert() that fails: a sticky error, as on a GPU.
  host[3] = -1;
  cudaMemcpy(b, host, sizeof host, cudaMemcpyHostToDevice);
  checks_its_input<<<1, 32>>>(b);
  cudaError_t failed = cudaDeviceSynchronize();
  EXPECT(failed == cudaErrorAssert);
  EXPECT(cudaMemcpy(host, b, sizeof host, cudaMemcpyDeviceToHost) == cudaErrorAssert);
  cudaProfilerStop();
  std::printf("%d failed expectations\n", failures);
  return failures == 0 ? 0 : 1;
}

// nvcc defines __CUDA_ARCH__ in its device pass only; checker/run compiles a file that tests it
// as both passes, the device pass for the sm_90 it models.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#error "these kernels need sm_70 or later"
#endif

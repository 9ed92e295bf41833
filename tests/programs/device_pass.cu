// nvcc's two passes over one file: code a file keeps for the device pass (#if __CUDA_ARCH__) runs
// in kernels, and host code sees the host pass. Each expectation holds on a GPU built for sm_90
// (CUDA_ARCH_EXPECTED, 900 by default: checker/run builds for the GPU it models) and on the CPU
// backend, which compiles this file twice and joins the passes (tools/device_pass_merge.h).
#include <cstdio>

#include "include/expect.cuh"

#ifndef CUDA_ARCH_EXPECTED
#define CUDA_ARCH_EXPECTED 900
#endif

// -1 where the host pass compiled it: both passes define it, and each side calls its own.
__host__ __device__ int compiled_for() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return -1;
#endif
}

__device__ int seen_by_kernel = -7;
__constant__ int scale;

// A kernel whose whole body is kept for the device pass, as samples guard what needs sm_70.
__global__ void record_architecture() {
#if __CUDA_ARCH__ >= 700
  seen_by_kernel = compiled_for() * scale;
#endif
}

template <int Offset>
__global__ void add_architecture(int* out) {
#if defined(__CUDA_ARCH__)
  out[threadIdx.x] = Offset + compiled_for();
#endif
}

// Code only the device pass defines, called from a kernel.
#ifdef __CUDA_ARCH__
__device__ int twice(int x) { return 2 * x; }
#endif
__global__ void doubles(int* out) {
#ifdef __CUDA_ARCH__
  out[threadIdx.x] = twice(threadIdx.x);
#endif
}

// A static kernel: its name is private to this file, and its launches run the device pass's code.
static __global__ void private_architecture(int* out) {
#ifdef __CUDA_ARCH__
  *out = __CUDA_ARCH__;
#endif
}

// Host code with a constructor runs once: the device pass's copy of it is left out.
struct Counted {
  Counted() { ++constructions; }
  static int constructions;
};
int Counted::constructions = 0;
Counted counted;

int main() {
  EXPECT(compiled_for() == -1);
  EXPECT(Counted::constructions == 1);

  const int three = 3;
  EXPECT(cudaMemcpyToSymbol(scale, &three, sizeof three) == cudaSuccess);
  record_architecture<<<1, 1>>>();
  EXPECT(cudaGetLastError() == cudaSuccess);
  int seen = 0;
  EXPECT(cudaMemcpyFromSymbol(&seen, seen_by_kernel, sizeof seen) == cudaSuccess);
  EXPECT(seen == 3 * CUDA_ARCH_EXPECTED);

  int* out = nullptr;
  EXPECT(cudaMallocManaged(&out, 32 * sizeof(int)) == cudaSuccess);
  add_architecture<5><<<1, 32>>>(out);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess);
  EXPECT(out[0] == 5 + CUDA_ARCH_EXPECTED && out[31] == 5 + CUDA_ARCH_EXPECTED);
  doubles<<<1, 32>>>(out);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess);
  EXPECT(out[0] == 0 && out[7] == 14 && out[31] == 62);
  private_architecture<<<1, 1>>>(out);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess);
  EXPECT(out[0] == CUDA_ARCH_EXPECTED);
  EXPECT(cudaFree(out) == cudaSuccess);

  std::printf("device pass: %d failed expectations\n", failures);
  return failures == 0 ? 0 : 1;
}

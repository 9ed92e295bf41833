// Warp-synchronous code, as books written for GPUs before Volta reduce the last 64 values: lanes
// of one warp read what other lanes wrote with no __syncwarp(), counting on lockstep. Launch 1 is
// that reduction, launch 2 the same with __syncwarp() (clean), launch 3 a race between threads of
// different warps. test_programs.py reads which findings say what.
#include <cstdio>

constexpr int kThreads = 64;

template <bool Synced>
__global__ void last_warp_sum(const int* in, int* out) {
  __shared__ int partial[kThreads];
  int tid = threadIdx.x;
  partial[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    int value = partial[tid];
    for (int offset = 32; offset > 0; offset /= 2) {
      value += partial[tid + offset < kThreads ? tid + offset : tid];
      if (Synced) __syncwarp();
      partial[tid] = value;
      if (Synced) __syncwarp();
    }
  }
  if (tid == 0) *out = partial[0];
}

__global__ void mirror(int* out) {
  __shared__ int values[kThreads];
  int tid = threadIdx.x;
  values[tid] = tid;
  out[tid] = values[kThreads - 1 - tid];  // written by a thread of the other warp: no barrier
}

int main() {
  int *in = nullptr, *out = nullptr;
  if (cudaMallocManaged(&in, kThreads * sizeof(int)) != cudaSuccess ||
      cudaMallocManaged(&out, kThreads * sizeof(int)) != cudaSuccess) {
    std::printf("cudaMallocManaged failed\n");
    return 2;
  }
  for (int i = 0; i < kThreads; ++i) in[i] = 1;
  last_warp_sum<false><<<1, kThreads>>>(in, out);
  cudaDeviceSynchronize();
  last_warp_sum<true><<<1, kThreads>>>(in, out);
  cudaDeviceSynchronize();
  std::printf("with __syncwarp(): %d\n", *out);
  mirror<<<1, kThreads>>>(out);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}

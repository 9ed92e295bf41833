// Warp-synchronous code through `volatile`, as books written for GPUs before Volta sum the last
// 64 values of a reduction: lanes of one warp read what other lanes wrote, with no __syncwarp(),
// counting on each statement being made by every lane before any lane goes on. GPUs run it so in
// practice; the CPU backend keeps the lanes in step at volatile accesses and gets the same sums
// (cuda_cpu/volatile_step.h). The races stay reported where the backend checks them (shared
// memory). test_programs.py reads what it prints and which launches have findings.
#include <cstdio>

constexpr int kThreads = 64;
constexpr int kBlocks = 48;

// Launch 1: the sum in global memory, in place.
__global__ void last_warp_sum_global(int* data, int* sums) {
  int* mine = data + blockIdx.x * kThreads;
  int tid = threadIdx.x;
  if (tid < 32) {
    volatile int* v = mine;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0) sums[blockIdx.x] = mine[0];
}

// Launch 2: the same in shared memory.
__global__ void last_warp_sum_shared(const int* data, int* sums) {
  __shared__ int partial[kThreads];
  int tid = threadIdx.x;
  partial[tid] = data[blockIdx.x * kThreads + tid];
  __syncthreads();
  if (tid < 32) {
    volatile int* v = partial;
    for (int offset = 32; offset > 0; offset /= 2) v[tid] += v[tid + offset];
  }
  if (tid == 0) sums[blockIdx.x] = partial[0];
}

// Launch 3: each lane writes through a volatile pointer, then reads its neighbour's word
// through a plain one: in step, every lane has written first.
__global__ void neighbour_after_volatile_write(int* words, int* seen) {
  int lane = threadIdx.x;
  volatile int* v = words;
  v[lane] = 3 * lane + 1;
  seen[lane] = words[(lane + 1) % 32];
}

int main() {
  int *data = nullptr, *sums = nullptr, *words = nullptr, *seen = nullptr;
  if (cudaMallocManaged(&data, kBlocks * kThreads * sizeof(int)) != cudaSuccess ||
      cudaMallocManaged(&sums, kBlocks * sizeof(int)) != cudaSuccess ||
      cudaMallocManaged(&words, 32 * sizeof(int)) != cudaSuccess ||
      cudaMallocManaged(&seen, 32 * sizeof(int)) != cudaSuccess) {
    std::printf("cudaMallocManaged failed\n");
    return 2;
  }
  int expected[kBlocks];
  for (int b = 0; b < kBlocks; ++b) {
    expected[b] = 0;
    for (int t = 0; t < kThreads; ++t) expected[b] += data[b * kThreads + t] = (b * 7 + t * 13) % 23 - 5;
  }
  int right_shared = 0, right_global = 0, right_seen = 0;
  last_warp_sum_shared<<<kBlocks, kThreads>>>(data, sums);
  cudaDeviceSynchronize();
  for (int b = 0; b < kBlocks; ++b) right_shared += sums[b] == expected[b];
  last_warp_sum_global<<<kBlocks, kThreads>>>(data, sums);
  cudaDeviceSynchronize();
  for (int b = 0; b < kBlocks; ++b) right_global += sums[b] == expected[b];
  neighbour_after_volatile_write<<<1, 32>>>(words, seen);
  cudaDeviceSynchronize();
  for (int lane = 0; lane < 32; ++lane) right_seen += seen[lane] == 3 * ((lane + 1) % 32) + 1;
  std::printf("shared memory: %d of %d sums right\n", right_shared, kBlocks);
  std::printf("global memory: %d of %d sums right\n", right_global, kBlocks);
  std::printf("neighbours' words seen after the write: %d of 32\n", right_seen);
  cudaFree(data);
  cudaFree(sums);
  cudaFree(words);
  cudaFree(seen);
  return right_shared == kBlocks && right_global == kBlocks && right_seen == 32 ? 0 : 1;
}

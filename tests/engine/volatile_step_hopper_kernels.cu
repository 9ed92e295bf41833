// Warp-synchronous code through `volatile` beside a thread that polls an mbarrier
// (test_volatile_steps.cpp): the poller must let the lanes at their steps go on to the arrival
// it waits for.
#include "hopper_ptx.cuh"

// 64 threads: the first warp sums its block's 64 values in place in global memory, lane 0
// writes the sum, and the warp arrives; thread 32 waits for the arrivals, polling, and writes
// the sum it then reads (sums[gridDim.x + block]).
__global__ void warp_sum_then_arrive(int* data, int* sums) {
  __shared__ alignas(8) uint64_t bar;
  int tid = threadIdx.x;
  int* mine = data + blockIdx.x * 64;
  if (tid == 0) mbarrier_init(shared_address(&bar), 32);
  __syncthreads();
  if (tid < 32) {
    volatile int* v = mine;
    for (int offset = 32; offset > 0; offset /= 2) v[tid] += v[tid + offset];
    if (tid == 0) sums[blockIdx.x] = v[0];
    mbarrier_arrive(shared_address(&bar));
  } else if (tid == 32) {
    mbarrier_wait(shared_address(&bar), 0);
    sums[gridDim.x + blockIdx.x] = mine[0];
  }
}

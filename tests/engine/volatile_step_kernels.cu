// Warp-synchronous code through `volatile` (cuda_cpu/volatile_step.h): test_volatile_steps.cpp
// checks that the lanes of a warp get what lockstep lanes get, in every thread order.
constexpr int kWarpSums = 64;  // values per block, summed by its first warp

// Each block sums its 64 values in place in global memory; thread 0 writes the sum.
__global__ void warp_sum_global(int* data, int* sums) {
  int* mine = data + blockIdx.x * kWarpSums;
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

// The same in shared memory, after a barrier (a race between lanes each step: the CPU backend
// reports it, and still sums as lockstep lanes do).
__global__ void warp_sum_shared(const int* data, int* sums) {
  __shared__ int partial[kWarpSums];
  int tid = threadIdx.x;
  partial[tid] = data[blockIdx.x * kWarpSums + tid];
  __syncthreads();
  if (tid < 32) {
    volatile int* v = partial;
    for (int offset = 32; offset > 0; offset /= 2) v[tid] += v[tid + offset];
  }
  if (tid == 0) sums[blockIdx.x] = partial[0];
}

// Lanes of each warp rotate their words through a volatile pointer: four rounds by one lane,
// all lanes; then four by two lanes, the even lanes alone (the odd ones have left the loop and
// wait at __syncwarp()). Then each reads its neighbour's word.
__global__ void warp_shift(int* words, int* seen) {
  int lane = threadIdx.x % 32, base = threadIdx.x - lane;
  volatile int* v = words + base;
  v[lane] = lane;
  int rounds = lane % 2 ? 4 : 8;
  for (int r = 0; r < rounds; ++r) {
    int next = v[(lane + (r < 4 ? 1 : 2)) % 32];
    v[lane] = next;
  }
  __syncwarp();
  seen[threadIdx.x] = words[base + (lane + 1) % 32];
}

// Every thread in turn takes a lock, adds one through a volatile pointer and lets it go: lanes
// that spin on the lock while its holder waits at a volatile step must let the holder go on
// (a deadlock before Volta; GPUs since run it to the end).
__global__ void count_under_lock(int* lock, int* counter) {
  for (bool done = false; !done;) {
    if (atomicCAS(lock, 0, 1) == 0) {
      volatile int* c = counter;
      *c = *c + 1;
      __threadfence();
      atomicExch(lock, 0);
      done = true;
    }
  }
}

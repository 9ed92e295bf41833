// A kernel parameter of a class with a destructor, passed by value, as a lock or a buffer's owner
// is: CUDA copies its bytes into the kernel's parameters and runs no constructor or destructor of
// it on the device, so the lock's mutex stays allocated while every thread takes the lock, and a
// thread that changes its parameter changes its own copy. The counts are checked in main.
#include <cstdio>

#include "include/expect.cuh"

static int destructions = 0;  // of Lock objects, in host code only (its destructor is __host__)

struct Lock {
  int* mutex = nullptr;
  int offset = 100;
  Lock() {
    cudaMalloc(&mutex, sizeof(int));
    cudaMemset(mutex, 0, sizeof(int));
  }
  ~Lock() {
    ++destructions;
    cudaFree(mutex);  // every copy frees it: the copies CUDA makes must not be destroyed per thread
  }
  __device__ void lock() {
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    __threadfence();
  }
  __device__ void unlock() {
    __threadfence();
    atomicExch(mutex, 0);
  }
};

__global__ void count_under_lock(Lock lock, int* total, int* seen) {
  if (threadIdx.x % 32 == 0) {  // one lane a warp: lanes of one warp spinning on each other could wait forever
    lock.lock();
    ++*total;
    lock.unlock();
  }
  lock.offset += threadIdx.x;  // this thread's copy only
  seen[threadIdx.x] = lock.offset;
}

int main() {
  int *total = nullptr, *seen = nullptr;
  EXPECT(cudaMallocManaged(&total, sizeof(int)) == cudaSuccess);
  EXPECT(cudaMallocManaged(&seen, 256 * sizeof(int)) == cudaSuccess);
  *total = 0;
  {
    Lock lock;
    count_under_lock<<<4, 256>>>(lock, total, seen);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    // The host's copies of the argument are destroyed in host code, a few at most; none per thread.
    EXPECT(destructions < 8);
    destructions = 0;
  }
  EXPECT(*total == 4 * 256 / 32);
  int wrong = 0;
  for (int t = 0; t < 256; ++t) wrong += seen[t] != 100 + t;
  EXPECT(wrong == 0);
  std::printf("class parameters: %d failed expectations\n", failures);
  cudaFree(total);
  cudaFree(seen);
  return failures == 0 ? 0 : 1;
}

// libcu++'s headers as programs use them: cuda::std's type traits, limits and arrays, and
// cuda::atomic with a thread scope, counted from every thread of a grid; cuda::std::atomic in
// pinned memory that a kernel releases and the host acquires. main checks each answer.
#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda_runtime.h>

#include <cstdio>

template <typename T>
__device__ T largest() {
  static_assert(cuda::std::is_arithmetic<T>::value, "numbers only");
  return cuda::std::numeric_limits<T>::max();
}

__global__ void count(cuda::atomic<int, cuda::thread_scope_device>* counter, int* largest_int,
                      cuda::std::atomic<int>* done) {
  counter->fetch_add(1, cuda::memory_order_relaxed);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    cuda::std::array<int, 3> three = {1, 2, 3};
    *largest_int = largest<int>() - three[2];
    done->store(1, cuda::memory_order_release);
  }
}

int main() {
  cuda::atomic<int, cuda::thread_scope_device>* counter = nullptr;
  int* largest_int = nullptr;
  cuda::std::atomic<int>* done = nullptr;
  if (cudaMalloc(&counter, sizeof *counter) != cudaSuccess || cudaMallocManaged(&largest_int, sizeof(int)) != cudaSuccess ||
      cudaMallocHost(&done, sizeof *done) != cudaSuccess)
    return 2;
  cudaMemset(counter, 0, sizeof *counter);
  done->store(0);
  count<<<4, 64>>>(counter, largest_int, done);
  cudaDeviceSynchronize();
  int counted = 0;
  cudaMemcpy(&counted, counter, sizeof counted, cudaMemcpyDeviceToHost);
  const int wrong = (counted != 256) + (*largest_int != 2147483644) + (done->load(cuda::memory_order_acquire) != 1);
  std::printf("counted %d, largest %d: %d wrong\n", counted, *largest_int, wrong);
  return wrong == 0 ? 0 : 1;
}

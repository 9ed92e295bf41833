// A whole program whose kernels the block-loop pass gives loop invokers of their own, though it
// launches them through their addresses (tests/models/test_execution_models.py): two kernels of
// one type, a template kernel taking a structure by value, a kernel launched by
// cudaLaunchKernel, and one that forgets a barrier. Both execution models must print the same.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                            \
  do {                                                                                         \
    cudaError_t status_ = (call);                                                              \
    if (status_ != cudaSuccess) {                                                              \
      std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status_));             \
      return 1;                                                                                \
    }                                                                                          \
  } while (0)

constexpr int kThreads = 64;

// Two kernels of one type: which one runs is the launch's to say.
__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[kThreads];
  partial[threadIdx.x] = in[blockIdx.x * kThreads + threadIdx.x];
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

__global__ void block_max(const int* in, int* out) {
  __shared__ int partial[kThreads];
  partial[threadIdx.x] = in[blockIdx.x * kThreads + threadIdx.x];
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] = max(partial[threadIdx.x], partial[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// 24 bytes: passed in memory, not in registers.
struct Window {
  int first, count, scale, unused[3];
};

// Reverses each block's window of the input, scaled, through shared memory.
template <int Threads>
__global__ void reverse_window(Window window, const int* in, int* out) {
  __shared__ int staged[Threads];
  int i = threadIdx.x;
  staged[i] = i < window.count ? in[window.first + blockIdx.x * Threads + i] * window.scale : 0;
  __syncthreads();
  out[blockIdx.x * Threads + i] = staged[Threads - 1 - i];
}

// Forgets the barrier between writing shared memory and reading a neighbour's word: a race
// the checks name, in either model.
__global__ void rotate_without_barrier(int* data) {
  __shared__ int staged[kThreads];
  staged[threadIdx.x] = data[threadIdx.x];
  data[threadIdx.x] = staged[(threadIdx.x + 1) % kThreads];
}

int main() {
  constexpr int blocks = 4, n = blocks * kThreads;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = (i * 37) % 101;
  int *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));

  int wrong = 0;
  int sums[blocks], maxima[blocks];
  block_sum<<<blocks, kThreads>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost));
  void* arguments[] = {&in, &out};
  CHECK(cudaLaunchKernel(block_max, dim3(blocks), dim3(kThreads), arguments, 0, nullptr));
  CHECK(cudaMemcpy(maxima, out, sizeof maxima, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    int sum = 0, biggest = 0;
    for (int t = 0; t < kThreads; ++t) {
      sum += host[b * kThreads + t];
      biggest = host[b * kThreads + t] > biggest ? host[b * kThreads + t] : biggest;
    }
    wrong += sums[b] != sum;
    wrong += maxima[b] != biggest;
    std::printf("block %d: sum %d, max %d\n", b, sums[b], maxima[b]);
  }

  Window window{0, kThreads, 3, {0, 0, 0}};
  reverse_window<kThreads><<<blocks, kThreads>>>(window, in, out);
  CHECK(cudaGetLastError());
  int reversed[n];
  CHECK(cudaMemcpy(reversed, out, sizeof reversed, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int b = i / kThreads, t = i % kThreads;
    wrong += reversed[i] != host[b * kThreads + kThreads - 1 - t] * 3;
  }

  rotate_without_barrier<<<1, kThreads>>>(out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("%d wrong\n", wrong);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return wrong == 0 ? 0 : 1;
}

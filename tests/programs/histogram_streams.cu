// A whole program for `checker/run`: scales two halves of a vector on two streams with
// weights from __constant__ memory, counts them into a histogram with a templated kernel and
// shared-memory atomics, times it with events, and checks every value on the host. It is the
// same file on the CPU backend and on a GPU (tests/programs/test_programs.py).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t e = (call);                                                               \
    if (e != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

__constant__ float weights[4];
__device__ int launches_seen;

__global__ void weigh(const int* in, float* out, int n, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * weights[(offset + i) % 4];
}

template <int BINS>
__global__ void histogram(const float* values, int n, unsigned* bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int b = static_cast<int>(values[i]) % BINS;
    atomicAdd(&local[b], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
  if (blockIdx.x == 0 && threadIdx.x == 0) launches_seen = 1;
}

int main() {
  const int n = 3000, half = n / 2;
  const float host_weights[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  CHECK(cudaMemcpyToSymbol(weights, host_weights, sizeof host_weights));
  float back[4];
  CHECK(cudaMemcpyFromSymbol(back, weights, sizeof back));
  if (back[3] != 4.0f) return std::printf("cudaMemcpyFromSymbol read %g\n", back[3]), 1;

  int* in = nullptr;
  CHECK(cudaMallocHost(&in, n * sizeof(int)));
  for (int i = 0; i < n; ++i) in[i] = i % 7;

  int* d_in;
  float* d_out;
  unsigned* d_bins;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_bins, 16 * sizeof(unsigned)));
  CHECK(cudaMemset(d_bins, 0, 16 * sizeof(unsigned)));

  cudaStream_t streams[2];
  cudaEvent_t start, stop;
  for (cudaStream_t& s : streams) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, streams[0]));
  for (int h = 0; h < 2; ++h) {
    int offset = h * half;
    CHECK(cudaMemcpyAsync(d_in + offset, in + offset, half * sizeof(int), cudaMemcpyHostToDevice, streams[h]));
    weigh<<<(half + 255) / 256, dim3(256), 0, streams[h]>>>(d_in + offset, d_out + offset, half,
                                                            /* offset = */ offset);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaStreamSynchronize(streams[1]));
  cudaEvent_t second_done;
  CHECK(cudaEventCreateWithFlags(&second_done, cudaEventDisableTiming));
  CHECK(cudaEventRecord(second_done, streams[1]));
  CHECK(cudaStreamWaitEvent(streams[0], second_done, 0));
  histogram<16><<<4, 128, 0, streams[0]>>>(d_out, n, d_bins);
  CHECK(cudaPeekAtLastError());
  CHECK(cudaEventRecord(stop, streams[0]));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));

  std::vector<float> out(n);
  unsigned bins[16];
  int seen = 0;
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDefault));
  CHECK(cudaMemcpy(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpyFromSymbol(&seen, launches_seen, sizeof seen));

  unsigned expected_bins[16] = {};
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    float want = in[i] * host_weights[i % 4];
    wrong += out[i] != want;
    ++expected_bins[static_cast<int>(want) % 16];
  }
  for (int b = 0; b < 16; ++b) wrong += bins[b] != expected_bins[b];
  std::printf("weighed %d values into 16 bins in %s ms; %d wrong\n", n, ms >= 0 ? "some" : "no", wrong);
  std::printf("the histogram kernel %s its __device__ flag\n", seen ? "set" : "did not set");

  for (cudaStream_t s : streams) CHECK(cudaStreamDestroy(s));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(second_done));
  CHECK(cudaFreeHost(in));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_bins));
  return wrong == 0 && seen == 1 ? 0 : 1;
}

// A program with a bug: the guard lets the last thread write one element past the end of
// out. On a GPU it usually runs without a word; the CPU backend stops the write and names it.
#include <cstdio>

__global__ void square(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = in[i < n ? i : 0] * in[i < n ? i : 0];
}

int main() {
  const int n = 100;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  square<<<1, 128>>>(in, out, n);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("square: %s\n", cudaGetErrorString(e));
  cudaFree(in);
  cudaFree(out);
  return 0;
}

// Host code only: allocates, copies, calls the .cu files' functions and checks the answers.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "vector_ops.cuh"

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  float *dx = nullptr, *dy = nullptr;
  unsigned long long* dout = nullptr;
  if (cudaMalloc(&dx, n * sizeof(float)) != cudaSuccess || cudaMalloc(&dy, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dout, 10 * sizeof(unsigned long long)) != cudaSuccess) {
    std::printf("cudaMalloc failed\n");
    return 2;
  }
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (saxpy_on_device(2.0f, dx, dy, n) != 0 || integer_intrinsics_on_device(dout, 10) != 0) {
    std::printf("a launch failed\n");
    return 2;
  }
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  unsigned long long got[10];
  cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);

  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += y[i] != 2.0f * i + 1.0f;
  // As CUDA's math API documents each intrinsic.
  const unsigned long long expected[10] = {8, 9, 0x00112233, 0x18, 0x18000000, 1ULL << 63, 2, 12, 7, 3};
  for (int i = 0; i < 10; ++i)
    if (got[i] != expected[i]) {
      std::printf("intrinsic %d: %llu, expected %llu\n", i, got[i], expected[i]);
      ++wrong;
    }
  std::printf("saxpy and 10 integer intrinsics: %d wrong\n", wrong);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dout);
  return wrong == 0 ? 0 : 1;
}

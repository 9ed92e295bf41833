// Kernels with default arguments, launched with fewer arguments than they have parameters, as
// nvcc allows: the launch passes the defaults its declaration gives. Checked by main
// (tests/programs/test_programs.py).
#include <cstdio>

#include "include/expect.cuh"

// Defaults in the definition; the last one a null pointer, as programs often write it.
__global__ void scale(float* x, int n, float factor = 2.0f, const float* offsets = NULL) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * factor + (offsets ? offsets[i] : 0.0f);
}

// Defaults in a declaration, the definition later without them.
__global__ void __launch_bounds__(128) fill(int* out, int n, int value = 7, int stride = 1);

__global__ void fill(int* out, int n, int value, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i * stride < n) out[i * stride] = value;
}

// A template kernel. (A default that names T, such as T(3), means something only inside the
// template: the CPU backend does not fill it in, and says so when a launch leaves it out.)
template <typename T>
__global__ void set_all(T* out, int n, T value = 3) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

// A comparison inside a default's parentheses is not a template argument list.
__global__ void flag(int* out, int when = (1 < 2), int otherwise = 0) { *out = when ? 1 : otherwise; }

int main() {
  const int n = 64;
  float *x, *offsets;
  int *ints, *one;
  double* doubles;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&offsets, n * sizeof(float));
  cudaMallocManaged(&ints, n * sizeof(int));
  cudaMallocManaged(&doubles, n * sizeof(double));
  cudaMallocManaged(&one, sizeof(int));
  for (int i = 0; i < n; ++i) x[i] = 1.0f, offsets[i] = 0.5f;

  scale<<<2, 32>>>(x, n);  // factor 2, no offsets
  cudaDeviceSynchronize();
  EXPECT(x[0] == 2.0f && x[n - 1] == 2.0f);
  scale<<<2, 32>>>(x, n, 3.0f, NULL);  // NULL given
  cudaDeviceSynchronize();
  EXPECT(x[5] == 6.0f);
  scale<<<2, 32>>>(x, n, 1.0f, offsets);  // every argument given
  cudaDeviceSynchronize();
  EXPECT(x[5] == 6.5f);

  fill<<<1, 64>>>(ints, n);  // value 7, stride 1
  cudaDeviceSynchronize();
  EXPECT(ints[0] == 7 && ints[n - 1] == 7);
  fill<<<1, 32>>>(ints, n, 9, 2);
  cudaDeviceSynchronize();
  EXPECT(ints[0] == 9 && ints[1] == 7 && ints[62] == 9);

  set_all<double><<<1, 64>>>(doubles, n);
  cudaDeviceSynchronize();
  EXPECT(doubles[0] == 3.0 && doubles[n - 1] == 3.0);
  set_all<<<1, 64>>>(doubles, n, 0.25);
  cudaDeviceSynchronize();
  EXPECT(doubles[10] == 0.25);

  flag<<<1, 1>>>(one);
  cudaDeviceSynchronize();
  EXPECT(*one == 1);

  cudaError_t error = cudaGetLastError();
  EXPECT(error == cudaSuccess);
  std::printf("default arguments: %d failed expectations\n", failures);
  cudaFree(x);
  cudaFree(offsets);
  cudaFree(ints);
  cudaFree(doubles);
  cudaFree(one);
  return failures == 0 ? 0 : 1;
}

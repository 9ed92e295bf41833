// saxpy over a grid of blocks, calling scaled() from device_math.cu.
#include "vector_ops.cuh"

__global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef PLANT_BUG
  if (i <= n) y[i] = scaled(a, x[i]) + y[i];  // one element past the end
#else
  if (i < n) y[i] = scaled(a, x[i]) + y[i];
#endif
}

int saxpy_on_device(float a, const float* x, float* y, int n) {
  saxpy<<<(n + 127) / 128, 128>>>(a, x, y, n);
  return static_cast<int>(cudaDeviceSynchronize());
}

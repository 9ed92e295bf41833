// A kernel with a barrier whose code differs between nvcc's passes (tests/models): the
// program must run the device pass's code, on either execution model.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void pass_of_each_thread(int* out) {
  __shared__ int seen[32];
#ifdef __CUDA_ARCH__
  seen[threadIdx.x] = __CUDA_ARCH__;
#else
  seen[threadIdx.x] = -1;  // the host pass's copy of the kernel, which never runs on a GPU
#endif
  __syncthreads();
  out[threadIdx.x] = seen[(threadIdx.x + 1) % 32];
}

int main() {
  int* out;
  if (cudaMallocManaged(&out, 32 * sizeof(int)) != cudaSuccess) return 1;
  pass_of_each_thread<<<1, 32>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  const int arch = out[0];
  std::printf("arch %d\n", arch);
  cudaFree(out);
  return arch > 0 ? 0 : 1;
}

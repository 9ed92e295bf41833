// A kernel that launches a kernel (dynamic parallelism), which the CPU backend does not model.
#include <cstdio>

__global__ void child(int* out) { out[threadIdx.x] = 1; }

__global__ void parent(int* out) {
  if (threadIdx.x == 0) child<<<1, 4>>>(out);
}

int main() {
  int* out;
  cudaMalloc(&out, 4 * sizeof(int));
  std::printf("before the launch\n");
  parent<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  std::printf("after the launch\n");
  return 0;
}

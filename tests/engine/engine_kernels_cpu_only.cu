// Kernels that nvcc refuses to compile (ptxas: "uses too much shared data"). The CPU
// backend must refuse them at launch, with the same limit.
__global__ void too_much_shared(float* out) {
  __shared__ float big[16384];  // 64 KiB
  big[threadIdx.x] = 1.f;
  __syncthreads();
  out[threadIdx.x] = big[(threadIdx.x + 1) % blockDim.x];
}

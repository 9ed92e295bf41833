// Broken on purpose: the naive kernel pasted into the tiled puzzle. The values are right.
// Expected finding: too many global loads.
__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

// Checker: --size=33
// Expect: Too many global loads: thread (0,0) of block (0,0) read global memory 66 times; this puzzle allows 6
// Needs: instrumented kernels

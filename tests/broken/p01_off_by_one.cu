// Broken on purpose: k runs one past the end of the row (k <= n).
// Expected finding: out-of-bounds read of b, past its last element.
__global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k <= n; ++k) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

// Checker: --size=16
// Expect: Out-of-bounds read: thread (0,0) of block (0,0) read b[16]
// Expect: at line 8 of p01_off_by_one.cu
// Expect: but b has 16 elements
// Needs: instrumented kernels

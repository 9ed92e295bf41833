// Puzzle 1: naive matrix multiplication
//
// Computes c = a · b for n × n row-major float matrices, one thread per element of c.
//
// Launch: blocks of 16 × 16 threads; a grid of ceil(n / 16) × ceil(n / 16) blocks.
//   threadIdx.x / blockIdx.x walk the columns, threadIdx.y / blockIdx.y the rows.
//   n need not be a multiple of 16, so some threads fall outside the matrix.
// Doc: docs/p01_naive.md

__global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

// Puzzle 1: naive matrix multiplication
//
// Computes c = a · b for n × n row-major float matrices, one thread per element of c.
//
// Launch: blocks of 16 × 16 threads; a grid of ceil(n / 16) × ceil(n / 16) blocks.
//   threadIdx.x / blockIdx.x walk the columns, threadIdx.y / blockIdx.y the rows.
//   n need not be a multiple of 16, so some threads fall outside the matrix.
// Doc: docs/p01_naive.md

__global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
  // FILL ME IN (roughly 7 lines)
  // Work out this thread's row and column, and compute c[row][col] if both are inside
  // the matrix: a sum over k of a[row][k] * b[k][col]. Row-major: a[row][k] is a[row * n + k].
}

// Broken on purpose: the barrier is inside the guard, so the threads outside the matrix
// never reach it. Expected finding: barrier divergence, naming both groups.
constexpr int TPB = 3;

__global__ void single_block_matmul(float* out, const float* a, const float* b, int size) {
  __shared__ float a_shared[TPB][TPB];
  __shared__ float b_shared[TPB][TPB];
  int row = threadIdx.y, col = threadIdx.x;
  if (row < size && col < size) {
    a_shared[row][col] = a[row * size + col];
    b_shared[row][col] = b[row * size + col];
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < size; ++k) sum += a_shared[row][k] * b_shared[k][col];
    out[row * size + col] = sum;
  }
}

// Checker: (no options)
// Expect: Barrier divergence in block (0,0): 4 threads ((0,0), (1,0), (0,1), (1,1)) wait at __syncthreads() at line 12 of p05_barrier_in_if.cu, while 5 threads ((2,0), (2,1), (0,2), (1,2), (2,2)) have returned.

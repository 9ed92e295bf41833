// Broken on purpose: no barrier between the shared stores and the loads of other threads'
// elements. Expected finding: shared-memory race.
constexpr int TPB = 3;

__global__ void single_block_matmul(float* out, const float* a, const float* b, int size) {
  __shared__ float a_shared[TPB][TPB];
  __shared__ float b_shared[TPB][TPB];
  int row = threadIdx.y, col = threadIdx.x;
  if (row < size && col < size) {
    a_shared[row][col] = a[row * size + col];
    b_shared[row][col] = b[row * size + col];
    float sum = 0.0f;
    for (int k = 0; k < size; ++k) sum += a_shared[row][k] * b_shared[k][col];
    out[row * size + col] = sum;
  }
}

// Checker: (no options)
// Expect: Shared-memory race: in block (0,0), a_shared[0][0] was written by thread (0,0) at line 10 of p05_missing_barrier.cu and read by thread (1,0) at line 13
// Needs: instrumented kernels

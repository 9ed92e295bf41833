// Broken on purpose: the barrier sits inside the bounds guard, so at the edge of the
// matrix some threads return while the others wait. Expected finding: barrier divergence.
constexpr int TILE = 16;
constexpr int MAX_N = 256;

__global__ void matmul_row_col_shared(const float* a, const float* b, float* c, int n) {
  __shared__ float a_rows[TILE][MAX_N];
  __shared__ float b_cols[MAX_N][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  if (row < n && col < n) {
    for (int k = threadIdx.x; k < n; k += TILE) a_rows[threadIdx.y][k] = a[row * n + k];
    for (int k = threadIdx.y; k < n; k += TILE) b_cols[k][threadIdx.x] = b[k * n + col];
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += a_rows[threadIdx.y][k] * b_cols[k][threadIdx.x];
    c[row * n + col] = sum;
  }
}

// Checker: --size=20
// Expect: Barrier divergence in block (1,0): 
// Expect: wait at __syncthreads() at line 13 of p03_barrier_in_if.cu
// Expect: have returned
// Expect: The block was stopped.

// Broken on purpose: the textbook slip of indexing as if the matrix were one tile wide
// (threadIdx instead of the global row and column), right only when n == 16.
// Expected finding: wrong values.
constexpr int TILE = 16;
constexpr int MAX_N = 256;

__global__ void matmul_row_col_shared(const float* a, const float* b, float* c, int n) {
  __shared__ float a_rows[TILE][MAX_N];
  __shared__ float b_cols[MAX_N][TILE];
  int ty = threadIdx.y, tx = threadIdx.x;
  for (int k = tx; k < n; k += TILE) a_rows[ty][k] = ty < n ? a[ty * n + k] : 0.0f;
  for (int k = ty; k < n; k += TILE) b_cols[k][tx] = tx < n ? b[k * n + tx] : 0.0f;
  __syncthreads();
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += a_rows[ty][k] * b_cols[k][tx];
    c[row * n + col] = sum;
  }
}

// Checker: --size=50
// Expect: Wrong values: 
// Expect: (row 0, col 16): expected

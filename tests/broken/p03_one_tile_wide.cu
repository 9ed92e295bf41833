// Broken on purpose: the textbook slip of indexing as if the matrix were one tile wide
// (threadIdx instead of the global row and column), right only when n == 16.
// Expected finding: wrong values.
//
// Checker: --size=50
// Expect: Wrong values: 
// Expect: (row 0, col 16): expected
//
// Change to solutions/p03_row_col_shared.cu:
// --- solutions/p03_row_col_shared.cu
// +++ p03_one_tile_wide.cu
// @@ -17,22 +17,14 @@
//  __global__ void matmul_row_col_shared(const float* a, const float* b, float* c, int n) {
//    __shared__ float a_rows[TILE][MAX_N];
//    __shared__ float b_cols[MAX_N][TILE];
// -  int first_row = blockIdx.y * TILE, first_col = blockIdx.x * TILE;
// -  int t = threadIdx.y * TILE + threadIdx.x;
// -  // Consecutive threads take consecutive elements, so each warp reads a contiguous run.
// -  for (int i = t; i < TILE * n; i += TILE * TILE) {
// -    int r = i / n, k = i % n;
// -    a_rows[r][k] = first_row + r < n ? a[(first_row + r) * n + k] : 0.0f;
// -  }
// -  for (int i = t; i < n * TILE; i += TILE * TILE) {
// -    int k = i / TILE, j = i % TILE;
// -    b_cols[k][j] = first_col + j < n ? b[k * n + first_col + j] : 0.0f;
// -  }
// +  int ty = threadIdx.y, tx = threadIdx.x;
// +  for (int k = tx; k < n; k += TILE) a_rows[ty][k] = ty < n ? a[ty * n + k] : 0.0f;
// +  for (int k = ty; k < n; k += TILE) b_cols[k][tx] = tx < n ? b[k * n + tx] : 0.0f;
//    __syncthreads();
// -  int row = first_row + threadIdx.y, col = first_col + threadIdx.x;
// +  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
//    if (row < n && col < n) {
//      float sum = 0.0f;
// -    for (int k = 0; k < n; ++k) sum += a_rows[threadIdx.y][k] * b_cols[k][threadIdx.x];
// +    for (int k = 0; k < n; ++k) sum += a_rows[ty][k] * b_cols[k][tx];
//      c[row * n + col] = sum;
//    }
//  }

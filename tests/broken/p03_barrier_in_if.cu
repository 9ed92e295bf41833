// Broken on purpose: the barrier sits inside the bounds guard, so at the edge of the
// matrix some threads return while the others wait. Expected finding: barrier divergence.
//
// Checker: --size=20
// Expect: Barrier divergence in block (1,0): 
// Expect: wait at __syncthreads() at line 24 of p03_barrier_in_if.cu
// Expect: have returned
// Expect: The block was stopped.
//
// Change to solutions/p03_row_col_shared.cu:
// --- solutions/p03_row_col_shared.cu
// +++ p03_barrier_in_if.cu
// @@ -17,20 +17,11 @@
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
// -  __syncthreads();
// -  int row = first_row + threadIdx.y, col = first_col + threadIdx.x;
// +  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
//    if (row < n && col < n) {
// +    for (int k = threadIdx.x; k < n; k += TILE) a_rows[threadIdx.y][k] = a[row * n + k];
// +    for (int k = threadIdx.y; k < n; k += TILE) b_cols[k][threadIdx.x] = b[k * n + col];
// +    __syncthreads();
//      float sum = 0.0f;
//      for (int k = 0; k < n; ++k) sum += a_rows[threadIdx.y][k] * b_cols[k][threadIdx.x];
//      c[row * n + col] = sum;

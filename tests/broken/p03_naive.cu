// Broken on purpose: the naive kernel pasted into a shared-memory puzzle. The values are
// right. Expected finding: too many global loads.
//
// Checker: --size=50
// Expect: Too many global loads: thread (0,0) of block (0,0) read global memory 100 times; this puzzle allows 8
// Needs: instrumented kernels
//
// Change to solutions/p03_row_col_shared.cu:
// --- solutions/p03_row_col_shared.cu
// +++ p03_naive.cu
// @@ -11,28 +11,12 @@
//  // Constants: TILE = 16; MAX_N = 256 sizes the shared arrays (2 × 16 × 256 × 4 B = 32 KiB).
//  // Doc: docs/p03_row_col_shared.md
//
// -constexpr int TILE = 16;
// -constexpr int MAX_N = 256;
// -
//  __global__ void matmul_row_col_shared(const float* a, const float* b, float* c, int n) {
// -  __shared__ float a_rows[TILE][MAX_N];
// -  __shared__ float b_cols[MAX_N][TILE];
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
// +  int row = blockIdx.y * blockDim.y + threadIdx.y;
// +  int col = blockIdx.x * blockDim.x + threadIdx.x;
//    if (row < n && col < n) {
//      float sum = 0.0f;
// -    for (int k = 0; k < n; ++k) sum += a_rows[threadIdx.y][k] * b_cols[k][threadIdx.x];
// +    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
//      c[row * n + col] = sum;
//    }
//  }

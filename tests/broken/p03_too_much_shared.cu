// Broken on purpose: MAX_N = 512 asks for 2 x 16 x 512 x 4 B = 64 KiB of shared memory,
// over the 48 KiB a block may have. (nvcc refuses to compile it; the CPU backend refuses
// to launch it.) Expected finding: the launch is refused with the sizes.
//
// Checker: (no options)
// Expect: The launch was refused: too much shared data: matmul_row_col_shared declares 65536 bytes of __shared__ memory; the limit is 49152 bytes (48 KiB) per block.
// Build: CPU backend only (nvcc refuses it, as it should)
//
// Change to solutions/p03_row_col_shared.cu:
// --- solutions/p03_row_col_shared.cu
// +++ p03_too_much_shared.cu
// @@ -12,24 +12,15 @@
//  // Doc: docs/p03_row_col_shared.md
//
//  constexpr int TILE = 16;
// -constexpr int MAX_N = 256;
// +constexpr int MAX_N = 512;
//
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
// +  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
// +  for (int k = threadIdx.x; k < n; k += TILE) a_rows[threadIdx.y][k] = row < n ? a[row * n + k] : 0.0f;
// +  for (int k = threadIdx.y; k < n; k += TILE) b_cols[k][threadIdx.x] = col < n ? b[k * n + col] : 0.0f;
//    __syncthreads();
// -  int row = first_row + threadIdx.y, col = first_col + threadIdx.x;
//    if (row < n && col < n) {
//      float sum = 0.0f;
//      for (int k = 0; k < n; ++k) sum += a_rows[threadIdx.y][k] * b_cols[k][threadIdx.x];

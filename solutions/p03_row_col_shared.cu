// Puzzle 3: TILE rows of A and TILE columns of B in shared memory
//
// Computes c = a · b for n × n row-major float matrices. Each block computes one
// TILE × TILE block of c, so it needs TILE whole rows of a and TILE whole columns of b.
//
// Launch: blocks of TILE × TILE threads; a grid of ceil(n / TILE) × ceil(n / TILE) blocks.
//   1. All threads of the block copy the TILE rows of a (a_rows) and the TILE columns
//      of b (b_cols) into shared memory, writing 0 where a row or column is past n.
//   2. Barrier.
//   3. Each thread computes its element of c from shared memory only.
// Constants: TILE = 16; MAX_N = 256 sizes the shared arrays (2 × 16 × 256 × 4 B = 32 KiB).
// Doc: docs/p03_row_col_shared.md

constexpr int TILE = 16;
constexpr int MAX_N = 256;

__global__ void matmul_row_col_shared(const float* a, const float* b, float* c, int n) {
  __shared__ float a_rows[TILE][MAX_N];
  __shared__ float b_cols[MAX_N][TILE];
  int first_row = blockIdx.y * TILE, first_col = blockIdx.x * TILE;
  int t = threadIdx.y * TILE + threadIdx.x;
  // Consecutive threads take consecutive elements, so each warp reads a contiguous run.
  for (int i = t; i < TILE * n; i += TILE * TILE) {
    int r = i / n, k = i % n;
    a_rows[r][k] = first_row + r < n ? a[(first_row + r) * n + k] : 0.0f;
  }
  for (int i = t; i < n * TILE; i += TILE * TILE) {
    int k = i / TILE, j = i % TILE;
    b_cols[k][j] = first_col + j < n ? b[k * n + first_col + j] : 0.0f;
  }
  __syncthreads();
  int row = first_row + threadIdx.y, col = first_col + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += a_rows[threadIdx.y][k] * b_cols[k][threadIdx.x];
    c[row * n + col] = sum;
  }
}

// Puzzle 4: tiled matrix multiplication
//
// Computes c = a · b for n × n row-major float matrices, for any n. Each block computes
// one TILE × TILE block of c by stepping a pair of TILE × TILE tiles along k.
//
// Launch: blocks of TILE × TILE threads; a grid of ceil(n / TILE) × ceil(n / TILE) blocks.
//   For each step along k:
//     1. every thread loads one element of the a tile and one of the b tile
//        (0 where the tile hangs over the edge of the matrix);
//     2. barrier: the tiles are complete;
//     3. every thread adds TILE products from the tiles to its sum;
//     4. barrier: nobody still reads the tiles when the next step overwrites them.
// Constants: TILE = 16.
// Doc: docs/p04_tiled.md

constexpr int TILE = 16;

__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int step = 0; step < (n + TILE - 1) / TILE; ++step) {
    int a_col = step * TILE + tx, b_row = step * TILE + ty;
    a_tile[ty][tx] = row < n && a_col < n ? a[row * n + a_col] : 0.0f;
    b_tile[ty][tx] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

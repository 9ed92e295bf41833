// Broken on purpose: no barrier before the next step overwrites the tiles, so a fast thread
// overwrites elements that slower threads still read. Expected finding: shared-memory race
// (a write after another thread's read).
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
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

// Checker: --size=17
// Expect: Shared-memory race: in block (0,0), a_tile[0][0] was read by thread (15,0) at line 17 of p04_missing_second_barrier.cu and written by thread (0,0) at line 14
// Expect: in a loop, another between the last read and the next overwrite
// Needs: instrumented kernels

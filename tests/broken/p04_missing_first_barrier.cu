// Broken on purpose: no barrier between loading the tiles and using them, so threads read
// elements that others have not loaded yet. Expected finding: shared-memory race
// (a read after another thread's write).
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
    for (int k = 0; k < TILE; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

// Checker: --size=16
// Expect: Shared-memory race: in block (0,0), a_tile[0][0] was written by thread (0,0) at line 14 of p04_missing_first_barrier.cu and read by thread (1,0) at line 16
// Expect: a __syncthreads() between writing shared memory and reading what other threads wrote
// Needs: instrumented kernels

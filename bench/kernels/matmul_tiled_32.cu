// The tiled kernel of puzzle 4 with 32 x 32 tiles (1024 threads per block), for the
// benchmark only: does a bigger tile pay on a real GPU?
constexpr int TILE = 32;

__global__ void matmul_tiled_32(const float* a, const float* b, float* c, int n) {
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

// Broken on purpose: the tiles are loaded without checking the edge of the matrix, so
// when n is not a multiple of 16 threads read past it. Expected finding: out-of-bounds read.
constexpr int TILE = 16;

__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int step = 0; step < (n + TILE - 1) / TILE; ++step) {
    a_tile[ty][tx] = a[row * n + step * TILE + tx];
    b_tile[ty][tx] = b[(step * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

// Checker: --size=17
// Expect: Out-of-bounds read: thread (12,1) of block (0,0) read a[16] at line 12 of p04_no_padding.cu
// Expect: load 0 for those elements
// Needs: instrumented kernels

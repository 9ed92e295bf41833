// Broken on purpose: the naive kernel pasted into the tiled puzzle. The values are right.
// Expected finding: too many global loads.
//
// Checker: --size=33
// Expect: Too many global loads: thread (0,0) of block (0,0) read global memory 66 times; this puzzle allows 6
// Needs: instrumented kernels
//
// Change to solutions/p04_tiled.cu:
// --- solutions/p04_tiled.cu
// +++ p04_naive.cu
// @@ -13,21 +13,12 @@
//  // Constants: TILE = 16.
//  // Doc: docs/p04_tiled.md
//
// -constexpr int TILE = 16;
// -
//  __global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
// -  __shared__ float a_tile[TILE][TILE];
// -  __shared__ float b_tile[TILE][TILE];
// -  int tx = threadIdx.x, ty = threadIdx.y;
// -  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
// -  float sum = 0.0f;
// -  for (int step = 0; step < (n + TILE - 1) / TILE; ++step) {
// -    int a_col = step * TILE + tx, b_row = step * TILE + ty;
// -    a_tile[ty][tx] = row < n && a_col < n ? a[row * n + a_col] : 0.0f;
// -    b_tile[ty][tx] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
// -    __syncthreads();
// -    for (int k = 0; k < TILE; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
// -    __syncthreads();
// +  int row = blockIdx.y * blockDim.y + threadIdx.y;
// +  int col = blockIdx.x * blockDim.x + threadIdx.x;
// +  if (row < n && col < n) {
// +    float sum = 0.0f;
// +    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
// +    c[row * n + col] = sum;
//    }
// -  if (row < n && col < n) c[row * n + col] = sum;
//  }

// Broken on purpose: every thread reads its values of a and b straight from global memory at
// each k, with no shared tiles: the values are right, but each value is loaded by 16 threads
// instead of once per block. Expected finding: too many global loads.
//
// Checker: (no options)
// Expect: Too many global loads
// Needs: instrumented kernels
//
// Change to solutions/p06_register_tiling.cu:
// --- solutions/p06_register_tiling.cu
// +++ p06_no_register_reuse.cu
// @@ -30,39 +30,25 @@
//  // SM and one of them computes while the other waits at a barrier.
//  __global__ void __launch_bounds__(THREADS, 2)
//  matmul_relu_register_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
// -  __shared__ float a_tile[BM][BK];
// -  __shared__ float b_tile[BK][BN];
//    const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
//    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
//    float sum[TM][TN] = {};
//    float a_reg[TM], b_reg[TN];
// -  for (int k0 = 0; k0 < k; k0 += BK) {
// -    // Consecutive threads take consecutive elements of a row: coalesced global reads.
// +  for (int kk = 0; kk < k; ++kk) {
//  #pragma unroll
// -    for (int l = 0; l < BM * BK / THREADS; ++l) {
// -      int e = threadIdx.x + l * THREADS, r = e / BK, kk = e % BK;
// -      a_tile[r][kk] = row0 + r < m && k0 + kk < k ? a[(row0 + r) * k + k0 + kk] : 0.0f;
// +    for (int i = 0; i < TM; ++i) {
// +      int row = row0 + ty + i * (BM / TM);
// +      a_reg[i] = row < m ? a[row * k + kk] : 0.0f;
//      }
//  #pragma unroll
// -    for (int l = 0; l < BK * BN / THREADS; ++l) {
// -      int e = threadIdx.x + l * THREADS, kk = e / BN, cc = e % BN;
// -      b_tile[kk][cc] = k0 + kk < k && col0 + cc < n ? b[(k0 + kk) * n + col0 + cc] : 0.0f;
// +    for (int j = 0; j < TN; ++j) {
// +      int col = col0 + tx + j * (BN / TN);
// +      b_reg[j] = col < n ? b[kk * n + col] : 0.0f;
//      }
// -    __syncthreads();
//  #pragma unroll
// -    for (int kk = 0; kk < BK; ++kk) {
// -      // Strided rows and columns: a warp reads 16 neighbouring words of b_tile and 2 of
// -      // a_tile (each a broadcast), so no two threads wait for the same bank.
// +    for (int i = 0; i < TM; ++i)
//  #pragma unroll
// -      for (int i = 0; i < TM; ++i) a_reg[i] = a_tile[ty + i * (BM / TM)][kk];
// -#pragma unroll
// -      for (int j = 0; j < TN; ++j) b_reg[j] = b_tile[kk][tx + j * (BN / TN)];
// -#pragma unroll
// -      for (int i = 0; i < TM; ++i)
// -#pragma unroll
// -        for (int j = 0; j < TN; ++j) sum[i][j] += a_reg[i] * b_reg[j];
// -    }
// -    __syncthreads();
// +      for (int j = 0; j < TN; ++j) sum[i][j] += a_reg[i] * b_reg[j];
//    }
//  #pragma unroll
//    for (int i = 0; i < TM; ++i) {

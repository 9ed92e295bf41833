// Broken on purpose: the tiles are loaded without checking the edge of the matrix, so
// when n is not a multiple of 16 threads read past it. Expected finding: out-of-bounds read.
//
// Checker: --size=17
// Expect: Out-of-bounds read: thread (12,1) of block (0,0) read a[16] at line 25 of p04_no_padding.cu
// Expect: load 0 for those elements
// Needs: instrumented kernels
//
// Change to solutions/p04_tiled.cu:
// --- solutions/p04_tiled.cu
// +++ p04_no_padding.cu
// @@ -22,9 +22,8 @@
//    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
//    float sum = 0.0f;
//    for (int step = 0; step < (n + TILE - 1) / TILE; ++step) {
// -    int a_col = step * TILE + tx, b_row = step * TILE + ty;
// -    a_tile[ty][tx] = row < n && a_col < n ? a[row * n + a_col] : 0.0f;
// -    b_tile[ty][tx] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
// +    a_tile[ty][tx] = a[row * n + step * TILE + tx];
// +    b_tile[ty][tx] = b[(step * TILE + ty) * n + col];
//      __syncthreads();
//      for (int k = 0; k < TILE; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
//      __syncthreads();

// Broken on purpose: threads outside the matrix return at once, so they never reach the
// barriers that the others wait at. Expected finding: barrier divergence.
//
// Checker: --size=17
// Expect: Barrier divergence in block (1,0): 16 threads ((0,0), (0,1), (0,2)
// Expect: have returned
// Expect: do not return early
//
// Change to solutions/p04_tiled.cu:
// --- solutions/p04_tiled.cu
// +++ p04_early_return.cu
// @@ -21,13 +21,14 @@
//    int tx = threadIdx.x, ty = threadIdx.y;
//    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
//    float sum = 0.0f;
// +  if (row >= n || col >= n) return;
//    for (int step = 0; step < (n + TILE - 1) / TILE; ++step) {
//      int a_col = step * TILE + tx, b_row = step * TILE + ty;
// -    a_tile[ty][tx] = row < n && a_col < n ? a[row * n + a_col] : 0.0f;
// -    b_tile[ty][tx] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
// +    a_tile[ty][tx] = a_col < n ? a[row * n + a_col] : 0.0f;
// +    b_tile[ty][tx] = b_row < n ? b[b_row * n + col] : 0.0f;
//      __syncthreads();
//      for (int k = 0; k < TILE; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
//      __syncthreads();
//    }
// -  if (row < n && col < n) c[row * n + col] = sum;
// +  c[row * n + col] = sum;
//  }

// Broken on purpose: no barrier between loading the tiles and using them, so threads read
// elements that others have not loaded yet. Expected finding: shared-memory race
// (a read after another thread's write).
//
// Checker: --size=16
// Expect: Shared-memory race: in block (0,0), a_tile[0][0] was written by thread (0,0) at line 26 of p04_missing_first_barrier.cu and read by thread (1,0) at line 28
// Expect: a __syncthreads() between writing shared memory and reading what other threads wrote
// Needs: instrumented kernels
//
// Change to solutions/p04_tiled.cu:
// --- solutions/p04_tiled.cu
// +++ p04_missing_first_barrier.cu
// @@ -25,7 +25,6 @@
//      int a_col = step * TILE + tx, b_row = step * TILE + ty;
//      a_tile[ty][tx] = row < n && a_col < n ? a[row * n + a_col] : 0.0f;
//      b_tile[ty][tx] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
// -    __syncthreads();
//      for (int k = 0; k < TILE; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
//      __syncthreads();
//    }

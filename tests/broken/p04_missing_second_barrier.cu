// Broken on purpose: no barrier before the next step overwrites the tiles, so a fast thread
// overwrites elements that slower threads still read. Expected finding: shared-memory race
// (a write after another thread's read).
//
// Checker: --size=17
// Expect: Shared-memory race: in block (0,0), a_tile[0][0] was read by thread (15,0) at line 29 of p04_missing_second_barrier.cu and written by thread (0,0) at line 26
// Expect: in a loop, another between the last read and the next overwrite
// Needs: instrumented kernels
//
// Change to solutions/p04_tiled.cu:
// --- solutions/p04_tiled.cu
// +++ p04_missing_second_barrier.cu
// @@ -27,7 +27,6 @@
//      b_tile[ty][tx] = b_row < n && col < n ? b[b_row * n + col] : 0.0f;
//      __syncthreads();
//      for (int k = 0; k < TILE; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
// -    __syncthreads();
//    }
//    if (row < n && col < n) c[row * n + col] = sum;
//  }

// Broken on purpose: no barrier after the multiply-adds, so a fast thread loads the next tiles
// while slower threads still read these. Expected finding: shared-memory race (a write after
// another thread's read).
//
// Checker: (no options)
// Expect: Shared-memory race
// Needs: instrumented kernels
//
// Change to solutions/p06_register_tiling.cu:
// --- solutions/p06_register_tiling.cu
// +++ p06_missing_second_barrier.cu
// @@ -62,7 +62,6 @@
//  #pragma unroll
//          for (int j = 0; j < TN; ++j) sum[i][j] += a_reg[i] * b_reg[j];
//      }
// -    __syncthreads();
//    }
//  #pragma unroll
//    for (int i = 0; i < TM; ++i) {

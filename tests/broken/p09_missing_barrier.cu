// Broken on purpose: no barrier after the mma_syncs, so a fast warp starts refilling the stage
// that slower warps are still loading fragments from. Expected finding: shared-memory race.
//
// Checker: (no options)
// Expect: Shared-memory race
// Needs: instrumented kernels
//
// Change to solutions/p09_tensor_cores.cu:
// --- solutions/p09_tensor_cores.cu
// +++ p09_missing_barrier.cu
// @@ -112,7 +112,6 @@
//          for (int i = 0; i < WM / 16; ++i) wmma::mma_sync(acc[i][j], a_frag[i], b_frag, acc[i][j]);
//        }
//      }
// -    __syncthreads();
//    }
//
//  #pragma unroll

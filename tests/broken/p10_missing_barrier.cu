// Broken on purpose: no barrier at the end of a step, so a fast thread stores the next tiles
// into the other stage and reads it while slower threads have not stored their part yet, or
// still read it. Expected finding: shared-memory race.
//
// Checker: (no options)
// Expect: Shared-memory race
// Needs: instrumented kernels
//
// Change to solutions/p10_warp_tiling.cu:
// --- solutions/p10_warp_tiling.cu
// +++ p10_missing_barrier.cu
// @@ -130,7 +130,6 @@
//      }
//      // The other stage was last read in step s - 1, before the previous barrier: free to refill.
//      if (s + 1 < steps) store_next(1 - st);
// -    __syncthreads();
//    }
//
//  #pragma unroll

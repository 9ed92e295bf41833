// Broken on purpose: both the copies and the arithmetic use stage 0, so the copies of step s
// overwrite the tiles that other threads are still multiplying for step s - 1. Expected
// finding: shared-memory race (an asynchronous copy writes what another thread reads).
//
// Checker: (no options)
// Expect: Shared-memory race
// Needs: instrumented kernels
//
// Change to solutions/p08_async_copy.cu:
// --- solutions/p08_async_copy.cu
// +++ p08_single_buffer.cu
// @@ -52,7 +52,7 @@
//      __pipeline_wait_prior(0);
//      __syncthreads();
//      if (s < steps) {
// -      const int st = s % 2, k0 = s * BK;
// +      const int st = 0, k0 = s * BK;
//        // Outside the matrices, copy 0 bytes and zero-fill the rest (the source is then never
//        // read, but must still be a valid address: the matrix's first element).
//  #pragma unroll
// @@ -81,7 +81,7 @@
//      // Commit even when nothing was started, so that every thread counts the same groups.
//      __pipeline_commit();
//      if (s > 0) {
// -      const int st = (s - 1) % 2;
// +      const int st = 0;
//  #pragma unroll
//        for (int kk = 0; kk < BK; ++kk) {
//  #pragma unroll

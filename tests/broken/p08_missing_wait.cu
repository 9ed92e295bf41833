// Broken on purpose: no __pipeline_wait_prior before the barrier, so the block multiplies
// tiles whose copies may still be in flight. Expected finding: a read of shared memory that an
// asynchronous copy has not finished writing (on the GPU: wrong values, now and then).
//
// Checker: (no options)
// Expect: Shared-memory race
// Needs: instrumented kernels
//
// Change to solutions/p08_async_copy.cu:
// --- solutions/p08_async_copy.cu
// +++ p08_missing_wait.cu
// @@ -49,7 +49,6 @@
//    for (int s = 0; s <= steps; ++s) {
//      // One barrier does both jobs: step s - 1 is complete for everyone, and stage s % 2,
//      // read during step s - 2, is free to be refilled.
// -    __pipeline_wait_prior(0);
//      __syncthreads();
//      if (s < steps) {
//        const int st = s % 2, k0 = s * BK;

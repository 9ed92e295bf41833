// Broken on purpose: cp_async_wait<STAGES - 1> waits for one group too few, so step s's copies
// may still be on their way when the warps read its stage. Expected finding: a race with the
// asynchronous copy (on a GPU: wrong values, now and then).
//
// Checker: (no options)
// Expect: Shared-memory race with an asynchronous copy
// Needs: instrumented kernels
//
// Change to solutions/p11_mma_sync.cu:
// --- solutions/p11_mma_sync.cu
// +++ p11_wait_one_group_too_few.cu
// @@ -172,7 +172,7 @@
//      // Of the groups committed so far, step s's is the oldest of the newest STAGES - 1: once at
//      // most STAGES - 2 are still on their way, it has landed for this thread; the barrier makes
//      // that true for every thread, and says that nobody still reads step s - 1's stage.
// -    cp_async_wait<STAGES - 2>();
// +    cp_async_wait<STAGES - 1>();
//      __syncthreads();
//      const int next = s + STAGES - 1;
//      if (next < steps) load_step(next % STAGES, next);

// Broken on purpose: the epilogue's threads write their sums into the staging buffer and lane 0
// stores it with the TMA, but nobody executes fence.proxy.async between: the tensor store reads
// shared memory through the async proxy, which need not see the threads' ordinary stores (on an
// H100 it can store stale data). Expected finding: the missing fence, naming the write and the
// store.
//
// Checker: (no options)
// Expect: Async proxy: missing fence.proxy.async
// Expect: read it without a fence.proxy.async by thread
// Needs: instrumented kernels
//
// Change to solutions/p13_warp_specialization.cu:
// --- solutions/p13_warp_specialization.cu
// +++ p13_epilogue_without_proxy_fence.cu
// @@ -249,7 +249,6 @@
//              make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
//        }
//      }
// -    fence_async_shared();
//      __syncwarp();
//      if (lane == 0) {
//        tma_store(c_map, buffer, col0 + piece * EPI_COLS, row0);

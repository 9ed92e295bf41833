// Broken on purpose: the consumers store their sums before the last wgmma.wait_group, while the
// last step's wgmmas may still be writing them (wait_group 1 in the loop leaves that group in
// flight). Reading a wgmma's accumulators before the wait that retires its group is undefined
// behaviour in PTX; on an H100 the last slices of k can be missing from c. Expected finding: the
// accumulator read before the wait, at its line.
//
// Checker: (no options)
// Expect: wgmma accumulator used before wgmma.wait_group
// Needs: instrumented kernels
//
// Change to solutions/p12_tma_wgmma.cu:
// --- solutions/p12_tma_wgmma.cu
// +++ p12_reads_accumulator_before_wait.cu
// @@ -189,7 +189,7 @@
//      wgmma_wait<1>();
//      if (s > 0 && threadIdx.x == 0) mbarrier_arrive(&empty[(s - 1) % STAGES]);
//    }
// -  wgmma_wait<0>();
//    store_tile(top, c, m, n, row0, col0);
//    store_tile(bottom, c, m, n, row0 + 64, col0);
// +  wgmma_wait<0>();
//  }

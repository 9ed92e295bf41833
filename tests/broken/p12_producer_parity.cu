// Broken on purpose: the producer waits on a stage's empty barrier with the parity of its first
// use, a phase that never completes. Expected finding: deadlock.
//
// Checker: (no options)
// Expect: Deadlock in block
// Expect: which still needs 1 more arrival
//
// Change to solutions/p12_tma_wgmma.cu:
// --- solutions/p12_tma_wgmma.cu
// +++ p12_producer_parity.cu
// @@ -158,7 +158,7 @@
//      if (threadIdx.x == 128) {
//        for (int s = 0; s < steps; ++s) {
//          const int stage = s % STAGES, use = s / STAGES;
// -        mbarrier_wait(&empty[stage], (use + 1) % 2);  // the first use passes at once
// +        mbarrier_wait(&empty[stage], use % 2);
//          mbarrier_arrive_expect_tx(&full[stage], A_BYTES + B_BYTES);
//          tma_load(a_tiles + stage * BM * BK, &a_map, s * BK, row0, &full[stage]);
//          for (int j = 0; j < BN / 64; ++j)

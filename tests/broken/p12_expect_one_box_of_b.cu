// Broken on purpose: the full barrier expects one 64-column box of b where two land, so the
// consumers start before the second arrives. Expected finding: race with a tensor copy.
//
// Checker: (no options)
// Expect: Shared-memory race with a tensor copy
// Needs: instrumented kernels
//
// Change to solutions/p12_tma_wgmma.cu:
// --- solutions/p12_tma_wgmma.cu
// +++ p12_expect_one_box_of_b.cu
// @@ -159,7 +159,7 @@
//        for (int s = 0; s < steps; ++s) {
//          const int stage = s % STAGES, use = s / STAGES;
//          mbarrier_wait(&empty[stage], (use + 1) % 2);  // the first use passes at once
// -        mbarrier_arrive_expect_tx(&full[stage], A_BYTES + B_BYTES);
// +        mbarrier_arrive_expect_tx(&full[stage], A_BYTES + BK * 64 * 2);
//          tma_load(a_tiles + stage * BM * BK, &a_map, s * BK, row0, &full[stage]);
//          for (int j = 0; j < BN / 64; ++j)
//            tma_load(b_tiles + (stage * (BN / 64) + j) * BK * 64, &b_map, col0 + 64 * j, s * BK, &full[stage]);

// Broken on purpose: setmaxnreg, a warpgroup instruction, runs in the producer's thread 0 only.
// Expected finding: deadlock at setmaxnreg.
//
// Checker: (no options)
// Expect: Deadlock in block
// Expect: waits at setmaxnreg
// Expect: all 128 threads of a warpgroup
//
// Change to solutions/p13_warp_specialization.cu:
// --- solutions/p13_warp_specialization.cu
// +++ p13_registers_down_in_one_thread.cu
// @@ -311,8 +311,8 @@
//    cluster_sync();
//
//    if (warpgroup == 0) {
// -    registers_down<40>();
//      if (threadIdx.x == 0) {
// +      registers_down<40>();
//        int step = 0, round = 0;
//        for (int p = cluster; p < pairs_m * tiles_n; p += clusters, ++round) {
//          int pair_row, pair_col;

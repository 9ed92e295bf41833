// Broken on purpose: the consumers start the ring counter again at every tile while the producer's keeps
// running, so from a block's second tile on they wait for the wrong stages and phases. Expected:
// a race with a tensor copy, and wrong values.
//
// Checker: (no options)
// Expect: Shared-memory race with a tensor copy
//
// Change to solutions/p13_warp_specialization.cu:
// --- solutions/p13_warp_specialization.cu
// +++ p13_ring_restarts_per_tile.cu
// @@ -332,8 +332,8 @@
//          for (int r = 0; r < CLUSTER; ++r) mbarrier_arrive_cluster(&empty[stage], r);
//      };
//      float d[128];
// -    int step = 0;
//      for (int p = cluster; p < pairs_m * tiles_n; p += clusters) {
// +      int step = 0;  // each tile starts the ring again
//        int pair_row, pair_col;
//        pair_position(p, pairs_m, tiles_n, pair_row, pair_col);
//        const int tile_row = CLUSTER * pair_row + rank, tile_col = pair_col;

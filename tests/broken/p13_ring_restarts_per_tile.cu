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
// @@ -217,8 +217,8 @@
//    registers_up<232>();
//    const int consumer = warpgroup - 1;
//    float d[128];
// -  int step = 0;
//    for (int t = blockIdx.x; t < tiles_m * tiles_n; t += gridDim.x) {
// +    int step = 0;  // each tile starts the ring again
//      int tile_row, tile_col;
//      tile_position(t, tiles_m, tiles_n, tile_row, tile_col);
//      for (int s = 0; s < steps; ++s, ++step) {

// Broken on purpose: only the first consumer warpgroup releases stages, but each empty barrier
// waits for four arrivals (two consumers in each of the cluster's two blocks). Expected finding:
// deadlock, arrivals short.
//
// Checker: (no options)
// Expect: Deadlock in block
// Expect: (of 4)
//
// Change to solutions/p13_warp_specialization.cu:
// --- solutions/p13_warp_specialization.cu
// +++ p13_one_consumer_releases.cu
// @@ -328,7 +328,7 @@
//      float* my_staging = staging + (consumer * 4 + warp) * 2 * EPI_ROWS * EPI_COLS;
//      // Gives a stage back to the producers of both blocks.
//      auto release = [&](int stage) {
// -      if (threadIdx.x % 128 == 0)
// +      if (threadIdx.x == 128)
//          for (int r = 0; r < CLUSTER; ++r) mbarrier_arrive_cluster(&empty[stage], r);
//      };
//      float d[128];

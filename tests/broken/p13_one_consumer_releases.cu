// Broken on purpose: only the first consumer warpgroup releases stages, but each empty barrier
// waits for two arrivals. Expected finding: deadlock, one arrival short.
//
// Checker: (no options)
// Expect: Deadlock in block
// Expect: (of 2)
//
// Change to solutions/p13_warp_specialization.cu:
// --- solutions/p13_warp_specialization.cu
// +++ p13_one_consumer_releases.cu
// @@ -234,10 +234,10 @@
//        wgmma_commit();
//        // The previous step's group is done reading its stage: give that stage back.
//        wgmma_wait<1>();
// -      if (s > 0 && threadIdx.x % 128 == 0) mbarrier_arrive(&empty[(step - 1) % STAGES]);
// +      if (s > 0 && threadIdx.x == 128) mbarrier_arrive(&empty[(step - 1) % STAGES]);
//      }
//      wgmma_wait<0>();
// -    if (threadIdx.x % 128 == 0) mbarrier_arrive(&empty[(step - 1) % STAGES]);
// +    if (threadIdx.x == 128) mbarrier_arrive(&empty[(step - 1) % STAGES]);
//      store_tile(d, c, m, n, tile_row * BM + consumer * 64, tile_col * BN);
//    }
//  }

// Broken on purpose: no cluster barrier after the mbarriers are initialized. A block's producer
// multicasts its half of b into the other block, whose mbarriers may not exist yet (on a GPU the
// other block may not even have started). Expected finding: a use of the other block's shared
// memory before any cluster barrier (the first block to run writes into the other one).
//
// Checker: (no options)
// Expect: Cluster synchronization missing
// Expect: wrote shared memory of block rank 1 of its cluster before waiting at any cluster barrier
//
// Change to solutions/p13_warp_specialization.cu:
// --- solutions/p13_warp_specialization.cu
// +++ p13_no_cluster_barrier_after_init.cu
// @@ -297,8 +297,7 @@
//      }
//      fence_barrier_init();
//    }
// -  // The other block's copies and arrivals may reach our barriers only once they exist.
// -  cluster_sync();
// +  __syncthreads();  // orders this block's threads, not the other block's
//
//    if (warpgroup == 0) {
//      registers_down<40>();

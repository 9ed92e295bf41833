// Broken on purpose: no cluster barrier before the blocks exit. A block that finishes first takes
// its shared memory with it while the other block's consumers still give stages back to its
// empty barriers. Expected finding: a use of the shared memory of a block that has exited.
//
// Checker: (no options)
// Expect: Cluster synchronization missing
// Expect: after that block had exited
//
// Change to solutions/p13_warp_specialization.cu:
// --- solutions/p13_warp_specialization.cu
// +++ p13_exits_without_cluster_barrier.cu
// @@ -359,7 +359,4 @@
//      // Our shared memory must outlive the stores that read it.
//      if (threadIdx.x % 32 == 0) bulk_wait_all();
//    }
// -  // Nor may it go while the other block's copies and arrivals can still reach it.
// -  __syncwarp();
// -  cluster_sync();
//  }

// Broken on purpose: a stage is given back to the producer as soon as its wgmma is issued, before
// the wgmma has read it. Expected finding: shared memory overwritten under a wgmma.
//
// Checker: (no options)
// Expect: Shared memory overwritten under a wgmma
// Needs: instrumented kernels
//
// Change to solutions/p12_tma_wgmma.cu:
// --- solutions/p12_tma_wgmma.cu
// +++ p12_release_before_wait.cu
// @@ -185,9 +185,9 @@
//        wgmma_m64n128k16(bottom, descriptor(a_tile + 64 * BK + kk, 16, 1024), b_desc, s > 0 || kk > 0);
//      }
//      wgmma_commit();
// -    // Step s - 1's group is done reading its stage: give that stage back to the producer.
// +    // The stage is read: give it back to the producer.
// +    if (threadIdx.x == 0) mbarrier_arrive(&empty[stage]);
//      wgmma_wait<1>();
// -    if (s > 0 && threadIdx.x == 0) mbarrier_arrive(&empty[(s - 1) % STAGES]);
//    }
//    wgmma_wait<0>();
//    store_tile(top, c, m, n, row0, col0);

// Broken on purpose: each consumer gives a stage back right after committing its wgmmas, before
// wgmma.wait_group: the producers refill it while the tensor cores still read it. Expected
// finding: shared memory overwritten under a wgmma.
//
// Checker: (no options)
// Expect: Shared memory overwritten under a wgmma
// Needs: instrumented kernels
//
// Change to solutions/p13_warp_specialization.cu:
// --- solutions/p13_warp_specialization.cu
// +++ p13_release_before_wait.cu
// @@ -348,12 +348,11 @@
//            wgmma_m64n256k16(d, descriptor(a_rows + kk, 16, 1024), descriptor(b_tile + kk * 64, BK * 128, 1024),
//                             s > 0 || kk > 0);
//          wgmma_commit();
// -        // The previous step's group is done reading its stage: give that stage back.
// +        // The stage is read: give it back.
// +        release(stage);
//          wgmma_wait<1>();
// -        if (s > 0) release((step - 1) % STAGES);
//        }
//        wgmma_wait<0>();
// -      release((step - 1) % STAGES);
//        store_rows_shared(d, my_staging, &c_map, tile_row * BM + consumer * 64 + 16 * warp, tile_col * BN);
//      }
//      // Our shared memory must outlive the stores that read it.

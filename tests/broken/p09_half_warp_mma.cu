// Broken on purpose: only lanes 0-15 call mma_sync ("half a warp for a 16-wide piece"), but
// every wmma function is a collective of the whole warp: all 32 lanes must call it together.
// Expected finding: a warp-collective wmma call that part of the warp skipped (on the GPU:
// undefined behaviour: wrong values or a hang).
//
// Checker: (no options)
// Expect: mma_sync
// Needs: instrumented kernels
//
// Change to solutions/p09_tensor_cores.cu:
// --- solutions/p09_tensor_cores.cu
// +++ p09_half_warp_mma.cu
// @@ -109,7 +109,8 @@
//        for (int j = 0; j < WN / 16; ++j) {
//          wmma::load_matrix_sync(b_frag, &b_tile[st][kk][warp_col + 16 * j], BN + 8);
//  #pragma unroll
// -        for (int i = 0; i < WM / 16; ++i) wmma::mma_sync(acc[i][j], a_frag[i], b_frag, acc[i][j]);
// +        for (int i = 0; i < WM / 16; ++i)
// +          if (lane < 16) wmma::mma_sync(acc[i][j], a_frag[i], b_frag, acc[i][j]);
//        }
//      }
//      __syncthreads();

// Broken on purpose: the final store has no guard, so the threads whose rows or columns lie
// past the edge of c write there too. Expected finding: out-of-bounds write (on the GPU: the
// canaries after c are damaged).
//
// Checker: (no options)
// Expect: Out-of-bounds write
// Needs: instrumented kernels
//
// Change to solutions/p06_register_tiling.cu:
// --- solutions/p06_register_tiling.cu
// +++ p06_missing_store_guard.cu
// @@ -71,7 +71,7 @@
//      for (int j = 0; j < TN; ++j) {
//        int col = col0 + tx + j * (BN / TN);
//        // The ReLU must wait for the complete sum: a partial sum below 0 can still end above.
// -      if (row < m && col < n) c[row * n + col] = fmaxf(sum[i][j], 0.0f);
// +      c[row * n + col] = fmaxf(sum[i][j], 0.0f);
//      }
//    }
//  }

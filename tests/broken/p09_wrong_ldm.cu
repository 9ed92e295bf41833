// Broken on purpose: the a fragments are loaded with a leading dimension of BK, forgetting the
// 8 halves of padding in each row of a_tile, so rows 1 to 15 of each piece come from the wrong
// place. Expected finding: wrong values.
//
// Checker: (no options)
// Expect: Wrong values
//
// Change to solutions/p09_tensor_cores.cu:
// --- solutions/p09_tensor_cores.cu
// +++ p09_wrong_ldm.cu
// @@ -104,7 +104,7 @@
//        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag[WM / 16];
//        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b_frag;
//  #pragma unroll
// -      for (int i = 0; i < WM / 16; ++i) wmma::load_matrix_sync(a_frag[i], &a_tile[st][warp_row + 16 * i][kk], BK + 8);
// +      for (int i = 0; i < WM / 16; ++i) wmma::load_matrix_sync(a_frag[i], &a_tile[st][warp_row + 16 * i][kk], BK);
//  #pragma unroll
//        for (int j = 0; j < WN / 16; ++j) {
//          wmma::load_matrix_sync(b_frag, &b_tile[st][kk][warp_col + 16 * j], BN + 8);

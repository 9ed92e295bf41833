// Broken on purpose: the b fragments are declared col_major, but b_tile holds b row by row,
// so every 16 × 16 piece of b is used transposed. Expected finding: wrong values.
//
// Checker: (no options)
// Expect: Wrong values
//
// Change to solutions/p09_tensor_cores.cu:
// --- solutions/p09_tensor_cores.cu
// +++ p09_col_major_b.cu
// @@ -102,7 +102,7 @@
//  #pragma unroll
//      for (int kk = 0; kk < BK; kk += 16) {
//        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag[WM / 16];
// -      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b_frag;
// +      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_frag;
//  #pragma unroll
//        for (int i = 0; i < WM / 16; ++i) wmma::load_matrix_sync(a_frag[i], &a_tile[st][warp_row + 16 * i][kk], BK + 8);
//  #pragma unroll

// Broken on purpose: the copies write the tiles through swizzle(), but ldmatrix reads them at
// the unswizzled offsets, so each row's chunks come back in the wrong order. Expected finding:
// wrong values.
//
// Checker: (no options)
// Expect: Wrong values
//
// Change to solutions/p11_mma_sync.cu:
// --- solutions/p11_mma_sync.cu
// +++ p11_swizzle_on_copies_only.cu
// @@ -186,14 +186,14 @@
//        // lane l gives row l % 16 of the first or second chunk.
//  #pragma unroll
//        for (int i = 0; i < MI; ++i)
// -        ldmatrix_x4(a_frag[i], a_stage + swizzle<A_ROW>(warp_row + 16 * i + lane % 16, kk / 8 + lane / 16));
// +        ldmatrix_x4(a_frag[i], a_stage + (warp_row + 16 * i + lane % 16) * A_ROW + (kk / 8 + lane / 16) * 16);
//        // b is stored k-major (row kk of b_tile holds columns): .trans turns 8 × 8 blocks of it
//        // into the column fragments mma wants. Lanes 0-7 give rows kk .. kk + 7, lanes 8-15 rows
//        // kk + 8 .. kk + 15, of the columns j · 8 ..; lanes 16-31 the same for the next 8 columns.
//  #pragma unroll
//        for (int j = 0; j < NI; j += 2) {
//          uint32_t t[4];
// -        ldmatrix_x4_trans(t, b_stage + swizzle<B_ROW>(kk + lane % 16, (warp_col + 8 * j) / 8 + lane / 16));
// +        ldmatrix_x4_trans(t, b_stage + (kk + lane % 16) * B_ROW + ((warp_col + 8 * j) / 8 + lane / 16) * 16);
//          b_frag[j][0] = t[0], b_frag[j][1] = t[1], b_frag[j + 1][0] = t[2], b_frag[j + 1][1] = t[3];
//        }
//  #pragma unroll

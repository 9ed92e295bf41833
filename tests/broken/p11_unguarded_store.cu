// Broken on purpose: every lane stores all its sums, also those past the last row or column
// of c. Expected finding: out-of-bounds write.
//
// Checker: (no options)
// Expect: Out-of-bounds write
// Needs: instrumented kernels
//
// Change to solutions/p11_mma_sync.cu:
// --- solutions/p11_mma_sync.cu
// +++ p11_unguarded_store.cu
// @@ -214,13 +214,12 @@
//  #pragma unroll
//        for (int h = 0; h < 2; ++h) {
//          const int row = row0 + warp_row + 16 * i + g + 8 * h, col = col0 + warp_col + 8 * j + 2 * t;
// -        if (row >= m) continue;
//          float* p = c + size_t(row) * n + col;
// -        if (pairs && col + 1 < n) {
// +        if (pairs) {
//            *reinterpret_cast<float2*>(p) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
//          } else {
// -          if (col < n) p[0] = acc[i][j][2 * h];
// -          if (col + 1 < n) p[1] = acc[i][j][2 * h + 1];
// +          p[0] = acc[i][j][2 * h];
// +          p[1] = acc[i][j][2 * h + 1];
//          }
//        }
//  }

// Broken on purpose: the copies always read 16 bytes, also for chunks past the last row of a
// or column of b, instead of zero-filling them. Expected finding: out-of-bounds read.
//
// Checker: (no options)
// Expect: Out-of-bounds read
// Needs: instrumented kernels
//
// Change to solutions/p11_mma_sync.cu:
// --- solutions/p11_mma_sync.cu
// +++ p11_copies_past_the_edge.cu
// @@ -126,15 +126,13 @@
//        for (int l = 0; l < BM * BK / (8 * THREADS); ++l) {
//          int e = threadIdx.x + l * THREADS, r = e / (BK / 8), chunk = e % (BK / 8);
//          bool inside = row0 + r < m && k0 + 8 * chunk < k;
// -        cp_async_16(a_stage + swizzle<A_ROW>(r, chunk), inside ? a + size_t(row0 + r) * k + k0 + 8 * chunk : a,
// -                    inside ? 16 : 0);
// +        cp_async_16(a_stage + swizzle<A_ROW>(r, chunk), a + size_t(row0 + r) * k + k0 + 8 * chunk, 16);
//        }
//  #pragma unroll
//        for (int l = 0; l < BK * BN / (8 * THREADS); ++l) {
//          int e = threadIdx.x + l * THREADS, r = e / (BN / 8), chunk = e % (BN / 8);
//          bool inside = k0 + r < k && col0 + 8 * chunk < n;
// -        cp_async_16(b_stage + swizzle<B_ROW>(r, chunk), inside ? b + size_t(k0 + r) * n + col0 + 8 * chunk : b,
// -                    inside ? 16 : 0);
// +        cp_async_16(b_stage + swizzle<B_ROW>(r, chunk), b + size_t(k0 + r) * n + col0 + 8 * chunk, 16);
//        }
//      } else {
//        // Rows that do not start 16-byte aligned: element by element, through the same swizzle.

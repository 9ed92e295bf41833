// Broken on purpose: tile elements outside the matrices are skipped instead of zero-filled, so
// past the edge the tiles keep what an earlier step left in that stage, and in the last step
// those leftovers of a and b multiply each other. Expected finding: wrong values (when k is
// not a multiple of BK).
//
// Checker: (no options)
// Expect: Wrong values
//
// Change to solutions/p08_async_copy.cu:
// --- solutions/p08_async_copy.cu
// +++ p08_no_zero_fill.cu
// @@ -59,7 +59,7 @@
//        for (int l = 0; l < BM * BK / THREADS; ++l) {
//          int e = threadIdx.x + l * THREADS, r = e / BK, kk = e % BK;
//          bool in = row0 + r < m && k0 + kk < k;
// -        __pipeline_memcpy_async(&a_tile[st][kk][r], in ? &a[(row0 + r) * k + k0 + kk] : a, 4, in ? 0 : 4);
// +        if (in) __pipeline_memcpy_async(&a_tile[st][kk][r], &a[(row0 + r) * k + k0 + kk], 4);
//        }
//        if (b_copy16) {
//  #pragma unroll
// @@ -67,14 +67,14 @@
//            int e = threadIdx.x + l * THREADS, kk = e / (BN / 4), cc = 4 * (e % (BN / 4));
//            // n % 4 == 0, so a group of 4 starting inside a row ends inside it too.
//            bool in = k0 + kk < k && col0 + cc < n;
// -          __pipeline_memcpy_async(&b_tile[st][kk][cc], in ? &b[(k0 + kk) * n + col0 + cc] : b, 16, in ? 0 : 16);
// +          if (in) __pipeline_memcpy_async(&b_tile[st][kk][cc], &b[(k0 + kk) * n + col0 + cc], 16);
//          }
//        } else {
//  #pragma unroll
//          for (int l = 0; l < BK * BN / THREADS; ++l) {
//            int e = threadIdx.x + l * THREADS, kk = e / BN, cc = e % BN;
//            bool in = k0 + kk < k && col0 + cc < n;
// -          __pipeline_memcpy_async(&b_tile[st][kk][cc], in ? &b[(k0 + kk) * n + col0 + cc] : b, 4, in ? 0 : 4);
// +          if (in) __pipeline_memcpy_async(&b_tile[st][kk][cc], &b[(k0 + kk) * n + col0 + cc], 4);
//          }
//        }
//      }

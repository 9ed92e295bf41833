// Broken on purpose: the loads of a do not check the row against m, so when m is not a
// multiple of BM the last block reads rows past the end of a. Expected finding: out-of-bounds
// read of a.
//
// Checker: (no options)
// Expect: Out-of-bounds read
// Needs: instrumented kernels
//
// Change to solutions/p10_warp_tiling.cu:
// --- solutions/p10_warp_tiling.cu
// +++ p10_no_row_guard.cu
// @@ -63,13 +63,13 @@
//        int e = threadIdx.x + l * threads, r = e / (BK / 4), kc = 4 * (e % (BK / 4));
//        int row = row0 + r, kk = k0 + kc;
//        if (vec) {
// -        a_next[l] = row < m && kk < k ? *reinterpret_cast<const float4*>(&a[row * k + kk])
// +        a_next[l] = kk < k ? *reinterpret_cast<const float4*>(&a[row * k + kk])
//                                         : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
//        } else {
// -        a_next[l].x = row < m && kk < k ? a[row * k + kk] : 0.0f;
// -        a_next[l].y = row < m && kk + 1 < k ? a[row * k + kk + 1] : 0.0f;
// -        a_next[l].z = row < m && kk + 2 < k ? a[row * k + kk + 2] : 0.0f;
// -        a_next[l].w = row < m && kk + 3 < k ? a[row * k + kk + 3] : 0.0f;
// +        a_next[l].x = kk < k ? a[row * k + kk] : 0.0f;
// +        a_next[l].y = kk + 1 < k ? a[row * k + kk + 1] : 0.0f;
// +        a_next[l].z = kk + 2 < k ? a[row * k + kk + 2] : 0.0f;
// +        a_next[l].w = kk + 3 < k ? a[row * k + kk + 3] : 0.0f;
//        }
//      }
//  #pragma unroll

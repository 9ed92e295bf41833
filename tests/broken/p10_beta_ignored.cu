// Broken on purpose: the epilogue stores alpha · (a · b) and forgets beta · c.
// Expected finding: wrong values (in every case with beta != 0).
//
// Checker: (no options)
// Expect: Wrong values
//
// Change to solutions/p10_warp_tiling.cu:
// --- solutions/p10_warp_tiling.cu
// +++ p10_beta_ignored.cu
// @@ -143,16 +143,12 @@
//        float4 v = make_float4(alpha * sum[i][4 * j], alpha * sum[i][4 * j + 1], alpha * sum[i][4 * j + 2],
//                               alpha * sum[i][4 * j + 3]);
//        if (vec && col < n) {
// -        if (beta != 0.0f) {
// -          float4 old = *reinterpret_cast<const float4*>(&c[at]);
// -          v.x += beta * old.x; v.y += beta * old.y; v.z += beta * old.z; v.w += beta * old.w;
// -        }
//          *reinterpret_cast<float4*>(&c[at]) = v;
//        } else {
// -        if (col < n) c[at] = beta != 0.0f ? v.x + beta * c[at] : v.x;
// -        if (col + 1 < n) c[at + 1] = beta != 0.0f ? v.y + beta * c[at + 1] : v.y;
// -        if (col + 2 < n) c[at + 2] = beta != 0.0f ? v.z + beta * c[at + 2] : v.z;
// -        if (col + 3 < n) c[at + 3] = beta != 0.0f ? v.w + beta * c[at + 3] : v.w;
// +        if (col < n) c[at] = v.x;
// +        if (col + 1 < n) c[at + 1] = v.y;
// +        if (col + 2 < n) c[at + 2] = v.z;
// +        if (col + 3 < n) c[at + 3] = v.w;
//        }
//      }
//    }

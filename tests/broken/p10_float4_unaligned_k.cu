// Broken on purpose: the float4 path is chosen when n % 4 == 0, forgetting that the rows of a
// start 16-byte aligned only when k % 4 == 0 too. Expected finding: misaligned float4 read of a
// (when n % 4 == 0 and k % 4 != 0; on the GPU: "misaligned address").
//
// Checker: (no options)
// Expect: aligned
// Needs: instrumented kernels
//
// Change to solutions/p10_warp_tiling.cu:
// --- solutions/p10_warp_tiling.cu
// +++ p10_float4_unaligned_k.cu
// @@ -53,7 +53,7 @@
//    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
//    // float4 accesses need 16-byte aligned addresses: rows of a start aligned only when k % 4 == 0,
//    // rows of b and c only when n % 4 == 0. The test is the same for every thread.
// -  const bool vec = k % 4 == 0 && n % 4 == 0;
// +  const bool vec = n % 4 == 0;
//    const int steps = (k + BK - 1) / BK;
//
//    float4 a_next[a_loads], b_next[b_loads];

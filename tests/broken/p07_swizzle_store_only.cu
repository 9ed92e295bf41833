// Broken on purpose: the swizzled kernel stores a_tile with the XOR but reads it without,
// so each thread multiplies rows of a that belong to other threads. Expected finding: wrong
// values.
//
// Checker: (no options)
// Expect: Wrong values
//
// Change to solutions/p07_bank_conflicts.cu:
// --- solutions/p07_bank_conflicts.cu
// +++ p07_swizzle_store_only.cu
// @@ -111,7 +111,7 @@
//      for (int kk = 0; kk < BK; ++kk) {
//  #pragma unroll
//        for (int g = 0; g < 2; ++g) {
// -        float4 av = *reinterpret_cast<const float4*>(&a_tile[kk][(g * BM / 2 + 4 * ty) ^ (4 * (kk % 8))]);
// +        float4 av = *reinterpret_cast<const float4*>(&a_tile[kk][g * BM / 2 + 4 * ty]);
//          float4 bv = *reinterpret_cast<const float4*>(&b_tile[kk][g * BN / 2 + 4 * tx]);
//          a_reg[4 * g] = av.x; a_reg[4 * g + 1] = av.y; a_reg[4 * g + 2] = av.z; a_reg[4 * g + 3] = av.w;
//          b_reg[4 * g] = bv.x; b_reg[4 * g + 1] = bv.y; b_reg[4 * g + 2] = bv.z; b_reg[4 * g + 3] = bv.w;

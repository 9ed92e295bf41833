// Broken on purpose: a_tile padded by 8 floats instead of 4 ("more padding can only help").
// Columns kk and kk + 4 of a_tile then start 32 banks apart, in the same banks: the values are
// right, but the transposing store has 2-way bank conflicts. Expected finding: bank conflicts
// (2-way) on the store into a_tile.
//
// Checker: (no options)
// Expect: 2-way
// Needs: instrumented kernels
//
// Change to solutions/p07_bank_conflicts.cu:
// --- solutions/p07_bank_conflicts.cu
// +++ p07_pad_eight.cu
// @@ -39,7 +39,7 @@
//    // The padding moves row kk of a_tile PAD·kk banks on, so the 8 rows of a_tile that a warp's
//    // store reaches (4 words each) cover the 32 banks exactly. PAD = 1 or 2 would still collide
//    // (4-way, 2-way) and break the 16-byte alignment of the float4 reads; 8 would collide 2-way.
// -  __align__(16) __shared__ float a_tile[BK][BM + PAD];
// +  __align__(16) __shared__ float a_tile[BK][BM + 2 * PAD];
//    __align__(16) __shared__ float b_tile[BK][BN];
//    const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
//    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

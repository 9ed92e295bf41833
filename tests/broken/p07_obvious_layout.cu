// Broken on purpose: the padded kernel without its padding, a_tile[BK][BM]. The values are
// right, but the transposing store puts the 32 words a warp writes into 4 banks: 8-way bank
// conflicts. Expected finding: bank conflicts (8-way) on the store into a_tile.
//
// Checker: (no options)
// Expect: 8-way
// Needs: instrumented kernels
//
// Change to solutions/p07_bank_conflicts.cu:
// --- solutions/p07_bank_conflicts.cu
// +++ p07_obvious_layout.cu
// @@ -39,7 +39,7 @@
//    // The padding moves row kk of a_tile PAD·kk banks on, so the 8 rows of a_tile that a warp's
//    // store reaches (4 words each) cover the 32 banks exactly. PAD = 1 or 2 would still collide
//    // (4-way, 2-way) and break the 16-byte alignment of the float4 reads; 8 would collide 2-way.
// -  __align__(16) __shared__ float a_tile[BK][BM + PAD];
// +  __align__(16) __shared__ float a_tile[BK][BM];
//    __align__(16) __shared__ float b_tile[BK][BN];
//    const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
//    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

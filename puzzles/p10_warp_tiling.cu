// Puzzle 10: warp tiling, towards cuBLAS
//
// Computes c = alpha · (a · b) + beta · c for row-major float matrices a (m × k), b (k × n)
// and c (m × n), for any m, n, k >= 1 (c is not read when beta == 0, as in BLAS). Three levels
// of tiles: the block computes a BM × BN tile of c, each warp a WM × WN piece of it, and each
// thread TM × TN sums of that piece, as (TM / 4) × (TN / 4) groups of 4 × 4 spread over the
// warp's piece, so that at every kk a warp reads a few neighbouring float4s of each shared
// tile and each thread gets its values of a and b in TM / 4 + TN / 4 reads.
//
// Launch: 1-D blocks of THREADS = (BM / WM) · (BN / WN) · 32 threads; a grid of
//   ceil(n / BN) × ceil(m / BM) blocks; 2 · (BK·(BM + 4) + BK·BN) · 4 = 24832 bytes of static
//   shared memory: two stages, so that one barrier per step is enough.
//   Warp w computes rows (w / (BN / WN)) · WM + [0, WM) and columns (w % (BN / WN)) · WN + [0, WN)
//   of the block's tile; lane l of it takes rows 4 · (l / (WN / TN)) + 4 · (WM / TM) · i + 0..3
//   and columns 4 · (l % (WN / TN)) + 4 · (WN / TN) · j + 0..3 of that piece (i < TM / 4,
//   j < TN / 4). For each step along k:
//     1. start loading the next step's tiles from global memory into registers (float4s
//        when k % 4 == 0 and n % 4 == 0, single floats otherwise; 0 outside the matrices);
//     2. multiply the tiles of this step from the current stage;
//     3. store the registers into the other stage (a_tile transposed); barrier.
// Constants: BM = 128, BN = 256, BK = 8, WM = WN = 64, TM = 8, TN = 16, THREADS = 256.
// Doc: docs/p10_warp_tiling.md

constexpr int BM = 128;
constexpr int BN = 256;
constexpr int BK = 8;
constexpr int WM = 64;
constexpr int WN = 64;
constexpr int TM = 8;
constexpr int TN = 16;
constexpr int THREADS = (BM / WM) * (BN / WN) * 32;
static_assert(BK % 4 == 0 && TM % 4 == 0 && TN % 4 == 0 && THREADS % 32 == 0, "float4 pieces, whole warps");

// Two blocks per SM (at most 128 registers per thread) while a thread's sums fit in 64 registers,
// so one block computes while the other waits at a barrier.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, TM * TN <= 64 ? 2 : 1)
matmul_warp_tiled(const float* a, const float* b, float* c, int m, int n, int k, float alpha, float beta) {
  // FILL ME IN (roughly 100 lines)
  // Declare two stages:  __align__(16) __shared__ float a_tile[2][BK][BM + 4];
  //                      __align__(16) __shared__ float b_tile[2][BK][BN];
  // Work out this thread's warp piece and lane offsets (see the header); keep the sums in
  // float sum[TM][TN]. Load step 0 into registers, store it into stage 0, __syncthreads().
  // In step s: load step s + 1 into registers (float4 a_next[...], b_next[...]), multiply the
  // tiles of stage s % 2 with float4 reads, store the registers into the other stage,
  // __syncthreads(). Last, c = alpha · sum + beta · c, reading c only when beta != 0.
}

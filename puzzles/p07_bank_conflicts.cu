// Puzzle 7: bank conflicts, removed by padding and by an XOR swizzle
//
// Both kernels compute c = a · b for row-major float matrices a (m × k), b (k × n) and
// c (m × n), for any m, n, k >= 1, with the register tiling of puzzle 6 plus one change: each
// thread reads its TM values of a as float4s. For that, a_tile is stored transposed,
// a_tile[kk][row], so that the 4 rows a thread needs at one kk are 4 neighbouring floats.
// Loading it is a transposing store: a warp writes 4 rows × 8 columns of a, and in the obvious
// layout a_tile[BK][BM] those 32 words fall into only 4 of the 32 banks (8-way conflicts).
//   matmul_padded_tile:   a_tile[BK][BM + PAD], with PAD = 4;
//   matmul_swizzled_tile: a_tile[BK][BM], row r of column kk stored at r ^ (4 · (kk % 8)).
// Both make that store conflict-free, and keep every float4 read 16-byte aligned and
// conflict-free too.
//
// Launch (both kernels): 1-D blocks of THREADS = (BM / TM) · (BN / TN) threads; a grid of
//   ceil(n / BN) × ceil(m / BM) blocks; static shared memory: BK·(BM + PAD)·4 + BK·BN·4
//   = 8320 bytes (padded), 2·BK·BM·4 = 8192 bytes (swizzled).
//   Thread t, with ty = t / (BN / TN), tx = t % (BN / TN), owns rows g·BM/2 + 4·ty + 0..3 and
//   columns h·BN/2 + 4·tx + 0..3 of the block's tile, for g, h in {0, 1}. For each step
//   along k: load both tiles (0 outside the matrices), barrier, BK rounds of 2 + 2 float4
//   reads and 64 multiply-adds, barrier. Last, store the sums that lie inside c.
// Constants: BM = BN = 128, BK = 8, TM = TN = 8, THREADS = 256, PAD = 4.
// Doc: docs/p07_bank_conflicts.md

constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 8;
constexpr int TM = 8;
constexpr int TN = 8;
constexpr int THREADS = (BM / TM) * (BN / TN);
constexpr int PAD = 4;
static_assert(PAD % 4 == 0, "float4 reads need every row of a_tile to start 16-byte aligned");
static_assert(TM == 8 && TN == 8, "each thread owns 2 × 2 groups of 4 × 4 sums");
static_assert(BM % 32 == 0 && BM * BK % THREADS == 0 && BK * BN % THREADS == 0, "tiles must split evenly");

// __launch_bounds__(THREADS, 2): at most 128 registers per thread, so that two blocks share an
// SM and one of them computes while the other waits at a barrier.
__global__ void __launch_bounds__(THREADS, 2)
matmul_padded_tile(const float* a, const float* b, float* c, int m, int n, int k) {
  // FILL ME IN (roughly 35 lines)
  // Start from your puzzle 6 kernel, with the rows and columns of the header. Declare
  //   __align__(16) __shared__ float a_tile[BK][BM + PAD];
  //   __align__(16) __shared__ float b_tile[BK][BN];
  // and store a transposed: element (r, kk) of the tile goes to a_tile[kk][r]. For each kk,
  // read the 4 + 4 values of a a thread needs as two float4s,
  //   *reinterpret_cast<const float4*>(&a_tile[kk][g * BM / 2 + 4 * ty]), for g = 0 and 1,
  // and those of b the same way from b_tile[kk][g * BN / 2 + 4 * tx].
}

__global__ void __launch_bounds__(THREADS, 2)
matmul_swizzled_tile(const float* a, const float* b, float* c, int m, int n, int k) {
  // FILL ME IN (roughly 35 lines)
  // The padded kernel with a_tile[BK][BM]: no padding. Store element (r, kk) of the tile at
  // a_tile[kk][r ^ (4 * (kk % 8))], and read the float4 of rows r ... r + 3 (r a multiple
  // of 4) from the same place. b_tile does not change.
}

// Broken on purpose: the swizzled kernel stores a_tile with the XOR but reads it without,
// so each thread multiplies rows of a that belong to other threads. Expected finding: wrong
// values.

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
  // The padding moves row kk of a_tile PAD·kk banks on, so the 8 rows of a_tile that a warp's
  // store reaches (4 words each) cover the 32 banks exactly. PAD = 1 or 2 would still collide
  // (4-way, 2-way) and break the 16-byte alignment of the float4 reads; 8 would collide 2-way.
  __align__(16) __shared__ float a_tile[BK][BM + PAD];
  __align__(16) __shared__ float b_tile[BK][BN];
  const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float sum[TM][TN] = {};
  float a_reg[TM], b_reg[TN];
  for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
    for (int l = 0; l < BM * BK / THREADS; ++l) {
      int e = threadIdx.x + l * THREADS, r = e / BK, kk = e % BK;
      a_tile[kk][r] = row0 + r < m && k0 + kk < k ? a[(row0 + r) * k + k0 + kk] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < BK * BN / THREADS; ++l) {
      int e = threadIdx.x + l * THREADS, kk = e / BN, cc = e % BN;
      b_tile[kk][cc] = k0 + kk < k && col0 + cc < n ? b[(k0 + kk) * n + col0 + cc] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int g = 0; g < 2; ++g) {
        float4 av = *reinterpret_cast<const float4*>(&a_tile[kk][g * BM / 2 + 4 * ty]);
        float4 bv = *reinterpret_cast<const float4*>(&b_tile[kk][g * BN / 2 + 4 * tx]);
        a_reg[4 * g] = av.x; a_reg[4 * g + 1] = av.y; a_reg[4 * g + 2] = av.z; a_reg[4 * g + 3] = av.w;
        b_reg[4 * g] = bv.x; b_reg[4 * g + 1] = bv.y; b_reg[4 * g + 2] = bv.z; b_reg[4 * g + 3] = bv.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) sum[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int row = row0 + (i / 4) * BM / 2 + 4 * ty + i % 4;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int col = col0 + (j / 4) * BN / 2 + 4 * tx + j % 4;
      if (row < m && col < n) c[row * n + col] = sum[i][j];
    }
  }
}

__global__ void __launch_bounds__(THREADS, 2)
matmul_swizzled_tile(const float* a, const float* b, float* c, int m, int n, int k) {
  // XOR-ing the row with 4·(kk % 8) moves each of the 8 columns a warp writes to its own
  // group of 4 banks. It changes bits 2-4 only, so 4 rows that start at a multiple of 4
  // stay 4 neighbouring, aligned floats: one float4 read still gets them.
  __align__(16) __shared__ float a_tile[BK][BM];
  __align__(16) __shared__ float b_tile[BK][BN];
  const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float sum[TM][TN] = {};
  float a_reg[TM], b_reg[TN];
  for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
    for (int l = 0; l < BM * BK / THREADS; ++l) {
      int e = threadIdx.x + l * THREADS, r = e / BK, kk = e % BK;
      a_tile[kk][r ^ (4 * (kk % 8))] = row0 + r < m && k0 + kk < k ? a[(row0 + r) * k + k0 + kk] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < BK * BN / THREADS; ++l) {
      int e = threadIdx.x + l * THREADS, kk = e / BN, cc = e % BN;
      b_tile[kk][cc] = k0 + kk < k && col0 + cc < n ? b[(k0 + kk) * n + col0 + cc] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int g = 0; g < 2; ++g) {
        float4 av = *reinterpret_cast<const float4*>(&a_tile[kk][g * BM / 2 + 4 * ty]);
        float4 bv = *reinterpret_cast<const float4*>(&b_tile[kk][g * BN / 2 + 4 * tx]);
        a_reg[4 * g] = av.x; a_reg[4 * g + 1] = av.y; a_reg[4 * g + 2] = av.z; a_reg[4 * g + 3] = av.w;
        b_reg[4 * g] = bv.x; b_reg[4 * g + 1] = bv.y; b_reg[4 * g + 2] = bv.z; b_reg[4 * g + 3] = bv.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) sum[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int row = row0 + (i / 4) * BM / 2 + 4 * ty + i % 4;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int col = col0 + (j / 4) * BN / 2 + 4 * tx + j % 4;
      if (row < m && col < n) c[row * n + col] = sum[i][j];
    }
  }
}

// Checker: (no options)
// Expect: Wrong values

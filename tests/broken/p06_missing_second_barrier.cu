// Broken on purpose: no barrier after the multiply-adds, so a fast thread loads the next tiles
// while slower threads still read these. Expected finding: shared-memory race (a write after
// another thread's read).

// Puzzle 6: register tiling, with a fused ReLU
//
// Computes c = relu(a · b), that is max(0, a · b) element by element, for row-major float
// matrices a (m × k), b (k × n) and c (m × n), for any m, n, k >= 1. Each block computes one
// BM × BN tile of c by stepping a BM × BK tile of a and a BK × BN tile of b through shared
// memory along k. Each thread keeps a TM × TN micro-tile of sums in registers, so every value
// it reads from shared memory feeds TN (or TM) multiply-adds instead of one.
//
// Launch: 1-D blocks of THREADS = (BM / TM) · (BN / TN) threads; a grid of
//   ceil(n / BN) × ceil(m / BM) blocks; 8 KiB of static shared memory (a_tile and b_tile).
//   Thread t owns rows ty + (BM / TM) · i and columns tx + (BN / TN) · j of the block's tile,
//   with ty = t / (BN / TN), tx = t % (BN / TN), i < TM, j < TN. For each step along k:
//     1. the threads load both tiles together, BM·BK / THREADS elements of a and
//        BK·BN / THREADS of b each (0 outside the matrices); barrier;
//     2. for each of the BK columns of a_tile: read TM values of a and TN values of b into
//        registers, add their TM × TN products to the sums; barrier.
//   Last, each thread applies the ReLU to its sums in registers and stores those inside c.
// Constants: BM = BN = 128, BK = 8, TM = TN = 8, THREADS = 256.
// Doc: docs/p06_register_tiling.md

constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 8;
constexpr int TM = 8;
constexpr int TN = 8;
constexpr int THREADS = (BM / TM) * (BN / TN);
static_assert(BM * BK % THREADS == 0 && BK * BN % THREADS == 0, "each thread loads as many elements as the next");

// __launch_bounds__(THREADS, 2): at most 128 registers per thread, so that two blocks share an
// SM and one of them computes while the other waits at a barrier.
__global__ void __launch_bounds__(THREADS, 2)
matmul_relu_register_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float a_tile[BM][BK];
  __shared__ float b_tile[BK][BN];
  const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float sum[TM][TN] = {};
  float a_reg[TM], b_reg[TN];
  for (int k0 = 0; k0 < k; k0 += BK) {
    // Consecutive threads take consecutive elements of a row: coalesced global reads.
#pragma unroll
    for (int l = 0; l < BM * BK / THREADS; ++l) {
      int e = threadIdx.x + l * THREADS, r = e / BK, kk = e % BK;
      a_tile[r][kk] = row0 + r < m && k0 + kk < k ? a[(row0 + r) * k + k0 + kk] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < BK * BN / THREADS; ++l) {
      int e = threadIdx.x + l * THREADS, kk = e / BN, cc = e % BN;
      b_tile[kk][cc] = k0 + kk < k && col0 + cc < n ? b[(k0 + kk) * n + col0 + cc] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      // Strided rows and columns: a warp reads 16 neighbouring words of b_tile and 2 of
      // a_tile (each a broadcast), so no two threads wait for the same bank.
#pragma unroll
      for (int i = 0; i < TM; ++i) a_reg[i] = a_tile[ty + i * (BM / TM)][kk];
#pragma unroll
      for (int j = 0; j < TN; ++j) b_reg[j] = b_tile[kk][tx + j * (BN / TN)];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) sum[i][j] += a_reg[i] * b_reg[j];
    }
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int row = row0 + ty + i * (BM / TM);
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int col = col0 + tx + j * (BN / TN);
      // The ReLU must wait for the complete sum: a partial sum below 0 can still end above.
      if (row < m && col < n) c[row * n + col] = fmaxf(sum[i][j], 0.0f);
    }
  }
}

// Checker: (no options)
// Expect: Shared-memory race
// Needs: instrumented kernels

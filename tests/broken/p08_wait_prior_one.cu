// Broken on purpose: __pipeline_wait_prior(1) where 0 is needed. At the top of an iteration
// the only group in flight is the previous step's, the one about to be used, and (1) lets it
// stay in flight. Expected finding: a read of shared memory that an asynchronous copy has not
// finished writing (on the GPU: wrong values, now and then).

// Puzzle 8: asynchronous copies and double buffering
//
// Computes c = a · b for row-major float matrices a (m × k), b (k × n) and c (m × n), for any
// m, n, k >= 1, with the padded kernel of puzzle 7 and two shared stages: while the block
// multiplies the tiles in one stage, __pipeline_memcpy_async fills the other with the next
// tiles, so the wait for global memory overlaps with arithmetic instead of stalling it.
//
// Launch: 1-D blocks of THREADS = (BM / TM) · (BN / TN) threads; a grid of
//   ceil(n / BN) × ceil(m / BM) blocks; 2 · (BK·(BM + PAD) + BK·BN) · 4 = 33280 bytes of
//   static shared memory. Thread t, with ty = t / (BN / TN), tx = t % (BN / TN), owns rows
//   g·BM/2 + 4·ty + 0..3 and columns h·BN/2 + 4·tx + 0..3 of the block's tile (g, h in {0, 1}),
//   as in puzzle 7. With S = ceil(k / BK) steps, iteration s = 0, 1, ..., S:
//     1. __pipeline_wait_prior(0): this thread's copies for step s - 1 have landed;
//        barrier: everybody's have, and nobody still reads stage s % 2 (step s - 2);
//     2. if s < S, start the copies of step s into stage s % 2 (element by element for
//        a_tile, which is stored transposed; 16 bytes at a time for b_tile when n % 4 == 0),
//        zero-filled outside the matrices; __pipeline_commit();
//     3. if s > 0, multiply the tiles of step s - 1, in stage (s - 1) % 2.
//   Last, store the sums that lie inside c.
// Constants: BM = BN = 128, BK = 16, TM = TN = 8, THREADS = 256, PAD = 4.
// Doc: docs/p08_async_copy.md

#include <cuda_pipeline.h>

constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 16;
constexpr int TM = 8;
constexpr int TN = 8;
constexpr int THREADS = (BM / TM) * (BN / TN);
constexpr int PAD = 4;
static_assert(PAD % 4 == 0, "float4 reads need every row of a_tile to start 16-byte aligned");
static_assert(TM == 8 && TN == 8, "each thread owns 2 × 2 groups of 4 × 4 sums");
static_assert(BM * BK % THREADS == 0 && BK * BN % (4 * THREADS) == 0, "tiles must split evenly");

// __launch_bounds__(THREADS, 2): at most 128 registers per thread, so that two blocks share an
// SM and one of them computes while the other waits at a barrier.
__global__ void __launch_bounds__(THREADS, 2)
matmul_async_copy(const float* a, const float* b, float* c, int m, int n, int k) {
  __align__(16) __shared__ float a_tile[2][BK][BM + PAD];
  __align__(16) __shared__ float b_tile[2][BK][BN];
  const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int steps = (k + BK - 1) / BK;
  // A 16-byte copy needs a 16-byte aligned source: b's rows are aligned only when n % 4 == 0.
  const bool b_copy16 = n % 4 == 0;
  float sum[TM][TN] = {};
  float a_reg[TM], b_reg[TN];
  for (int s = 0; s <= steps; ++s) {
    // One barrier does both jobs: step s - 1 is complete for everyone, and stage s % 2,
    // read during step s - 2, is free to be refilled.
    __pipeline_wait_prior(1);
    __syncthreads();
    if (s < steps) {
      const int st = s % 2, k0 = s * BK;
      // Outside the matrices, copy 0 bytes and zero-fill the rest (the source is then never
      // read, but must still be a valid address: the matrix's first element).
#pragma unroll
      for (int l = 0; l < BM * BK / THREADS; ++l) {
        int e = threadIdx.x + l * THREADS, r = e / BK, kk = e % BK;
        bool in = row0 + r < m && k0 + kk < k;
        __pipeline_memcpy_async(&a_tile[st][kk][r], in ? &a[(row0 + r) * k + k0 + kk] : a, 4, in ? 0 : 4);
      }
      if (b_copy16) {
#pragma unroll
        for (int l = 0; l < BK * BN / (4 * THREADS); ++l) {
          int e = threadIdx.x + l * THREADS, kk = e / (BN / 4), cc = 4 * (e % (BN / 4));
          // n % 4 == 0, so a group of 4 starting inside a row ends inside it too.
          bool in = k0 + kk < k && col0 + cc < n;
          __pipeline_memcpy_async(&b_tile[st][kk][cc], in ? &b[(k0 + kk) * n + col0 + cc] : b, 16, in ? 0 : 16);
        }
      } else {
#pragma unroll
        for (int l = 0; l < BK * BN / THREADS; ++l) {
          int e = threadIdx.x + l * THREADS, kk = e / BN, cc = e % BN;
          bool in = k0 + kk < k && col0 + cc < n;
          __pipeline_memcpy_async(&b_tile[st][kk][cc], in ? &b[(k0 + kk) * n + col0 + cc] : b, 4, in ? 0 : 4);
        }
      }
    }
    // Commit even when nothing was started, so that every thread counts the same groups.
    __pipeline_commit();
    if (s > 0) {
      const int st = (s - 1) % 2;
#pragma unroll
      for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
        for (int g = 0; g < 2; ++g) {
          float4 av = *reinterpret_cast<const float4*>(&a_tile[st][kk][g * BM / 2 + 4 * ty]);
          float4 bv = *reinterpret_cast<const float4*>(&b_tile[st][kk][g * BN / 2 + 4 * tx]);
          a_reg[4 * g] = av.x; a_reg[4 * g + 1] = av.y; a_reg[4 * g + 2] = av.z; a_reg[4 * g + 3] = av.w;
          b_reg[4 * g] = bv.x; b_reg[4 * g + 1] = bv.y; b_reg[4 * g + 2] = bv.z; b_reg[4 * g + 3] = bv.w;
        }
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) sum[i][j] += a_reg[i] * b_reg[j];
      }
    }
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
// Expect: Shared-memory race
// Needs: instrumented kernels

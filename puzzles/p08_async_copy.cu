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
  // FILL ME IN (roughly 55 lines)
  // Start from your padded kernel of puzzle 7, with two stages:
  //   __align__(16) __shared__ float a_tile[2][BK][BM + PAD];
  //   __align__(16) __shared__ float b_tile[2][BK][BN];
  // Loop s = 0 ... steps (one more than the steps): __pipeline_wait_prior(0); __syncthreads();
  // if s < steps, copy step s's tiles into stage s % 2 with __pipeline_memcpy_async(dst, src,
  // bytes, zfill): 4 bytes per element of a, 16 per 4 elements of b when n % 4 == 0;
  // __pipeline_commit() in every iteration; if s > 0, multiply the tiles in stage (s - 1) % 2.
}

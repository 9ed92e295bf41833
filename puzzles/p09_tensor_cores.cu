// Puzzle 9: tensor cores with WMMA
//
// Computes c = a · b for row-major half-precision matrices a (m × k) and b (k × n), with float
// sums and a float result c (m × n), for any m, n, k >= 1. The multiply-adds run on the tensor
// cores: a warp multiplies whole 16 × 16 pieces with nvcuda::wmma (one mma_sync does
// 16 × 16 × 16 of them). Each block computes one BM × BN tile of c; each warp a WM × WN part
// of it, as (WM / 16) × (WN / 16) accumulator fragments that stay in registers all along k.
//
// Launch: 1-D blocks of THREADS = (BM / WM) · (BN / WN) · 32 threads; a grid of
//   ceil(n / BN) × ceil(m / BM) blocks; SHARED_BYTES of dynamic shared memory (the checker
//   first allows more than 48 KiB with cudaFuncSetAttribute), laid out as
//   a_tile[STAGES][BM][BK + 8] and b_tile[STAGES][BK][BN + 8] (halves), then
//   c_piece[THREADS / 32][16][16] (floats).
//   Warp w computes rows (w / (BN / WN)) · WM + [0, WM) and columns (w % (BN / WN)) · WN + [0, WN)
//   of the block's tile. The tiles of STAGES consecutive steps along k are in shared memory or
//   on their way (__pipeline_memcpy_async, 16 bytes at a time, when k % 8 == 0 and n % 8 == 0;
//   ordinary loads otherwise; 0 outside the matrices). For each step along k:
//     1. start copying the tiles of step + STAGES - 1; wait for this step's; barrier;
//     2. for each 16-wide slice of the tiles: load the fragments, mma_sync each pair;
//     3. barrier: nobody still reads the stage that the next step refills.
//   Last, each warp stores its fragments: straight into c when the 16 × 16 piece lies inside
//   it and n % 8 == 0 (store_matrix_sync needs 32-byte aligned rows), otherwise through a
//   16 × 16 float buffer in shared memory, element by element inside c.
// Constants: BM = BN = 128, BK = 64, WM = WN = 64, STAGES = 3, THREADS = 128.
// Doc: docs/p09_tensor_cores.md

#include <cuda_fp16.h>
#include <mma.h>
#include <cuda_pipeline.h>

constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 64;
constexpr int WM = 64;
constexpr int WN = 64;
constexpr int STAGES = 3;
constexpr int THREADS = (BM / WM) * (BN / WN) * 32;
constexpr int SHARED_BYTES = STAGES * (BM * (BK + 8) + BK * (BN + 8)) * 2 + (THREADS / 32) * 16 * 16 * 4;
static_assert(STAGES >= 2, "one stage is refilled while another is read");
static_assert(WM % 16 == 0 && WN % 16 == 0 && BK % 16 == 0 && BM % WM == 0 && BN % WN == 0, "whole fragments");
static_assert(BM * BK % (8 * THREADS) == 0 && BK * BN % (8 * THREADS) == 0, "copies of 8 halves split evenly");

// __launch_bounds__(THREADS, 2) for 4 warps: two blocks per SM (up to 255 registers per
// thread), so that one block's barriers and copies overlap with the other's tensor-core work.
__global__ void __launch_bounds__(THREADS, THREADS <= 128 ? 2 : 1)
matmul_tensor_cores(const __half* a, const __half* b, float* c, int m, int n, int k) {
  // FILL ME IN (roughly 65 lines)
  // using namespace nvcuda; lay out the dynamic shared memory:
  //   extern __shared__ __align__(128) unsigned char shared[];
  //   auto a_tile = reinterpret_cast<__half(*)[BM][BK + 8]>(shared);   // then b_tile, c_piece
  // and wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[WM / 16][WN / 16], set to 0.
  // Each step: start the copies STAGES - 1 steps ahead, __pipeline_commit(),
  // __pipeline_wait_prior(STAGES - 1), __syncthreads(); for kk = 0, 16, ...: load_matrix_sync
  // the a and b fragments, mma_sync every pair; __syncthreads(). Then store, as the header says.
}

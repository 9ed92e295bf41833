// Broken on purpose: only lanes 0-15 call mma_sync ("half a warp for a 16-wide piece"), but
// every wmma function is a collective of the whole warp: all 32 lanes must call it together.
// Expected finding: a warp-collective wmma call that part of the warp skipped (on the GPU:
// undefined behaviour: wrong values or a hang).

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
  using namespace nvcuda;
  // 8 halves (16 bytes) of padding: the rows a fragment load reads at once start in different
  // banks, and every row still starts 16-byte aligned, as the copies and wmma need.
  extern __shared__ __align__(128) unsigned char shared[];
  auto a_tile = reinterpret_cast<__half(*)[BM][BK + 8]>(shared);
  auto b_tile = reinterpret_cast<__half(*)[BK][BN + 8]>(shared + STAGES * BM * (BK + 8) * 2);
  auto c_piece = reinterpret_cast<float(*)[16][16]>(shared + STAGES * (BM * (BK + 8) + BK * (BN + 8)) * 2);

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (BN / WN)) * WM, warp_col = (warp % (BN / WN)) * WN;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int steps = (k + BK - 1) / BK;
  // 16-byte copies need 16-byte aligned sources: rows of a are when k % 8 == 0, rows of b
  // when n % 8 == 0. The same for every thread, so the branch costs nothing.
  const bool copy16 = k % 8 == 0 && n % 8 == 0;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[WM / 16][WN / 16];
#pragma unroll
  for (int i = 0; i < WM / 16; ++i)
#pragma unroll
    for (int j = 0; j < WN / 16; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int s = 1 - STAGES; s < steps; ++s) {
    // Start the copies of step s + STAGES - 1 (the first iterations only fill the pipeline).
    const int load = s + STAGES - 1, ls = load % STAGES, k0 = load * BK;
    if (load < steps && copy16) {
#pragma unroll
      for (int l = 0; l < BM * BK / (8 * THREADS); ++l) {
        int e = threadIdx.x + l * THREADS, r = e / (BK / 8), kc = 8 * (e % (BK / 8));
        bool in = row0 + r < m && k0 + kc < k;
        __pipeline_memcpy_async(&a_tile[ls][r][kc], in ? &a[(row0 + r) * k + k0 + kc] : a, 16, in ? 0 : 16);
      }
#pragma unroll
      for (int l = 0; l < BK * BN / (8 * THREADS); ++l) {
        int e = threadIdx.x + l * THREADS, kk = e / (BN / 8), cc = 8 * (e % (BN / 8));
        bool in = k0 + kk < k && col0 + cc < n;
        __pipeline_memcpy_async(&b_tile[ls][kk][cc], in ? &b[(k0 + kk) * n + col0 + cc] : b, 16, in ? 0 : 16);
      }
    } else if (load < steps) {
      for (int e = threadIdx.x; e < BM * BK; e += THREADS) {
        int r = e / BK, kk = e % BK;
        a_tile[ls][r][kk] = row0 + r < m && k0 + kk < k ? a[(row0 + r) * k + k0 + kk] : __float2half(0.0f);
      }
      for (int e = threadIdx.x; e < BK * BN; e += THREADS) {
        int kk = e / BN, cc = e % BN;
        b_tile[ls][kk][cc] = k0 + kk < k && col0 + cc < n ? b[(k0 + kk) * n + col0 + cc] : __float2half(0.0f);
      }
    }
    // Commit even when nothing was started, so that every thread counts the same groups.
    __pipeline_commit();
    if (s < 0) continue;
    // Of the STAGES groups committed since step s's, only the newest STAGES - 1 may still run.
    __pipeline_wait_prior(STAGES - 1);
    __syncthreads();
    const int st = s % STAGES;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag[WM / 16];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b_frag;
#pragma unroll
      for (int i = 0; i < WM / 16; ++i) wmma::load_matrix_sync(a_frag[i], &a_tile[st][warp_row + 16 * i][kk], BK + 8);
#pragma unroll
      for (int j = 0; j < WN / 16; ++j) {
        wmma::load_matrix_sync(b_frag, &b_tile[st][kk][warp_col + 16 * j], BN + 8);
#pragma unroll
        for (int i = 0; i < WM / 16; ++i)
          if (lane < 16) wmma::mma_sync(acc[i][j], a_frag[i], b_frag, acc[i][j]);
      }
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < WM / 16; ++i) {
#pragma unroll
    for (int j = 0; j < WN / 16; ++j) {
      const int row = row0 + warp_row + 16 * i, col = col0 + warp_col + 16 * j;
      if (row + 16 <= m && col + 16 <= n && n % 8 == 0) {
        wmma::store_matrix_sync(&c[row * n + col], acc[i][j], n, wmma::mem_row_major);
      } else {
        // A fragment's layout across the lanes is unspecified: let wmma write it to shared
        // memory, then copy out only the elements inside c.
        wmma::store_matrix_sync(&c_piece[warp][0][0], acc[i][j], 16, wmma::mem_row_major);
        __syncwarp();
        for (int e = lane; e < 16 * 16; e += 32) {
          int r = e / 16, cc = e % 16;
          if (row + r < m && col + cc < n) c[(row + r) * n + col + cc] = c_piece[warp][r][cc];
        }
        __syncwarp();
      }
    }
  }
}

// Checker: (no options)
// Expect: mma_sync
// Needs: instrumented kernels

// A Hopper GEMM as from-scratch worklogs write it, our own: c (m x n, float) = a (m x k) · b
// (k x n), halves, row-major. One producer warpgroup issues tensor copies of a (BM x BK, 128-byte
// swizzle) and b (BK x BN, as BN / 64 column blocks of 64, 128-byte swizzle) into a ring of
// STAGES stages, each with a "full" mbarrier (the copies' bytes) and an "empty" one (the
// consumers' release); two consumer warpgroups each multiply a 64-row half of the tile with
// wgmma m64n128k16, b read MN-major (transposed). A persistent grid walks the output tiles.
// The Mistake parameter plants one bug at a time, for the findings tests.
#pragma once

#include "hopper_ptx.cuh"

namespace hopper_gemm {

constexpr int BM = 128, BN = 128, BK = 64, STAGES = 3, CONSUMERS = 2, THREADS = (CONSUMERS + 1) * 128;
constexpr int A_STAGE = BM * BK * 2, B_STAGE = BK * BN * 2;
constexpr int SHARED_BYTES = STAGES * (A_STAGE + B_STAGE) + 2 * STAGES * 8;

enum class Mistake {
  none,
  expect_too_few_bytes,   // expect_tx announces one tile of b too few
  expect_too_many_bytes,  // ... one box too many
  producer_parity_zero,   // the producer waits for parity 0 of a free stage first
  descriptor_64b,         // the descriptors say 64-byte swizzle; the maps wrote 128
  release_before_wait,    // consumers release a stage before wgmma.wait_group
  consumer_skips_wait,    // the second consumer reads a stage without waiting on its mbarrier
};

template <Mistake M>
__device__ void run(const CUtensorMap* a_map, const CUtensorMap* b_map, float* c, int m, int n, int k) {
  extern __shared__ __align__(1024) unsigned char smem[];
  uint64_t* full = reinterpret_cast<uint64_t*>(smem + STAGES * (A_STAGE + B_STAGE));
  uint64_t* empty = full + STAGES;
  const uint32_t sa = shared_address(smem), sb = sa + STAGES * A_STAGE;
  const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(shared_address(&full[s]), 1);
      mbarrier_init(shared_address(&empty[s]), CONSUMERS);
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  __syncthreads();
  const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN, steps = (k + BK - 1) / BK;
  if (wg == 0) {
    if (tid == 0) {
      int iter = 0;
      for (int t = blockIdx.x; t < tiles_m * tiles_n; t += gridDim.x) {
        const int tm = t / tiles_n, tn = t % tiles_n;
        for (int s = 0; s < steps; ++s, ++iter) {
          const int stage = iter % STAGES, phase = (iter / STAGES) & 1;
          // A free stage: the consumers' release of its last use (parity 1 before any, at once).
          mbarrier_wait(shared_address(&empty[stage]), M == Mistake::producer_parity_zero ? phase : phase ^ 1);
          const uint32_t bar = shared_address(&full[stage]);
          int bytes = A_STAGE + B_STAGE;
          if (M == Mistake::expect_too_few_bytes) bytes -= BK * 64 * 2;
          if (M == Mistake::expect_too_many_bytes) bytes += BK * 64 * 2;
          mbarrier_expect_tx(bar, bytes);
          tma_load_2d(sa + stage * A_STAGE, a_map, s * BK, tm * BM, bar);
          tma_load_3d(sb + stage * B_STAGE, b_map, 0, s * BK, tn * (BN / 64), bar);
        }
      }
    }
    return;
  }
  const int consumer = wg - 1, warp = tid / 32, lane = tid % 32;
  const int swizzle_mode = M == Mistake::descriptor_64b ? 2 : 1;
  float d[64];
  int iter = 0;
  for (int t = blockIdx.x; t < tiles_m * tiles_n; t += gridDim.x) {
    const int tm = t / tiles_n, tn = t % tiles_n;
    for (int s = 0; s < steps; ++s, ++iter) {
      const int stage = iter % STAGES, phase = (iter / STAGES) & 1;
      if (!(M == Mistake::consumer_skips_wait && consumer == 1)) mbarrier_wait(shared_address(&full[stage]), phase);
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < BK; kk += 16) {
        // a: this consumer's 64 rows, K-major (128-byte rows, 8-row groups 1024 bytes apart).
        uint64_t a_desc = matrix_descriptor(sa + stage * A_STAGE + consumer * 64 * 128 + kk * 2, 16, 1024, swizzle_mode);
        // b: MN-major; 64-column blocks BK rows of 128 bytes apart (leading), 8 rows 1024 apart.
        uint64_t b_desc = matrix_descriptor(sb + stage * B_STAGE + kk * 128, BK * 128, 1024, swizzle_mode);
        wgmma_m64n128k16_f16<1>(d, a_desc, b_desc, s > 0 || kk > 0);
      }
      wgmma_commit();
      if (M == Mistake::release_before_wait && tid == 0) mbarrier_arrive(shared_address(&empty[stage]));
      wgmma_wait<0>();
      if (M != Mistake::release_before_wait && tid == 0) mbarrier_arrive(shared_address(&empty[stage]));
    }
    const int g = lane / 4, q = lane % 4;
    const int row = tm * BM + consumer * 64 + warp * 16 + g;
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
      const int col = tn * BN + 8 * j + 2 * q;
      for (int h = 0; h < 2; ++h) {
        if (row + 8 * h >= m) continue;
        if (col < n) c[size_t(row + 8 * h) * n + col] = d[4 * j + 2 * h];
        if (col + 1 < n) c[size_t(row + 8 * h) * n + col + 1] = d[4 * j + 2 * h + 1];
      }
    }
  }
}

}  // namespace hopper_gemm

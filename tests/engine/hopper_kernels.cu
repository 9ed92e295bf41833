// Kernels in the CUDA of Hopper: tensor copies (TMA) into swizzled shared memory, mbarriers,
// warpgroup MMA from shared-memory descriptors and from registers, and a warp-specialized GEMM.
// They run unchanged on both backends; test_hopper.cpp checks them against the layouts
// measured on an H100, and the two backends against each other.
#include "hopper_ptx.cuh"
#include "hopper_gemm.cuh"

// One 2-D box of `map` at (c0, c1) into shared memory, dumped as it lands (raw, swizzle and all).
__global__ void hopper_tma_box(const __grid_constant__ CUtensorMap map, int c0, int c1, int bytes, uint16_t* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const uint32_t bar = shared_address(smem + 16384);  // after the box, which must start aligned
  if (threadIdx.x == 0) {
    mbarrier_init(bar, 1);
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbarrier_expect_tx(bar, bytes);
    tma_load_2d(shared_address(smem), &map, c0, c1, bar);
  }
  mbarrier_wait(bar, 0);
  for (int i = threadIdx.x; i < bytes / 2; i += blockDim.x) out[i] = reinterpret_cast<const uint16_t*>(smem)[i];
}

// Boxes of `in_map` loaded at (c0 + 64 i, c1) for i < boxes, each stored back to `out_map` at
// the same place: two stages in turn, each with its mbarrier, so the profile has known counts.
__global__ void hopper_tma_round_trip(const __grid_constant__ CUtensorMap in_map,
                                      const __grid_constant__ CUtensorMap out_map, int c0, int c1, int bytes,
                                      int boxes) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const uint32_t bar = shared_address(smem + 2 * 16384);  // two stages of up to 16 KB, then two mbarriers
  if (threadIdx.x == 0) {
    mbarrier_init(bar, 1);
    mbarrier_init(bar + 8, 1);
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (int i = 0; i < boxes; ++i) {
    const int stage = i % 2;
    const uint32_t stage_bar = bar + 8 * stage, tile = shared_address(smem + stage * 16384);
    bulk_wait_all();  // the stage's last store has read it
    mbarrier_expect_tx(stage_bar, bytes);
    tma_load_2d(tile, &in_map, c0 + 64 * i, c1, stage_bar);
    mbarrier_wait(stage_bar, (i / 2) % 2);
    tma_store_2d(&out_map, c0 + 64 * i, c1, tile);
    bulk_commit();
  }
  bulk_wait_all();
}

// wgmma with the operands written into shared memory by the threads, in each mode's layout:
// a 64 x 64 K-major with a 128-byte swizzle; b 64 x N. mode 0: b K-major (N rows of 64 k), N = 64;
// 1: b MN-major (64 k-rows of 64 columns), N = 64; 2: the same, N = 128 (two 64-column blocks,
// 8 KB apart); 3: a from registers, b as in 1; 4: bf16, b as in 0. d is 64 x N, row-major.
__device__ uint32_t swizzle_128(uint32_t offset) { return offset ^ (((offset >> 7) & 7) << 4); }

__global__ void hopper_wgmma(const uint16_t* a, const uint16_t* b, float* d_out, int mode) {
  extern __shared__ __align__(1024) unsigned char smem[];
  unsigned char* sa = smem;
  unsigned char* sb = smem + 8192;
  const int N = mode == 2 ? 128 : 64, tid = threadIdx.x;
  for (int i = tid; i < 64 * 64; i += 128) {
    int r = i / 64, k = i % 64;
    *reinterpret_cast<uint16_t*>(sa + swizzle_128(r * 128 + k * 2)) = a[i];
  }
  for (int i = tid; i < 64 * N; i += 128) {
    int k = i / N, col = i % N;
    uint32_t at = (mode == 0 || mode == 4) ? swizzle_128(col * 128 + k * 2)
                                           : (col / 64) * 8192 + swizzle_128(k * 128 + (col % 64) * 2);
    *reinterpret_cast<uint16_t*>(sb + at) = b[i];
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  float d[64];
  for (int i = 0; i < 64; ++i) d[i] = 0.0f;
  const int warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  wgmma_fence();
  for (int s = 0; s < 4; ++s) {
    uint64_t a_desc = matrix_descriptor(shared_address(sa) + s * 32, 16, 1024, 1);
    uint64_t b_kmajor = matrix_descriptor(shared_address(sb) + s * 32, 16, 1024, 1);
    uint64_t b_mnmajor = matrix_descriptor(shared_address(sb) + s * 2048, 8192, 1024, 1);
    float (&d64)[32] = *reinterpret_cast<float(*)[32]>(d);
    if (mode == 0) wgmma_m64n64k16_f16<0>(d64, a_desc, b_kmajor, 1);
    if (mode == 1) wgmma_m64n64k16_f16<1>(d64, a_desc, b_mnmajor, 1);
    if (mode == 2) wgmma_m64n128k16_f16<1>(d, a_desc, b_mnmajor, 1);
    if (mode == 4) wgmma_m64n64k16_bf16<0>(d64, a_desc, b_kmajor, 1);
    if (mode == 3) {
      // a's fragment for rows 16 warp .. + 15, columns 16 s .. + 15, as mma.m16n8k16 lays it out.
      uint32_t af[4];
      for (int i = 0; i < 4; ++i) {
        int row = 16 * warp + g + 8 * (i % 2), col = 16 * s + 2 * t + 8 * (i / 2);
        af[i] = uint32_t(a[row * 64 + col]) | (uint32_t(a[row * 64 + col + 1]) << 16);
      }
      wgmma_m64n64k16_f16_rs(d64, af, b_mnmajor, 1);
    }
  }
  wgmma_commit();
  wgmma_wait<0>();
  for (int j = 0; j < N / 8; ++j)
    for (int e = 0; e < 4; ++e) {
      int row = 16 * warp + g + 8 * (e / 2), col = 8 * j + 2 * t + (e % 2);
      d_out[row * N + col] = d[4 * j + e];
    }
}

// The warp-specialized GEMM (hopper_gemm.cuh), as it should be.
__global__ void __launch_bounds__(hopper_gemm::THREADS, 1)
hopper_gemm_ws(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* c, int m,
               int n, int k) {
  hopper_gemm::run<hopper_gemm::Mistake::none>(&a_map, &b_map, c, m, n, k);
}

// Named barriers, elect.sync and setmaxnreg: warpgroup 0 shrinks its registers and produces a
// value per thread; warpgroups 1 and 2 grow theirs, wait on named barrier 1 for the producer
// (bar.arrive) and read what it wrote; one elected lane of each warp counts its warp.
__global__ void __launch_bounds__(384, 1) hopper_roles(int* out) {
  __shared__ int values[128];
  __shared__ int warps_seen;
  const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  if (threadIdx.x == 0) warps_seen = 0;
  __syncthreads();
  uint32_t leader, elected;
  asm volatile("{\n.reg .pred p;\nelect.sync %0|p, 0xffffffff;\nselp.u32 %1, 1, 0, p;\n}\n" : "=r"(leader), "=r"(elected));
  if (elected) atomicAdd(&warps_seen, 1);
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    values[tid] = 3 * tid + 1;
    asm volatile("bar.arrive 1, 384;\n" ::: "memory");
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    asm volatile("bar.sync 1, 384;\n" ::: "memory");
    out[threadIdx.x - 128] = values[tid] + 1000 * int(leader);
  }
  __syncthreads();
  if (threadIdx.x == 0) out[256] = warps_seen;
}

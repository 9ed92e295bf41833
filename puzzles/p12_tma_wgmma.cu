// Puzzle 12: TMA, mbarriers and wgmma
//
// Computes c = a · b for row-major half-precision matrices a (m × k) and b (k × n), with float
// sums and a float result c (m × n), the way Hopper GEMMs are written: the tensor memory
// accelerator (TMA) copies whole tiles into 128-byte-swizzled shared memory, a ring of STAGES
// stages is guarded by mbarriers that count the bytes as they land, and one warpgroup (four
// warps, 128 threads) multiplies 64 × 128 × 16 pieces with wgmma, reading both operands straight
// from shared memory through matrix descriptors. Any m >= 1 and n, k that are multiples of 8
// (each row a multiple of 16 bytes, as tensor maps require): the copies fill zeros past the edges.
//
// Launch: 1-D blocks of THREADS = 160 threads: warps 0-3 are the consumer warpgroup, warp 4 the
//   producer (its lane 0 issues every copy); a grid of ceil(n / BN) × ceil(m / BM) blocks, two
//   to an SM (__launch_bounds__(THREADS, 2)); SHARED_BYTES of dynamic shared memory: STAGES
//   a tiles (BM rows of BK halves: 128 bytes a row), then STAGES b tiles (BN / 64 blocks of BK
//   rows of 64 halves), then STAGES "full" and STAGES "empty" mbarriers.
//   The checker passes two tensor maps: a_map (a as {k, m}, boxes of BK × BM) and b_map (b as
//   {n, k}, boxes of 64 × BK), both with a 128-byte swizzle.
//   With S = ceil(k / BK) steps along k, step s uses stage s % STAGES, in its (s / STAGES)-th use:
//     producer: wait until the stage is empty (its empty barrier completed the previous use,
//       parity (s / STAGES + 1) % 2), announce A_BYTES + B_BYTES on its full barrier
//       (arrive.expect_tx), and start the copies of a's and b's tiles into it;
//     consumers: wait until the stage is full (parity (s / STAGES) % 2), then for each 16-wide
//       slice of k two wgmmas (rows 0-63 and 64-127 of the tile), commit them as one group;
//       wait until at most that group is in flight (wgmma.wait_group 1): step s - 1's group has
//       finished reading its stage, which one thread then releases (arrive on its empty barrier).
//   Last, each thread stores its sums that lie inside c.
// Constants: BM = BN = 128, BK = 64, STAGES = 3, THREADS = 160.
// Doc: docs/p12_tma_wgmma.md

#include <cstdint>

#include <cuda.h>
#include <cuda_fp16.h>

constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 64;
constexpr int STAGES = 3;
constexpr int THREADS = 160;
constexpr int A_BYTES = BM * BK * 2;  // one stage of a
constexpr int B_BYTES = BK * BN * 2;  // one stage of b
constexpr int SHARED_BYTES = STAGES * (A_BYTES + B_BYTES) + 2 * STAGES * 8;
static_assert(BK == 64, "a tile row is one 128-byte swizzle span");
static_assert(BM == 128 && BN % 64 == 0 && BN <= 256, "two m64 wgmmas of n = BN per slice of k");

// --- Hopper's instructions, as Hopper GEMMs wrap them ----------------------------------------

__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarrier_init(uint64_t* bar, int arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(arrivals));
}
// One arrival, and `bytes` more to wait for in the current phase.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t* bar, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbarrier_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(bar)) : "memory");
}
// Returns once the phase of parity `parity` has completed.
__device__ __forceinline__ void mbarrier_wait(uint64_t* bar, int parity) {
  asm volatile(
      "{\n.reg .pred done;\nWAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@done bra READY;\nbra WAIT;\nREADY:\n}\n" ::"r"(shared_address(bar)),
      "r"(parity)
      : "memory");
}
// Makes the mbarriers' initialization visible to the tensor copies (the async proxy).
__device__ __forceinline__ void fence_barrier_init() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// A box of `map` at column x, row y into shared memory at `dst`; its bytes complete `bar`.
__device__ __forceinline__ void tma_load(void* dst, const CUtensorMap* map, int x, int y, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          shared_address(dst)),
      "l"(map), "r"(x), "r"(y), "r"(shared_address(bar))
      : "memory");
}

// A shared-memory matrix descriptor: start address, leading and stride byte offsets, and
// the 128-byte swizzle (mode 1), in wgmma's bit fields.
__device__ __forceinline__ uint64_t descriptor(const void* start, uint32_t leading, uint32_t stride) {
  return uint64_t((shared_address(start) & 0x3FFFF) >> 4) | (uint64_t((leading & 0x3FFFF) >> 4) << 16) |
         (uint64_t((stride & 0x3FFFF) >> 4) << 32) | (uint64_t(1) << 62);
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
// Waits until at most N of this warpgroup's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// d (+)= a · b for 64 rows of a (K-major, through a_desc) and a 16 × 128 slice of b (MN-major:
// row-major b, through b_desc). d: the thread's 64 sums of the 64 × 128 result.
__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], uint64_t a_desc, uint64_t b_desc, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "%64, %65, p, 1, 1, 0, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a_desc), "l"(b_desc), "r"(accumulate));
}

// Stores one warpgroup's 64 × 128 result at (row0, col0) of c, inside c only. Thread t of
// the warpgroup holds rows 16 (t / 32) + (t % 32) / 4 (+ 8) and columns 8 j + 2 (t % 4) (+ 1).
__device__ __forceinline__ void store_tile(const float (&d)[64], float* c, int m, int n, int row0, int col0) {
  const int t = threadIdx.x % 128, row = row0 + 16 * (t / 32) + (t % 32) / 4;
#pragma unroll
  for (int j = 0; j < 16; ++j) {
    const int col = col0 + 8 * j + 2 * (t % 4);
    if (col >= n) continue;  // n is even: col + 1 < n too
#pragma unroll
    for (int h = 0; h < 2; ++h)
      if (row + 8 * h < m)
        *reinterpret_cast<float2*>(&c[size_t(row + 8 * h) * n + col]) = make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
  }
}

// --- The kernel ------------------------------------------------------------------------------

__global__ void __launch_bounds__(THREADS, 2)
matmul_tma_wgmma(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* c, int m,
                 int n, int k) {
  extern __shared__ __align__(1024) unsigned char shared[];
  __half* a_tiles = reinterpret_cast<__half*>(shared);                        // [STAGES][BM][BK], swizzled
  __half* b_tiles = reinterpret_cast<__half*>(shared + STAGES * A_BYTES);     // [STAGES][BN / 64][BK][64], swizzled
  uint64_t* full = reinterpret_cast<uint64_t*>(shared + STAGES * (A_BYTES + B_BYTES));
  uint64_t* empty = full + STAGES;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN, steps = (k + BK - 1) / BK;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(&full[s], 1);   // the producer's arrive.expect_tx; then the bytes
      mbarrier_init(&empty[s], 1);  // one consumer thread's release
    }
    fence_barrier_init();
  }
  __syncthreads();

  if (threadIdx.x >= 128) {  // the producer warp
    if (threadIdx.x == 128) {
      for (int s = 0; s < steps; ++s) {
        const int stage = s % STAGES, use = s / STAGES;
        // FILL ME IN (roughly 5 lines): wait until this stage is empty (parity: see the header),
        // announce the bytes that the copies will bring on full[stage], then copy a's BM x BK
        // box at column s * BK, row row0, and BN / 64 boxes of b (64 x BK each, at column
        // col0 + 64 j, row s * BK) into the stage, all completing full[stage].
        (void)stage, (void)use;
      }
    }
    return;
  }

  float top[64] = {}, bottom[64] = {};  // rows 0-63 and 64-127 of the block's tile
  for (int s = 0; s < steps; ++s) {
    const int stage = s % STAGES;
    const __half* a_tile = a_tiles + stage * BM * BK;
    const __half* b_tile = b_tiles + stage * (BN / 64) * BK * 64;
    // FILL ME IN (roughly 12 lines): wait until the stage is full; wgmma_fence(); for each
    // 16-wide slice kk of k, two wgmma_m64n128k16 (top and bottom 64 rows of a) with
    // descriptors of a_tile and b_tile (accumulate = s > 0 || kk > 0); wgmma_commit(); then
    // give back the stage of step s - 1, once no wgmma still reads it.
    (void)a_tile, (void)b_tile;
  }
  wgmma_wait<0>();
  // FILL ME IN (roughly 2 lines): store both 64-row halves of the tile with store_tile.
  (void)top, (void)bottom;
}

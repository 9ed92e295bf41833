// Puzzle 11: mma.sync, ldmatrix and swizzled multistage pipelines
//
// Computes c = a · b for row-major half-precision matrices a (m × k) and b (k × n), with float
// sums and a float result c (m × n), for any m, n, k >= 1, the way fast fp16 kernels are
// written by hand since Ampere: tiles come into shared memory through a pipeline of STAGES
// cp.async stages, XOR-swizzled so that ldmatrix reads them without bank conflicts, and
// warps multiply 16 × 8 × 16 pieces with mma.sync, all in inline PTX.
//
// Launch: 1-D blocks of THREADS = (BM / WM) · (BN / WN) · 32 threads; a grid of
//   ceil(n / BN) × ceil(m / BM) blocks; SHARED_BYTES of dynamic shared memory (the checker
//   first allows more than 48 KiB with cudaFuncSetAttribute): STAGES stages of an a tile
//   (BM rows of BK halves) then STAGES stages of a b tile (BK rows of BN halves), each row's
//   16-byte chunks in swizzled order: chunk j of row r is stored at chunk j ^ (r % 8).
//   Warp w computes rows (w / (BN / WN)) · WM + [0, WM) and columns (w % (BN / WN)) · WN + [0, WN)
//   of the block's BM × BN tile, as (WM / 16) × (WN / 8) mma.sync accumulators of 4 floats per
//   lane. With S = ceil(k / BK) steps along k:
//     1. start the copies of steps 0 .. STAGES - 2, one commit group each;
//     2. for each step s: wait until step s's group has landed (cp.async.wait_group
//        STAGES - 2), __syncthreads(); start the copies of step s + STAGES - 1 into the stage
//        that step s - 1 used; commit; then for each 16-wide slice of the tiles, load the
//        warp's fragments with ldmatrix (.trans for b) and mma.sync every pair.
//   Copies are 16 bytes when k % 8 == 0 and n % 8 == 0 (0 past the edges, by cp.async's
//   source size); otherwise the tiles are filled element by element. A block whose tiles never
//   reach an edge (k % BK == 0 and the tile inside c) copies through two pointers moved along k,
//   without a test per chunk. Last, each lane stores its sums that lie inside c.
// Constants: BM = BN = 128, BK = 64, WM = WN = 64, STAGES = 3, THREADS = 128.
// Doc: docs/p11_mma_sync.md

#include <cstdint>

#include <cuda_fp16.h>

constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 64;
constexpr int WM = 64;
constexpr int WN = 64;
constexpr int STAGES = 3;
constexpr int THREADS = (BM / WM) * (BN / WN) * 32;
constexpr int SHARED_BYTES = STAGES * (BM * BK + BK * BN) * 2;
static_assert(STAGES >= 2, "one stage is refilled while another is read");
static_assert(WM % 16 == 0 && WN % 16 == 0 && BK % 16 == 0 && BM % WM == 0 && BN % WN == 0, "whole fragments");
static_assert(BK * 2 % 128 == 0 && BN * 2 % 128 == 0, "rows of whole 128-byte lines: the swizzle permutes 8 chunks");
static_assert(BM * BK % (8 * THREADS) == 0 && BK * BN % (8 * THREADS) == 0, "copies of 8 halves split evenly");

// --- Inline PTX, as fast kernels wrap it ---------------------------------------------------

// The 32-bit address of a shared variable, as ldmatrix and cp.async take it.
__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Four 8 × 8 matrices of halves: lanes 8j .. 8j + 7 give the addresses of matrix j's rows
// (16 bytes each); each lane gets two halves of each matrix, one register per matrix.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

// The same, each matrix transposed on the way.
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

// d += a · b for a 16 × 16 piece of a (4 registers of 2 halves per lane), a 16 × 8 piece of b
// (2 registers) and a 16 × 8 piece of d (4 floats per lane).
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Copies 16 bytes from global to shared memory without waiting: the first `source_bytes` of
// them from `source`, the rest zeros (with 0, `source` is not read, but must be a valid address).
__device__ __forceinline__ void cp_async_16(uint32_t destination, const void* source, int source_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(destination), "l"(source), "r"(source_bytes));
}

// Closes the group of copies started since the last commit.
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

// Waits until at most N committed groups are still on their way (the newest ones).
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// --- The swizzle -----------------------------------------------------------------------------

// Byte offset of 16-byte chunk `chunk` of row `row` in a tile whose rows are ROW_BYTES long
// (a multiple of 128). ldmatrix reads one 16-byte chunk from each of 8 consecutive rows at
// once; with rows a multiple of 128 bytes apart, the same chunk of every row sits in the same
// 4 banks (8-way conflicts). XOR-ing the chunk with the row's last 3 bits sends those 8 rows to
// 8 different chunks: all 32 banks, one wavefront. A row's chunks only change places, so the
// copies stay 16-byte aligned and no memory is wasted.
template <int ROW_BYTES>
__device__ __forceinline__ uint32_t swizzle(int row, int chunk) {
  return row * ROW_BYTES + ((chunk ^ (row % 8)) * 16);
}

__global__ void __launch_bounds__(THREADS, 2)
matmul_mma_sync(const __half* a, const __half* b, float* c, int m, int n, int k) {
  constexpr int A_ROW = BK * 2, B_ROW = BN * 2;            // bytes per tile row
  constexpr int A_STAGE = BM * A_ROW, B_STAGE = BK * B_ROW;  // bytes per stage
  constexpr int MI = WM / 16, NI = WN / 8;                   // a warp's mma tiles
  extern __shared__ __align__(1024) unsigned char shared[];
  const uint32_t a_tiles = shared_address(shared), b_tiles = a_tiles + STAGES * A_STAGE;

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (BN / WN)) * WM, warp_col = (warp % (BN / WN)) * WN;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int steps = (k + BK - 1) / BK;
  // 16-byte copies need 16-byte aligned sources: rows of a are when k % 8 == 0, rows of b
  // when n % 8 == 0. The same for every thread, so the branch costs nothing.
  const bool copy16 = k % 8 == 0 && n % 8 == 0;
  // Most blocks of a large product never reach an edge: their tiles lie inside a and b at
  // every step. They skip the per-chunk tests and index arithmetic, which would take issue
  // slots from the mma.syncs every step: a thread's chunks are rows A_PASS (B_PASS) apart in
  // the same column, so one pointer per matrix, moved along k, finds them all.
  const bool interior = copy16 && row0 + BM <= m && col0 + BN <= n && k % BK == 0;
  constexpr int A_PASS = THREADS / (BK / 8), B_PASS = THREADS / (BN / 8);
  const int a_r = threadIdx.x / (BK / 8), a_chunk = threadIdx.x % (BK / 8);
  const int b_r = threadIdx.x / (BN / 8), b_chunk = threadIdx.x % (BN / 8);
  const __half* a_source = interior ? a + size_t(row0 + a_r) * k + 8 * a_chunk : a;
  const __half* b_source = interior ? b + size_t(b_r) * n + col0 + 8 * b_chunk : b;

  // Starts the copies of step `step` into stage `stage`: the a tile's rows, then the b tile's.
  auto load_step = [&](int stage, int step) {
    const int k0 = step * BK;
    const uint32_t a_stage = a_tiles + stage * A_STAGE, b_stage = b_tiles + stage * B_STAGE;
    if (interior) {
      const __half* from = a_source + k0;
#pragma unroll
      for (int l = 0; l < BM * BK / (8 * THREADS); ++l, from += size_t(A_PASS) * k)
        cp_async_16(a_stage + swizzle<A_ROW>(a_r + l * A_PASS, a_chunk), from, 16);
      from = b_source + size_t(k0) * n;
#pragma unroll
      for (int l = 0; l < BK * BN / (8 * THREADS); ++l, from += size_t(B_PASS) * n)
        cp_async_16(b_stage + swizzle<B_ROW>(b_r + l * B_PASS, b_chunk), from, 16);
    } else if (copy16) {
#pragma unroll
      for (int l = 0; l < BM * BK / (8 * THREADS); ++l) {
        int e = threadIdx.x + l * THREADS, r = e / (BK / 8), chunk = e % (BK / 8);
        bool inside = row0 + r < m && k0 + 8 * chunk < k;
        cp_async_16(a_stage + swizzle<A_ROW>(r, chunk), inside ? a + size_t(row0 + r) * k + k0 + 8 * chunk : a,
                    inside ? 16 : 0);
      }
#pragma unroll
      for (int l = 0; l < BK * BN / (8 * THREADS); ++l) {
        int e = threadIdx.x + l * THREADS, r = e / (BN / 8), chunk = e % (BN / 8);
        bool inside = k0 + r < k && col0 + 8 * chunk < n;
        cp_async_16(b_stage + swizzle<B_ROW>(r, chunk), inside ? b + size_t(k0 + r) * n + col0 + 8 * chunk : b,
                    inside ? 16 : 0);
      }
    } else {
      // Rows that do not start 16-byte aligned: element by element, through the same swizzle.
      unsigned char* a_bytes = shared + stage * A_STAGE;
      unsigned char* b_bytes = shared + STAGES * A_STAGE + stage * B_STAGE;
      for (int e = threadIdx.x; e < BM * BK; e += THREADS) {
        int r = e / BK, kk = e % BK;
        __half v = row0 + r < m && k0 + kk < k ? a[size_t(row0 + r) * k + k0 + kk] : __float2half(0.0f);
        *reinterpret_cast<__half*>(a_bytes + swizzle<A_ROW>(r, kk / 8) + 2 * (kk % 8)) = v;
      }
      for (int e = threadIdx.x; e < BK * BN; e += THREADS) {
        int r = e / BN, cc = e % BN;
        __half v = k0 + r < k && col0 + cc < n ? b[size_t(k0 + r) * n + col0 + cc] : __float2half(0.0f);
        *reinterpret_cast<__half*>(b_bytes + swizzle<B_ROW>(r, cc / 8) + 2 * (cc % 8)) = v;
      }
    }
  };

  float acc[MI][NI][4];
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

  // Fill the pipeline: steps 0 .. STAGES - 2, one group each (empty groups past the end, so
  // that every thread counts the same groups).
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < steps) load_step(s, s);
    cp_async_commit();
  }
  for (int s = 0; s < steps; ++s) {
    // Of the groups committed so far, step s's is the oldest of the newest STAGES - 1: once at
    // most STAGES - 2 are still on their way, it has landed for this thread; the barrier makes
    // that true for every thread, and says that nobody still reads step s - 1's stage.
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    const int next = s + STAGES - 1;
    if (next < steps) load_step(next % STAGES, next);
    cp_async_commit();

    const uint32_t a_stage = a_tiles + (s % STAGES) * A_STAGE, b_stage = b_tiles + (s % STAGES) * B_STAGE;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      uint32_t a_frag[MI][4], b_frag[NI][2];
      // a: the x4 matrices are rows 0-7 and 8-15 of chunk kk / 8, then of chunk kk / 8 + 1;
      // lane l gives row l % 16 of the first or second chunk.
#pragma unroll
      for (int i = 0; i < MI; ++i)
        ldmatrix_x4(a_frag[i], a_stage + swizzle<A_ROW>(warp_row + 16 * i + lane % 16, kk / 8 + lane / 16));
      // b is stored k-major (row kk of b_tile holds columns): .trans turns 8 × 8 blocks of it
      // into the column fragments mma wants. Lanes 0-7 give rows kk .. kk + 7, lanes 8-15 rows
      // kk + 8 .. kk + 15, of the columns j · 8 ..; lanes 16-31 the same for the next 8 columns.
#pragma unroll
      for (int j = 0; j < NI; j += 2) {
        uint32_t t[4];
        ldmatrix_x4_trans(t, b_stage + swizzle<B_ROW>(kk + lane % 16, (warp_col + 8 * j) / 8 + lane / 16));
        b_frag[j][0] = t[0], b_frag[j][1] = t[1], b_frag[j + 1][0] = t[2], b_frag[j + 1][1] = t[3];
      }
#pragma unroll
      for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j) mma_m16n8k16(acc[i][j], a_frag[i], b_frag[j][0], b_frag[j][1]);
    }
  }
  cp_async_wait<0>();  // nothing may still be on its way when the block ends

  // Lane l holds rows g and g + 8 (g = l / 4), columns 2 (l % 4) and + 1, of each 16 × 8 tile.
  const int g = lane / 4, t = lane % 4;
  const bool pairs = n % 2 == 0;  // float2 stores need 8-byte aligned rows
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = row0 + warp_row + 16 * i + g + 8 * h, col = col0 + warp_col + 8 * j + 2 * t;
        if (row >= m) continue;
        float* p = c + size_t(row) * n + col;
        if (pairs && col + 1 < n) {
          *reinterpret_cast<float2*>(p) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
        } else {
          if (col < n) p[0] = acc[i][j][2 * h];
          if (col + 1 < n) p[1] = acc[i][j][2 * h + 1];
        }
      }
}

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
  // FILL ME IN (1 line): this is the obvious layout, chunk `chunk` of row `row` where it
  // belongs; it works, with 8-way bank conflicts on every ldmatrix (--profile shows them).
  return row * ROW_BYTES + chunk * 16;
}

__global__ void __launch_bounds__(THREADS, 2)
matmul_mma_sync(const __half* a, const __half* b, float* c, int m, int n, int k) {
  // FILL ME IN (roughly 90 lines)
  // Lay out the dynamic shared memory and take its 32-bit address:
  //   extern __shared__ __align__(1024) unsigned char shared[];
  //   const uint32_t a_tiles = shared_address(shared), b_tiles = a_tiles + STAGES * BM * BK * 2;
  // float acc[WM / 16][WN / 8][4], set to 0. Start the copies of steps 0 .. STAGES - 2 (a commit
  // after each). Each step s: cp_async_wait<STAGES - 2>(); __syncthreads(); start step
  // s + STAGES - 1; commit; for kk = 0, 16, ...: ldmatrix_x4 the a fragments, ldmatrix_x4_trans
  // the b fragments (addresses through swizzle()), mma_m16n8k16 every pair. Then store the sums
  // inside c, as the header says.
}

// Puzzle 13: warp specialization, persistent tiles, clusters
//
// Computes c = a · b for row-major half-precision matrices a (m × k) and b (k × n), with float
// sums and a float result c (m × n), as the fastest Hopper GEMMs are organized: warpgroups with
// different jobs. A producer warpgroup gives most of its registers away (setmaxnreg) and one of
// its threads only issues tensor copies into a ring of STAGES stages; two consumer warpgroups
// take those registers and each multiplies a 64 × 256 half of the block's 128 × 256 tile with
// wgmma m64n256k16. The grid is persistent and made of clusters of CLUSTER = 2 blocks; the two
// blocks of a cluster compute two tiles on top of each other (tile rows 2p and 2p + 1, one tile
// column), so they need the same 64 × 256 slice of b at every step: each block copies half of it
// and the copy engine multicasts that half into both blocks' shared memory. Per step a block
// then reads 32 KiB from L2 instead of 48. A cluster walks its pairs of tiles in groups of
// GROUP_M pair rows, so that the pairs running at the same time share their rows of a and
// columns of b in the L2 cache, and walks k forward in one pair and backward in the next, so
// that each pair starts on the slices of a that the previous one read last, which L2 still
// holds. The sums leave through shared memory: each consumer warp writes
// 16 × 32 pieces of its rows into a staging buffer and a tensor store copies each piece to c,
// while the warp goes on to the next piece and then to the next tile. Any m >= 1 and n, k that
// are multiples of 8 (tensor maps need 16-byte rows); the copies fill zeros past the edges and
// the stores leave out what lies outside c.
//
// Launch: 1-D blocks of THREADS = 384 threads (warpgroup 0: producer; 1 and 2: consumers), in
//   clusters of CLUSTER × 1 × 1 blocks; a grid of CLUSTER · min(ceil(m / (CLUSTER · BM)) ·
//   ceil(n / BN), floor(SMS / CLUSTER)) blocks; SHARED_BYTES of dynamic shared memory: STAGES
//   a tiles (BM rows of BK halves), STAGES b tiles (BN / 64 blocks of BK rows of 64 halves),
//   the staging buffers (8 consumer warps × 2 × EPI_ROWS × EPI_COLS floats), then STAGES "full"
//   and STAGES "empty" mbarriers.
//   The checker passes a_map (a as {k, m}, boxes of BK × BM) and b_map (b as {n, k}, boxes of
//   64 × BK), both with a 128-byte swizzle, and c_map (c as {n, m} floats, boxes of EPI_COLS ×
//   EPI_ROWS = 32 × 16, 128-byte swizzle); c is the same matrix, which the kernel only writes
//   through c_map.
//   A cluster's pairs of tiles p = cluster, cluster + clusters, ... (pair_position gives the
//   pair's row and its column of tiles); block rank r of the cluster does tile row
//   2 · pair_row + r. Step s of the cluster's round-th pair copies block k_block(s, steps,
//   round) of k: s in even rounds, steps - 1 - s in odd ones.
//   Producer and consumers count the steps along k of all their tiles with one counter `step`,
//   in the same order: step uses stage step % STAGES, in its (step / STAGES)-th use.
//     producer (thread 0): wait until the stage is empty in both blocks (parity (use + 1) % 2),
//       announce A_BYTES + B_BYTES on its full barrier, copy a's box, and multicast boxes
//       2r and 2r + 1 of b's four into both blocks;
//     consumers: wait until the stage is full (parity use % 2), four wgmmas (one per 16-wide
//       slice of k) on its 64 rows, commit; wgmma.wait_group 1, then one thread of each
//       consumer releases the previous step's stage in both blocks of the cluster (empty
//       barriers count CONSUMERS · CLUSTER = 4 arrivals). At a tile's end: wait_group 0,
//       release the last stage, store the sums through the staging buffers.
// Constants: BM = 128, BN = 256, BK = 64, STAGES = 4, GROUP_M = 8, CLUSTER = 2, EPI_ROWS = 16,
//   EPI_COLS = 32, THREADS = 384.
// Doc: docs/p13_warp_specialization.md

#include <cstdint>

#include <cuda.h>
#include <cuda_fp16.h>

constexpr int BM = 128;
constexpr int BN = 256;
constexpr int BK = 64;
constexpr int STAGES = 4;
constexpr int GROUP_M = 8;
constexpr int CLUSTER = 2;
constexpr int EPI_ROWS = 16;
constexpr int EPI_COLS = 32;
constexpr int THREADS = 384;
constexpr int CONSUMERS = 2;
constexpr int A_BYTES = BM * BK * 2;                     // one stage of a
constexpr int B_BYTES = BK * BN * 2;                     // one stage of b
constexpr int EPI_BYTES = EPI_ROWS * EPI_COLS * 4;       // one staging buffer
constexpr int STAGING_BYTES = CONSUMERS * 4 * 2 * EPI_BYTES;  // two buffers per consumer warp
constexpr int SHARED_BYTES = STAGES * (A_BYTES + B_BYTES) + STAGING_BYTES + 2 * STAGES * 8;
static_assert(BK == 64 && BN == 256 && BM == 64 * CONSUMERS, "each consumer: one m64n256 wgmma per slice of k");
static_assert(CLUSTER == 2, "two blocks share each slice of b, each copies half of it");
static_assert(EPI_ROWS == 16 && EPI_COLS * 4 == 128, "a staging buffer: one warp's 16 rows, one 128-byte swizzle row each");

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
// One arrival on the barrier at the same place in the shared memory of block `rank` of the
// cluster (this block's own rank too): mapa turns our address into that block's. The arrive
// keeps its default .release.cta: the wgmmas that read the stage have finished (wait_group),
// so nothing is left to order before the other block's copies overwrite it, and
// .release.cluster would put a GPU-wide memory fence before every arrival, halving the speed.
__device__ __forceinline__ void mbarrier_arrive_cluster(uint64_t* bar, uint32_t rank) {
  asm volatile(
      "{\n.reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(shared_address(bar)),
      "r"(rank)
      : "memory");
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
// Makes the mbarriers' initialization visible to the tensor copies and to the other block of
// the cluster, whose copies and arrivals reach our barriers.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// Every thread of both blocks: what each did before is visible to the other after.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}
__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}

// A box of `map` at column x, row y into this block's shared memory at `dst`; its bytes
// complete `bar`.
__device__ __forceinline__ void tma_load(void* dst, const CUtensorMap* map, int x, int y, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          shared_address(dst)),
      "l"(map), "r"(x), "r"(y), "r"(shared_address(bar))
      : "memory");
}
// The same box into the shared memory of every block of the cluster whose bit is set in
// `blocks`, at the same offset `dst`; in each, its bytes complete the barrier at offset `bar`.
__device__ __forceinline__ void tma_load_multicast(void* dst, const CUtensorMap* map, int x, int y, uint64_t* bar,
                                                   uint16_t blocks) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(shared_address(dst)),
      "l"(map), "r"(x), "r"(y), "r"(shared_address(bar)), "h"(blocks)
      : "memory");
}
// The box of `map` at column x, row y from shared memory at `src`: the parts inside the tensor
// are written, the rest is left out. It joins this thread's open bulk group.
__device__ __forceinline__ void tma_store(const CUtensorMap* map, const void* src, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(map), "r"(x),
               "r"(y), "r"(shared_address(src))
               : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
// Waits until at most N of this thread's bulk groups still read their shared memory.
template <int N>
__device__ __forceinline__ void bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}
// Waits until all of this thread's bulk groups are complete (their writes done).
__device__ __forceinline__ void bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }
// Orders this thread's ordinary shared-memory writes before the tensor stores that read them.
__device__ __forceinline__ void fence_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
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

// d (+)= a · b for 64 rows of a (K-major, through a_desc) and a 16 × 256 slice of b (MN-major:
// row-major b, through b_desc). d: the thread's 128 sums of the 64 × 256 result.
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], uint64_t a_desc, uint64_t b_desc, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 "
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
      "%128, %129, p, 1, 1, 0, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(a_desc), "l"(b_desc), "r"(accumulate));
}

// Gives this warpgroup's threads `REGS` registers each (a multiple of 8 from 24 to 256): the
// producer lowers its count so that the consumers can raise theirs. All 128 threads of the
// warpgroup must execute it.
template <int REGS>
__device__ __forceinline__ void registers_down() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(REGS));
}
template <int REGS>
__device__ __forceinline__ void registers_up() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(REGS));
}

// --- The epilogue ------------------------------------------------------------------------------

// Thread t of a consumer warpgroup holds rows 16 (t / 32) + (t % 32) / 4 (+ 8) of its 64 and
// columns 8 j + 2 (t % 4) (+ 1), j = 0 .. 31: each warp holds 16 whole rows.

// Stores one warp's 16 rows (of a consumer's 64 × 256 result) at (row0, col0) of c, in pieces of
// 16 × 32 floats: the warp writes a piece into one of its two staging buffers, and lane 0 starts
// a tensor store of it. Before a buffer is written again, the store that read it two pieces ago
// must have finished reading. The buffer is laid out as c_map's 128-byte swizzle expects: the
// 16-byte group g of row r sits at group g ^ (r % 8), so the 8 rows a warp writes at once fall
// on different banks.
__device__ __forceinline__ void store_rows_shared(const float (&d)[128], float* staging, const CUtensorMap* c_map,
                                                  int row0, int col0) {
  const int lane = threadIdx.x % 32, r = lane / 4;  // rows r and r + 8 of the warp's 16
#pragma unroll
  for (int piece = 0; piece < BN / EPI_COLS; ++piece) {
    float* buffer = staging + (piece % 2) * EPI_ROWS * EPI_COLS;
    if (lane == 0) bulk_wait_read<1>();
    __syncwarp();
#pragma unroll
    for (int jj = 0; jj < EPI_COLS / 8; ++jj) {
      const int j = piece * EPI_COLS / 8 + jj, group = 2 * jj + (lane % 4) / 2;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = r + 8 * h;
        *reinterpret_cast<float2*>(&buffer[row * EPI_COLS + 4 * (group ^ (row % 8)) + 2 * (lane % 2)]) =
            make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
      }
    }
    fence_async_shared();
    __syncwarp();
    if (lane == 0) {
      tma_store(c_map, buffer, col0 + piece * EPI_COLS, row0);
      bulk_commit();
    }
  }
}

// --- The tile order ----------------------------------------------------------------------------

// Pair p's row of pairs (a cluster's two tiles on top of each other) and column of tiles, in
// groups of GROUP_M pair rows: down a group's rows first, then to its next column, so that the
// pairs in flight at once reuse a's rows and b's columns.
__device__ __forceinline__ void pair_position(int p, int pairs_m, int tiles_n, int& pair_row, int& pair_col) {
  // FILL ME IN (roughly 4 lines): this is row-major order (along a row of pairs first): correct, and
  // slower at large sizes, because the pairs in flight at once share less of a and b in L2.
  pair_row = p / tiles_n;
  pair_col = p % tiles_n;
  (void)pairs_m;
}

// Which block of k step s of a cluster's round-th pair copies: forward in even rounds, backward
// in odd ones. The pairs of one round run at the same time and end on the last blocks of k of
// their rows of a; most of the next round's pairs share those rows (the same group), so
// starting there finds those slices in L2 instead of in device memory. The sums are the same
// in either order, up to rounding (the checker's tolerance allows for it).
__device__ __forceinline__ int k_block(int s, int steps, int round) { return round % 2 == 0 ? s : steps - 1 - s; }

// --- The kernel --------------------------------------------------------------------------------

__global__ void __launch_bounds__(THREADS, 1)
matmul_warp_specialized(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                        const __grid_constant__ CUtensorMap c_map, float* c, int m, int n, int k) {
  extern __shared__ __align__(1024) unsigned char shared[];
  __half* a_tiles = reinterpret_cast<__half*>(shared);                     // [STAGES][BM][BK], swizzled
  __half* b_tiles = reinterpret_cast<__half*>(shared + STAGES * A_BYTES);  // [STAGES][BN / 64][BK][64], swizzled
  float* staging = reinterpret_cast<float*>(shared + STAGES * (A_BYTES + B_BYTES));  // [8 warps][2][16][32]
  uint64_t* full = reinterpret_cast<uint64_t*>(shared + STAGES * (A_BYTES + B_BYTES) + STAGING_BYTES);
  uint64_t* empty = full + STAGES;
  const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN, steps = (k + BK - 1) / BK;
  // A cluster's pair of tiles: tile rows 2 pair_row and 2 pair_row + 1 (the second may lie
  // past m: its copies bring zeros and its stores write nothing, and the first still needs
  // the half of b that it copies).
  const int pairs_m = (tiles_m + CLUSTER - 1) / CLUSTER;
  const int cluster = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;
  const int rank = int(cluster_rank());
  const int warpgroup = threadIdx.x / 128;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(&full[s], 1);                     // our producer's arrive.expect_tx; then the bytes
      mbarrier_init(&empty[s], CONSUMERS * CLUSTER);  // one thread of each consumer of each block
    }
    fence_barrier_init();
  }
  // FILL ME IN (roughly 1 line): the other block's copies and arrivals may reach our barriers only
  // once they exist: wait for both blocks of the cluster here.

  if (warpgroup == 0) {
    // FILL ME IN (roughly 18 lines): give registers away (all 128 threads), then thread 0 walks
    // the cluster's pairs (p = cluster, cluster + clusters, ...; this block's tile row is
    // CLUSTER * pair_row + rank) and, for each step along k, waits until stage step % STAGES is
    // empty, announces A_BYTES + B_BYTES on its full barrier, copies a's BM x BK box, and
    // multicasts its half of b's BN / 64 boxes (rank 0: boxes 0 and 1; rank 1: 2 and 3) into both
    // blocks with tma_load_multicast(..., 0b11). One counter `step` over all pairs; step s of the
    // cluster's round-th pair copies block k_block(s, steps, round) of k (s itself also passes).
    (void)a_tiles, (void)b_tiles, (void)pairs_m, (void)clusters, (void)rank;
  } else {
    // FILL ME IN (roughly 1 line): take the registers the producer gave away.
    const int consumer = warpgroup - 1, warp = (threadIdx.x / 32) % 4;
    float* my_staging = staging + (consumer * 4 + warp) * 2 * EPI_ROWS * EPI_COLS;
    // Gives a stage back to the producers of both blocks.
    auto release = [&](int stage) {
      // FILL ME IN (roughly 2 lines): one thread of the warpgroup arrives on empty[stage] of every
      // block of the cluster (mbarrier_arrive_cluster with each rank).
      (void)stage;
    };
    float d[128] = {};
    int step = 0;
    for (int p = cluster; p < pairs_m * tiles_n; p += clusters) {
      int pair_row, pair_col;
      pair_position(p, pairs_m, tiles_n, pair_row, pair_col);
      const int tile_row = CLUSTER * pair_row + rank, tile_col = pair_col;
      for (int s = 0; s < steps; ++s, ++step) {
        const int stage = step % STAGES;
        const __half* a_rows = a_tiles + stage * BM * BK + consumer * 64 * BK;
        const __half* b_tile = b_tiles + stage * (BN / 64) * BK * 64;
        // FILL ME IN (roughly 8 lines): wait until the stage is full; four wgmma_m64n256k16 on this
        // consumer's 64 rows (accumulate = s > 0 || kk > 0); commit; then release the previous
        // step's stage once no wgmma reads it.
        (void)a_rows, (void)b_tile, (void)release;
      }
      // FILL ME IN (roughly 2 lines): wait for this tile's last wgmmas and release its last stage.
      // FILL ME IN (roughly 1 line): store this warp's 16 rows with store_rows_shared (its rows of c
      // start at tile_row * BM + consumer * 64 + 16 * warp, its columns at tile_col * BN).
      (void)d, (void)my_staging, (void)tile_row, (void)tile_col;
    }
    // Our shared memory must outlive the stores that read it.
    if (threadIdx.x % 32 == 0) bulk_wait_all();
  }
  // Nor may it go while the other block's copies and arrivals can still reach it.
  __syncwarp();
  cluster_sync();
}

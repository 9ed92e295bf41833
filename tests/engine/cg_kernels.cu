// Cooperative groups on both backends: every function of a block and of tiles of 1 to 32
// threads, written to `out` per thread for the host to check; and three mistakes the CPU
// backend finds (a tile sync one thread skips, a block sync one thread skips, a missing tile
// sync). test_cg.cpp checks the lines of the mistakes: keep them where they are.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

constexpr int kBlockFields = 12;  // per thread, cg_block
constexpr int kTileFields = 20;   // per thread, cg_tiles_N

// A value wider than a shuffle's 8 bytes.
struct Wide {
  double a;
  int b;
  float c[3];
};

// Per thread: thread_rank, size, num_threads, group_index.x, .y, thread_index.x, .y,
// dim_threads.x, .y; thread_group's thread_rank and size; then the rank of the thread whose
// value it read after the block barriers (the reversed rank).
__global__ void cg_block(int* out) {
  __shared__ int ranks[256];
  cg::thread_block block = cg::this_thread_block();
  const unsigned rank = block.thread_rank();
  int* o = out + (blockIdx.y * gridDim.x + blockIdx.x) * 256 * kBlockFields + rank * kBlockFields;
  o[0] = static_cast<int>(rank);
  o[1] = static_cast<int>(block.size());
  o[2] = static_cast<int>(block.num_threads());
  o[3] = static_cast<int>(block.group_index().x);
  o[4] = static_cast<int>(block.group_index().y);
  o[5] = static_cast<int>(block.thread_index().x);
  o[6] = static_cast<int>(block.thread_index().y);
  o[7] = static_cast<int>(block.dim_threads().x);
  o[8] = static_cast<int>(block.dim_threads().y);
  const cg::thread_group group = block;
  o[9] = static_cast<int>(group.thread_rank());
  o[10] = static_cast<int>(group.size());
  ranks[rank] = static_cast<int>(rank);
  block.sync();
  const int reversed = ranks[block.size() - 1 - rank];
  cg::sync(block);
  ranks[rank] = reversed;
  group.sync();
  o[11] = ranks[block.size() - 1 - rank] + (cg::this_thread().thread_rank() == 0 && cg::this_thread().size() == 1 ? 0 : 1000);
}

// Per thread, for tiles of N threads of a block of 128 (4 x 32):
//  0 thread_rank  1 size  2 num_threads  3 meta_group_rank  4 meta_group_size
//  5 shfl(v, (rank + 1) % N)  6 shfl_up(v, 1)  7 shfl_down(v, 1)  8 shfl_xor(v, N / 2)
//  9 any(rank == 1)  10 all(rank < N)  11 all(rank != 0)  12 ballot(rank % 2 == 0)
// 13 a Wide shuffled from rank N - 1 - rank (its b)  14 its a as an int  15 its c[2]
// 16 the value the tile's next thread wrote to shared memory before tile.sync()
// 17 the meta_group_rank and 18 meta_group_size of tiled_partition<N / 2> of the tile
//    (0 and 1 for N == 1, which has no smaller tile), 19 thread_rank + 100 * size of the dynamic tiled_partition(block, N)
template <unsigned N>
__device__ void tile_functions(int* out) {
  __shared__ int values[128];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  const int rank = static_cast<int>(tile.thread_rank());
  const int v = static_cast<int>(block.thread_rank()) * 10;
  int* o = out + block.thread_rank() * kTileFields;
  o[0] = rank;
  o[1] = static_cast<int>(tile.size());
  o[2] = static_cast<int>(tile.num_threads());
  o[3] = static_cast<int>(tile.meta_group_rank());
  o[4] = static_cast<int>(tile.meta_group_size());
  o[5] = tile.shfl(v, (rank + 1) % static_cast<int>(N));
  o[6] = tile.shfl_up(v, 1);
  o[7] = tile.shfl_down(v, 1);
  o[8] = tile.shfl_xor(v, N / 2);
  o[9] = tile.any(rank == 1);
  o[10] = tile.all(rank < static_cast<int>(N));
  o[11] = tile.all(rank != 0);
  o[12] = static_cast<int>(tile.ballot(rank % 2 == 0));
  Wide w;
  w.a = v + 0.5;
  w.b = v + 1;
  w.c[0] = 0.0f;
  w.c[1] = 1.0f;
  w.c[2] = static_cast<float>(v + 2);
  const Wide got = tile.shfl(w, static_cast<int>(N) - 1 - rank);
  o[13] = got.b;
  o[14] = static_cast<int>(got.a);
  o[15] = static_cast<int>(got.c[2]);
  values[block.thread_rank()] = v;
  tile.sync();
  o[16] = values[block.thread_rank() - rank + (rank + 1) % static_cast<int>(N)];
  if constexpr (N > 1) {
    auto half = cg::tiled_partition<N / 2>(tile);
    o[17] = static_cast<int>(half.meta_group_rank());
    o[18] = static_cast<int>(half.meta_group_size());
  } else {
    o[17] = 0;
    o[18] = 1;
  }
  const cg::thread_group dynamic = cg::tiled_partition(block, N);
  dynamic.sync();
  o[19] = static_cast<int>(dynamic.thread_rank() + 100 * dynamic.size());
}

__global__ void cg_tiles_1(int* out) { tile_functions<1>(out); }
__global__ void cg_tiles_2(int* out) { tile_functions<2>(out); }
__global__ void cg_tiles_4(int* out) { tile_functions<4>(out); }
__global__ void cg_tiles_8(int* out) { tile_functions<8>(out); }
__global__ void cg_tiles_16(int* out) { tile_functions<16>(out); }
__global__ void cg_tiles_32(int* out) { tile_functions<32>(out); }

// Mistakes (CPU backend only: on a GPU they hang or race).
__global__ void cg_tile_sync_skipped(int* out) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  if (tile.thread_rank() == 3) return;
  tile.sync();  // thread 3's tile waits here for it
  out[threadIdx.x] = 1;
}

__global__ void cg_block_sync_skipped(int* out) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 40) return;
  block.sync();  // thread 40 never arrives
  out[threadIdx.x] = 1;
}

__global__ void cg_tile_sync_missing(int* out) {
  __shared__ int values[64];
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  values[threadIdx.x] = static_cast<int>(threadIdx.x);
  out[threadIdx.x] = values[threadIdx.x ^ 1];  // no tile.sync() before
}

// Coalesced groups, partitions, reductions, scans and the grid's ranks, per thread of blocks of 96
// (three full warps), v = 1000 * blockIdx.x + 3 * threadIdx.x + 1; test_cg.cpp computes each from
// CUDA's definitions:
//  0 size and 1 thread_rank of the coalesced group of the lanes of the same parity (each side of
//  a branch calls coalesced_threads()), then in it: 2 shfl(v, 0)  3 shfl_up(v, 1)
//  4 shfl_down(v, 1)  5 ballot(rank % 2 == 0)  6 any(rank == 1)  7 all(v > 0)  8 reduce(v, less)
//  9 inclusive_scan(1)
// 10 size, 11 thread_rank and 12 reduce(v, plus) of labeled_partition(tile of 32, lane % 3)
// 13 reduce(v, greater) of binary_partition(tile of 32, lane < 5)
// 14 inclusive_scan(v) and 15 exclusive_scan(v) over a tile of 8
// 16 reduce(v, bit_xor) over a tile of 16, 17 reduce(v, a lambda's max) over a tile of 32
// 18 grid thread_rank  19 grid size  20 grid block_rank  21 grid num_blocks
constexpr int kGroupFields = 22;

__device__ void coalesced_fields(const cg::coalesced_group& g, int v, int* o) {
  const int rank = static_cast<int>(g.thread_rank());
  o[0] = static_cast<int>(g.size());
  o[1] = rank;
  o[2] = g.shfl(v, 0);
  o[3] = g.shfl_up(v, 1);
  o[4] = g.shfl_down(v, 1);
  o[5] = static_cast<int>(g.ballot(rank % 2 == 0));
  o[6] = g.any(rank == 1);
  o[7] = g.all(v > 0);
  o[8] = cg::reduce(g, v, cg::less<int>());
  o[9] = cg::inclusive_scan(g, 1);
}

__global__ void cg_groups(int* out) {
  cg::thread_block block = cg::this_thread_block();
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int v = 1000 * static_cast<int>(blockIdx.x) + 3 * static_cast<int>(threadIdx.x) + 1;
  int* o = out + (blockIdx.x * 96 + threadIdx.x) * kGroupFields;
  if (lane % 2 == 0) {
    coalesced_fields(cg::coalesced_threads(), v, o);
  } else {
    coalesced_fields(cg::coalesced_threads(), v, o);
  }
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const cg::coalesced_group thirds = cg::labeled_partition(warp, lane % 3);
  o[10] = static_cast<int>(thirds.size());
  o[11] = static_cast<int>(thirds.thread_rank());
  o[12] = cg::reduce(thirds, v, cg::plus<int>());
  o[13] = cg::reduce(cg::binary_partition(warp, lane < 5), v, cg::greater<int>());
  cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
  o[14] = cg::inclusive_scan(eight, v);
  o[15] = cg::exclusive_scan(eight, v);
  o[16] = cg::reduce(cg::tiled_partition<16>(block), v, cg::bit_xor<int>());
  o[17] = cg::reduce(warp, v, [](int a, int b) { return a < b ? b : a; });
  cg::grid_group grid = cg::this_grid();
  o[18] = static_cast<int>(grid.thread_rank());
  o[19] = static_cast<int>(grid.size());
  o[20] = static_cast<int>(grid.block_rank());
  o[21] = static_cast<int>(grid.num_blocks());
}

// Lanes 20 to 31 of each warp return first: coalesced_threads() groups the 20 that remain.
// Per thread: 0 size  1 thread_rank  2 reduce(threadIdx.x, plus)
__global__ void cg_coalesced_after_return(int* out) {
  if (threadIdx.x % 32 >= 20) return;
  cg::coalesced_group active = cg::coalesced_threads();
  out[threadIdx.x * 3 + 0] = static_cast<int>(active.size());
  out[threadIdx.x * 3 + 1] = static_cast<int>(active.thread_rank());
  out[threadIdx.x * 3 + 2] = cg::reduce(active, static_cast<int>(threadIdx.x), cg::plus<int>());
}

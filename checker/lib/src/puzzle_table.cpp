// Every puzzle of the course, in order.
#include <stdexcept>

#include "checker/puzzle.h"

namespace checker {
namespace {

constexpr unsigned kTile = 16;

unsigned ceil_div(int n, unsigned d) { return (static_cast<unsigned>(n) + d - 1) / d; }

engine::LaunchConfig tile_grid(int n) {
  return {engine::Dim3(ceil_div(n, kTile), ceil_div(n, kTile)), engine::Dim3(kTile, kTile)};
}
engine::LaunchConfig one_block_per_row(int n) {
  return {engine::Dim3(static_cast<unsigned>(n)), engine::Dim3(256)};
}
engine::LaunchConfig single_block(int) { return {engine::Dim3(1), engine::Dim3(3, 3)}; }

std::uint64_t no_budget(int) { return 0; }
// Stage ⌈n/256⌉ elements of the row, then read n elements of b for each of ⌈n/256⌉ columns.
std::uint64_t row_budget(int n) { return std::uint64_t{ceil_div(n, 256)} * (static_cast<std::uint64_t>(n) + 1); }
// Each thread's share of TILE whole rows of a and TILE whole columns of b.
std::uint64_t row_col_budget(int n) { return 2ull * ceil_div(static_cast<int>(kTile) * n, kTile * kTile); }
// One element of each tile per step along k.
std::uint64_t tile_budget(int n) { return 2ull * ceil_div(n, kTile); }
std::uint64_t single_block_budget(int) { return 2; }

std::vector<PuzzleSpec> make_table() {
  std::vector<PuzzleSpec> t;
  t.push_back({1, "p01_naive", "Naive matrix multiplication", "matmul_naive", KernelShape::matmul, "c", "n",
               4, {1, 16, 33, 100, 256}, {1, 16, 33, 100, 1000, 1024}, 0, tile_grid,
               "blocks of 16 x 16 threads, a grid of ceil(n/16) x ceil(n/16) blocks", no_budget, "", "",
               "threads outside the matrix must not touch it: guard with if (row < n && col < n)"});
  t.push_back({2, "p02_single_row_shared", "One row of A in shared memory", "matmul_single_row_shared",
               KernelShape::matmul, "c", "n", 4, {1, 5, 100, 300, 1024}, {1, 5, 100, 300, 1000, 1024}, 1024,
               one_block_per_row, "one block of 256 threads per row of c (n blocks)", row_budget,
               "ceil(n/256)·(n+1)",
               "each thread copies ceil(n/256) elements of the row and reads only b from global "
               "memory, n elements for each of its ceil(n/256) columns",
               "stop the copy and column loops at n: for (int k = threadIdx.x; k < n; k += blockDim.x)"});
  t.push_back({3, "p03_row_col_shared", "TILE rows of A and TILE columns of B in shared memory",
               "matmul_row_col_shared", KernelShape::matmul, "c", "n", 4, {1, 16, 50, 128, 256},
               {1, 16, 50, 128, 200, 256}, 256, tile_grid,
               "blocks of 16 x 16 threads, a grid of ceil(n/16) x ceil(n/16) blocks", row_col_budget,
               "2·ceil(n/16)",
               "the block's 256 threads share the copy of 16 rows of a and 16 columns of b "
               "(2·16·n elements), and then read only shared memory",
               "rows and columns past n do not exist: write 0 to shared memory for them, and "
               "store only if (row < n && col < n)"});
  t.push_back({4, "p04_tiled", "Tiled matrix multiplication", "matmul_tiled", KernelShape::matmul, "c", "n", 4,
               {1, 16, 33, 100, 257}, {1, 16, 33, 100, 1000, 1024}, 0, tile_grid,
               "blocks of 16 x 16 threads, a grid of ceil(n/16) x ceil(n/16) blocks", tile_budget,
               "2·ceil(n/16)",
               "each thread loads one element of the a tile and one of the b tile per step, and "
               "there are ceil(n/16) steps",
               "tiles hang over the edge when n is not a multiple of 16: load 0 for those "
               "elements, and store only if (row < n && col < n)"});
  t.push_back({5, "p05_single_block_aat", "A · Aᵀ in a single block, with bounds guards", "single_block_matmul",
               KernelShape::single_aat, "out", "size", 2, {1, 2, 3}, {1, 2, 3}, 3, single_block,
               "one block of 3 x 3 threads (TPB = 3) for a size x size matrix", single_block_budget, "2",
               "each thread inside the matrix copies one element of a and one of b",
               "the block is larger than the matrix: guard with if (row < size && col < size)"});
  return t;
}

}  // namespace

const std::vector<PuzzleSpec>& puzzle_table() {
  static const std::vector<PuzzleSpec> table = make_table();
  return table;
}

const PuzzleSpec& find_puzzle(const std::string& id) {
  for (const PuzzleSpec& p : puzzle_table())
    if (p.id == id) return p;
  throw engine::Error("no puzzle is called " + id);
}

}  // namespace checker

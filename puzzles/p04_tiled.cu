// Puzzle 4: tiled matrix multiplication
//
// Computes c = a · b for n × n row-major float matrices, for any n. Each block computes
// one TILE × TILE block of c by stepping a pair of TILE × TILE tiles along k.
//
// Launch: blocks of TILE × TILE threads; a grid of ceil(n / TILE) × ceil(n / TILE) blocks.
//   For each step along k:
//     1. every thread loads one element of the a tile and one of the b tile
//        (0 where the tile hangs over the edge of the matrix);
//     2. barrier: the tiles are complete;
//     3. every thread adds TILE products from the tiles to its sum;
//     4. barrier: nobody still reads the tiles when the next step overwrites them.
// Constants: TILE = 16.
// Doc: docs/p04_tiled.md

constexpr int TILE = 16;

__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  // FILL ME IN (roughly 14 lines)
  // Declare the tiles:   __shared__ float a_tile[TILE][TILE];
  //                      __shared__ float b_tile[TILE][TILE];
  // Loop over the tiles along k: load one element of each tile (0 past the edge),
  // __syncthreads(), add TILE products, __syncthreads() again. Store the sum last.
}

// Puzzle 3: TILE rows of A and TILE columns of B in shared memory
//
// Computes c = a · b for n × n row-major float matrices. Each block computes one
// TILE × TILE block of c, so it needs TILE whole rows of a and TILE whole columns of b.
//
// Launch: blocks of TILE × TILE threads; a grid of ceil(n / TILE) × ceil(n / TILE) blocks.
//   1. All threads of the block copy the TILE rows of a (a_rows) and the TILE columns
//      of b (b_cols) into shared memory, writing 0 where a row or column is past n.
//   2. Barrier.
//   3. Each thread computes its element of c from shared memory only.
// Constants: TILE = 16; MAX_N = 256 sizes the shared arrays (2 × 16 × 256 × 4 B = 32 KiB).
// Doc: docs/p03_row_col_shared.md

constexpr int TILE = 16;
constexpr int MAX_N = 256;

__global__ void matmul_row_col_shared(const float* a, const float* b, float* c, int n) {
  // FILL ME IN (roughly 18 lines)
  // Declare the shared arrays:   __shared__ float a_rows[TILE][MAX_N];
  //                              __shared__ float b_cols[MAX_N][TILE];
  // Fill them with all TILE * TILE threads (0 past the edge of the matrix),
  // __syncthreads(), then compute this thread's element from shared memory only.
}

// Puzzle 5: A · Aᵀ in a single block, with bounds guards
//
// Computes out = a · b for size × size row-major float matrices, where b is the
// transpose of a. One block does it all, and the block is larger than the matrix.
//
// Launch: one block of TPB × TPB threads; threadIdx.y is the row, threadIdx.x the column.
//   1. Threads inside the matrix copy their element of a and of b into shared memory.
//   2. Barrier (every thread of the block reaches it).
//   3. Threads inside the matrix compute and store their element of out.
// Constants: TPB = 3 threads per block side; SIZE = 2 for the worked example
//   (size <= TPB). With a = [0, 1, 2, 3], out is [1, 3, 3, 13].
// Doc: docs/p05_single_block_aat.md

constexpr int TPB = 3;
constexpr int SIZE = 2;

__global__ void single_block_matmul(float* out, const float* a, const float* b, int size) {
  // FILL ME IN (roughly 12 lines)
  // Declare the shared copies:   __shared__ float a_shared[TPB][TPB];
  //                              __shared__ float b_shared[TPB][TPB];
  // Guard every load and the store with the size, but let every thread of the
  // block reach the same __syncthreads().
}

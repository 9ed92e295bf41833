// Puzzle 2: one row of A in shared memory
//
// Computes c = a · b for n × n row-major float matrices. Block r computes row r of c.
//
// Launch: one block per row (blockIdx.x is the row), 256 threads per block.
//   1. All 256 threads copy row r of a into shared memory together.
//   2. Barrier.
//   3. Each thread computes elements of row r of c from the shared row and from b,
//      striding over the columns when n > 256.
// Constants: MAX_N = 1024 sizes the shared row; n <= MAX_N.
// Doc: docs/p02_single_row_shared.md

constexpr int MAX_N = 1024;

__global__ void matmul_single_row_shared(const float* a, const float* b, float* c, int n) {
  // FILL ME IN (roughly 9 lines)
  // Declare the shared row:   __shared__ float a_row[MAX_N];
  // Copy row blockIdx.x of a into it, all threads together; __syncthreads();
  // then each thread computes the columns threadIdx.x, threadIdx.x + blockDim.x, ...
}

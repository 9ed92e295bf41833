// Broken on purpose: the barrier is inside the guard, so the threads outside the matrix
// never reach it. Expected finding: barrier divergence, naming both groups.
//
// Checker: (no options)
// Expect: Barrier divergence in block (0,0): 4 threads ((0,0), (1,0), (0,1), (1,1)) wait at __syncthreads() at line 23 of p05_barrier_in_if.cu, while 5 threads ((2,0), (2,1), (0,2), (1,2), (2,2)) have returned.
//
// Change to solutions/p05_single_block_aat.cu:
// --- solutions/p05_single_block_aat.cu
// +++ p05_barrier_in_if.cu
// @@ -12,7 +12,6 @@
//  // Doc: docs/p05_single_block_aat.md
//
//  constexpr int TPB = 3;
// -constexpr int SIZE = 2;
//
//  __global__ void single_block_matmul(float* out, const float* a, const float* b, int size) {
//    __shared__ float a_shared[TPB][TPB];
// @@ -21,9 +20,7 @@
//    if (row < size && col < size) {
//      a_shared[row][col] = a[row * size + col];
//      b_shared[row][col] = b[row * size + col];
// -  }
// -  __syncthreads();
// -  if (row < size && col < size) {
// +    __syncthreads();
//      float sum = 0.0f;
//      for (int k = 0; k < size; ++k) sum += a_shared[row][k] * b_shared[k][col];
//      out[row * size + col] = sum;

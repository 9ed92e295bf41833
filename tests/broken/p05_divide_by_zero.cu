// Broken on purpose: the column count per thread is computed as an integer division by a
// quantity that is 0. Expected finding: a crash (integer division by zero), with the thread.
//
// Checker: (no options)
// Expect: Crash in thread (0,0) of block (0,0)
// Expect: an integer division by zero
//
// Change to solutions/p05_single_block_aat.cu:
// --- solutions/p05_single_block_aat.cu
// +++ p05_divide_by_zero.cu
// @@ -12,12 +12,12 @@
//  // Doc: docs/p05_single_block_aat.md
//
//  constexpr int TPB = 3;
// -constexpr int SIZE = 2;
//
//  __global__ void single_block_matmul(float* out, const float* a, const float* b, int size) {
//    __shared__ float a_shared[TPB][TPB];
//    __shared__ float b_shared[TPB][TPB];
//    int row = threadIdx.y, col = threadIdx.x;
// +  int threads_per_element = static_cast<int>(blockDim.x) / TPB - 1;  // 0
//    if (row < size && col < size) {
//      a_shared[row][col] = a[row * size + col];
//      b_shared[row][col] = b[row * size + col];
// @@ -25,7 +25,7 @@
//    __syncthreads();
//    if (row < size && col < size) {
//      float sum = 0.0f;
// -    for (int k = 0; k < size; ++k) sum += a_shared[row][k] * b_shared[k][col];
// +    for (int k = 0; k < size; k += size / threads_per_element) sum += a_shared[row][k] * b_shared[k][col];
//      out[row * size + col] = sum;
//    }
//  }

// Broken on purpose: no guards, though the 3 x 3 block is larger than the 2 x 2 matrix.
// Expected finding: out-of-bounds read (on the GPU: the write is caught by the canaries).
//
// Checker: (no options)
// Expect: Out-of-bounds read: thread (2,1) of block (0,0) read a[4] at line 20 of p05_missing_guard.cu, but a has 4 elements (a[0] to a[3]); as a 2 x 2 matrix, index 4 would be (row 2, col 0)
// Expect: guard with if (row < size && col < size)
// Needs: instrumented kernels
//
// Change to solutions/p05_single_block_aat.cu:
// --- solutions/p05_single_block_aat.cu
// +++ p05_missing_guard.cu
// @@ -12,20 +12,15 @@
//  // Doc: docs/p05_single_block_aat.md
//
//  constexpr int TPB = 3;
// -constexpr int SIZE = 2;
//
//  __global__ void single_block_matmul(float* out, const float* a, const float* b, int size) {
//    __shared__ float a_shared[TPB][TPB];
//    __shared__ float b_shared[TPB][TPB];
//    int row = threadIdx.y, col = threadIdx.x;
// -  if (row < size && col < size) {
// -    a_shared[row][col] = a[row * size + col];
// -    b_shared[row][col] = b[row * size + col];
// -  }
// +  a_shared[row][col] = a[row * size + col];
// +  b_shared[row][col] = b[row * size + col];
//    __syncthreads();
// -  if (row < size && col < size) {
// -    float sum = 0.0f;
// -    for (int k = 0; k < size; ++k) sum += a_shared[row][k] * b_shared[k][col];
// -    out[row * size + col] = sum;
// -  }
// +  float sum = 0.0f;
// +  for (int k = 0; k < size; ++k) sum += a_shared[row][k] * b_shared[k][col];
// +  out[row * size + col] = sum;
//  }

// Broken on purpose: writes through a pointer that was never set to a buffer.
// Expected finding: a crash (segmentation fault), with the thread.
//
// Checker: (no options)
// Expect: Crash in thread (0,0) of block (0,0) at line 29 of p05_bad_pointer.cu: segmentation fault
// Expect: (address 0x10)
//
// Change to solutions/p05_single_block_aat.cu:
// --- solutions/p05_single_block_aat.cu
// +++ p05_bad_pointer.cu
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
// +  float* scratch = reinterpret_cast<float*>(static_cast<unsigned long>(size) * 8);  // not a buffer
//    if (row < size && col < size) {
//      a_shared[row][col] = a[row * size + col];
//      b_shared[row][col] = b[row * size + col];
// @@ -26,6 +26,7 @@
//    if (row < size && col < size) {
//      float sum = 0.0f;
//      for (int k = 0; k < size; ++k) sum += a_shared[row][k] * b_shared[k][col];
// +    scratch[row * size + col] = sum;
//      out[row * size + col] = sum;
//    }
//  }

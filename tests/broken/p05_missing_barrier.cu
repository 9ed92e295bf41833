// Broken on purpose: no barrier between the shared stores and the loads of other threads'
// elements. Expected finding: shared-memory race.
//
// Checker: (no options)
// Expect: Shared-memory race: in block (0,0), a_shared[0][0] was written by thread (0,0) at line 21 of p05_missing_barrier.cu and read by thread (1,0) at line 24
// Needs: instrumented kernels
//
// Change to solutions/p05_single_block_aat.cu:
// --- solutions/p05_single_block_aat.cu
// +++ p05_missing_barrier.cu
// @@ -12,7 +12,6 @@
//  // Doc: docs/p05_single_block_aat.md
//
//  constexpr int TPB = 3;
// -constexpr int SIZE = 2;
//
//  __global__ void single_block_matmul(float* out, const float* a, const float* b, int size) {
//    __shared__ float a_shared[TPB][TPB];
// @@ -21,9 +20,6 @@
//    if (row < size && col < size) {
//      a_shared[row][col] = a[row * size + col];
//      b_shared[row][col] = b[row * size + col];
// -  }
// -  __syncthreads();
// -  if (row < size && col < size) {
//      float sum = 0.0f;
//      for (int k = 0; k < size; ++k) sum += a_shared[row][k] * b_shared[k][col];
//      out[row * size + col] = sum;

// Broken on purpose: the guard stops one row early. Expected finding: unwritten output.
//
// Checker: --size=16
// Expect: Unwritten output: 16 of 256 elements of c were never written
// Expect: (row 15, col 0)
// Expect: Does every element of c have a thread that writes it?
//
// Change to solutions/p01_naive.cu:
// --- solutions/p01_naive.cu
// +++ p01_unwritten_edge.cu
// @@ -10,7 +10,7 @@
//  __global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
//    int row = blockIdx.y * blockDim.y + threadIdx.y;
//    int col = blockIdx.x * blockDim.x + threadIdx.x;
// -  if (row < n && col < n) {
// +  if (row < n - 1 && col < n) {
//      float sum = 0.0f;
//      for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
//      c[row * n + col] = sum;

// Broken on purpose: no bounds guard, so when n is not a multiple of 16 the threads past
// the edge read and write outside the matrices. Expected finding: out-of-bounds access.
//
// Checker: --size=17
// Expect: Out-of-bounds read: thread (4,0) of block (0,0) read b[16] at line 14 of p01_missing_guard.cu, but b has 16 elements (b[0] to b[15]); as a 4 x 4 matrix, index 16 would be (row 4, col 0)
// Expect: guard with if (row < n && col < n)
// Needs: instrumented kernels
//
// Change to solutions/p01_naive.cu:
// --- solutions/p01_naive.cu
// +++ p01_missing_guard.cu
// @@ -10,9 +10,7 @@
//  __global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
//    int row = blockIdx.y * blockDim.y + threadIdx.y;
//    int col = blockIdx.x * blockDim.x + threadIdx.x;
// -  if (row < n && col < n) {
// -    float sum = 0.0f;
// -    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
// -    c[row * n + col] = sum;
// -  }
// +  float sum = 0.0f;
// +  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
// +  c[row * n + col] = sum;
//  }

// Broken on purpose: k runs one past the end of the row (k <= n).
// Expected finding: out-of-bounds read of b, past its last element.
//
// Checker: --size=16
// Expect: Out-of-bounds read: thread (0,0) of block (0,0) read b[16]
// Expect: at line 15 of p01_off_by_one.cu
// Expect: but b has 16 elements
// Needs: instrumented kernels
//
// Change to solutions/p01_naive.cu:
// --- solutions/p01_naive.cu
// +++ p01_off_by_one.cu
// @@ -12,7 +12,7 @@
//    int col = blockIdx.x * blockDim.x + threadIdx.x;
//    if (row < n && col < n) {
//      float sum = 0.0f;
// -    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
// +    for (int k = 0; k <= n; ++k) sum += a[row * n + k] * b[k * n + col];
//      c[row * n + col] = sum;
//    }
//  }

// Broken on purpose: copies the row to shared memory but then reads a from global memory
// anyway. The values are right. Expected finding: too many global loads.
//
// Checker: --size=100
// Expect: Too many global loads: thread (0,0) of block (0,0) read global memory 201 times; this puzzle allows 101
// Expect: ceil(n / 256) * (n + 1) at n = 100
// Needs: instrumented kernels
//
// Change to solutions/p02_single_row_shared.cu:
// --- solutions/p02_single_row_shared.cu
// +++ p02_global_row.cu
// @@ -19,7 +19,7 @@
//    __syncthreads();
//    for (int col = threadIdx.x; col < n; col += blockDim.x) {
//      float sum = 0.0f;
// -    for (int k = 0; k < n; ++k) sum += a_row[k] * b[k * n + col];
// +    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
//      c[row * n + col] = sum;
//    }
//  }

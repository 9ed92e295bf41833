// Broken on purpose: k doubles from 0, so it stays 0 and the loop never ends.
// Expected finding: the time limit, naming a thread that was still running.
//
// Checker: --size=16 --timeout=1
// Expect: Time limit: thread (0,0) of block (0,0) was still running after 1.00 s
// Expect: An endless loop?
// Expect: Stopped early
// Expect: Result: 0 of 2 cases passed. FAIL
//
// Change to solutions/p01_naive.cu:
// --- solutions/p01_naive.cu
// +++ p01_endless_loop.cu
// @@ -11,8 +11,7 @@
//    int row = blockIdx.y * blockDim.y + threadIdx.y;
//    int col = blockIdx.x * blockDim.x + threadIdx.x;
//    if (row < n && col < n) {
// -    float sum = 0.0f;
// -    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
// -    c[row * n + col] = sum;
// +    c[row * n + col] = 0.0f;
// +    for (int k = 0; k < n; k *= 2) c[row * n + col] += a[row * n + k] * b[k * n + col];
//    }
//  }

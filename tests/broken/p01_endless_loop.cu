// Broken on purpose: k doubles from 0, so it stays 0 and the loop never ends.
// Expected finding: the time limit, naming a thread that was still running.
__global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    c[row * n + col] = 0.0f;
    for (int k = 0; k < n; k *= 2) c[row * n + col] += a[row * n + k] * b[k * n + col];
  }
}

// Checker: --size=16 --timeout=1
// Expect: Time limit: thread (0,0) of block (0,0) was still running after 1.00 s
// Expect: An endless loop?
// Expect: Stopped early
// Expect: Result: 0 of 2 cases passed. FAIL

// Broken on purpose: copies the row to shared memory but then reads a from global memory
// anyway. The values are right. Expected finding: too many global loads.
constexpr int MAX_N = 1024;

__global__ void matmul_single_row_shared(const float* a, const float* b, float* c, int n) {
  __shared__ float a_row[MAX_N];
  int row = blockIdx.x;
  for (int k = threadIdx.x; k < n; k += blockDim.x) a_row[k] = a[row * n + k];
  __syncthreads();
  for (int col = threadIdx.x; col < n; col += blockDim.x) {
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

// Checker: --size=100
// Expect: Too many global loads: thread (0,0) of block (0,0) read global memory 201 times; this puzzle allows 101
// Expect: ceil(n / 256) * (n + 1) at n = 100
// Needs: instrumented kernels

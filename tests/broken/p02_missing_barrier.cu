// Broken on purpose: no barrier between copying the row and reading it.
// Expected finding: shared-memory race on a_row.
//
// Checker: --size=5
// Expect: Shared-memory race: in block (0,0), a_row[0] was written by thread (0,0) at line 18 of p02_missing_barrier.cu and read by thread (1,0) at line 21 of p02_missing_barrier.cu, with no __syncthreads() between the two.
// Needs: instrumented kernels
//
// Change to solutions/p02_single_row_shared.cu:
// --- solutions/p02_single_row_shared.cu
// +++ p02_missing_barrier.cu
// @@ -16,7 +16,6 @@
//    __shared__ float a_row[MAX_N];
//    int row = blockIdx.x;
//    for (int k = threadIdx.x; k < n; k += blockDim.x) a_row[k] = a[row * n + k];
// -  __syncthreads();
//    for (int col = threadIdx.x; col < n; col += blockDim.x) {
//      float sum = 0.0f;
//      for (int k = 0; k < n; ++k) sum += a_row[k] * b[k * n + col];

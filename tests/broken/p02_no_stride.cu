// Broken on purpose: each thread computes one column only, so for n > 256 the columns
// past 255 are never written. Expected finding: unwritten output.
//
// Checker: --size=300
// Expect: Unwritten output: 13200 of 90000 elements of c were never written
// Expect: (row 0, col 256)
//
// Change to solutions/p02_single_row_shared.cu:
// --- solutions/p02_single_row_shared.cu
// +++ p02_no_stride.cu
// @@ -17,7 +17,8 @@
//    int row = blockIdx.x;
//    for (int k = threadIdx.x; k < n; k += blockDim.x) a_row[k] = a[row * n + k];
//    __syncthreads();
// -  for (int col = threadIdx.x; col < n; col += blockDim.x) {
// +  int col = threadIdx.x;
// +  if (col < n) {
//      float sum = 0.0f;
//      for (int k = 0; k < n; ++k) sum += a_row[k] * b[k * n + col];
//      c[row * n + col] = sum;

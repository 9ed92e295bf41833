// Broken on purpose: the tiles keep the obvious layout (no XOR), so the 8 rows that each
// ldmatrix phase reads sit in the same 4 banks. Right values, 8-way bank conflicts: over the
// puzzle's limit of 1-way. Expected finding: bank conflicts on the ldmatrix lines.
//
// Checker: (no options)
// Expect: 8-way
// Needs: instrumented kernels
//
// Change to solutions/p11_mma_sync.cu:
// --- solutions/p11_mma_sync.cu
// +++ p11_unswizzled.cu
// @@ -98,7 +98,7 @@
//  // copies stay 16-byte aligned and no memory is wasted.
//  template <int ROW_BYTES>
//  __device__ __forceinline__ uint32_t swizzle(int row, int chunk) {
// -  return row * ROW_BYTES + ((chunk ^ (row % 8)) * 16);
// +  return row * ROW_BYTES + chunk * 16;
//  }
//
//  __global__ void __launch_bounds__(THREADS, 2)

// A kernel whose only extern __shared__ array is declared in a header, in a namespace, with an
// element type of that namespace (pair_staging.cuh): it builds and launches on both backends.
#include "pair_staging.cuh"

// out[i] = {in[i].high, in[i].low}, through dynamic shared memory, for i < n.
__global__ void swap_pairs_through_header(const pair_staging::Pair* in, pair_staging::Pair* out, int n) {
  using pair_staging::pairs;
  for (int i = threadIdx.x; i < n; i += blockDim.x) pairs[i] = {in[i].high, in[i].low};
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[n - 1 - i] = pairs[n - 1 - i];
}

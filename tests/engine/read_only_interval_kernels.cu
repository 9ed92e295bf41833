// Kernels whose code between two barriers only reads shared memory, as a tiled matmul's inner
// loop does. Where every thread goes on into such code, the engine settles the written words for
// every reader as the interval begins (AccessChecks::settle_for_reads) instead of noting each
// word's first readers one at a time. test_read_only_intervals.cpp checks that the checks still
// find what they find at each read: nothing in a clean row, an unwritten word read word by word
// and as a float4, and a race where the code after the barrier also writes into the row.

constexpr int kWords = 256;

// The first `written` threads write their word of a shared row; after the barrier every thread
// sums its first `word_reads` words, then four words of it as one float4, and writes nothing
// until the second barrier; then it writes its sum.
__global__ void sum_row_between_barriers(float* out, int written, int word_reads) {
  __shared__ __align__(16) float row[kWords];
  if (threadIdx.x < written) row[threadIdx.x] = static_cast<float>(threadIdx.x + 1);
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < word_reads; ++k) sum += row[k];  // word read
  const float4 quad = reinterpret_cast<const float4*>(row)[threadIdx.x / 4];  // float4 read
  sum += quad.x + quad.y + quad.z + quad.w;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The first `written` threads write their word of a shared row; after the barrier every thread
// reads eight words of it, 8 apart from its own, in straight-line code (each read checked at its
// own line, not ahead of a loop), and writes nothing until the second barrier.
__global__ void sum_eight_words_between_barriers(float* out, int written) {
  __shared__ float row[kWords];
  if (threadIdx.x < written) row[threadIdx.x] = static_cast<float>(threadIdx.x + 1);
  __syncthreads();
  const unsigned n = blockDim.x;
  float sum = row[threadIdx.x % n];  // unrolled read
  sum += row[(threadIdx.x + 8) % n];
  sum += row[(threadIdx.x + 16) % n];
  sum += row[(threadIdx.x + 24) % n];
  sum += row[(threadIdx.x + 32) % n];
  sum += row[(threadIdx.x + 40) % n];
  sum += row[(threadIdx.x + 48) % n];
  sum += row[(threadIdx.x + 56) % n];  // last unrolled read
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The same row, where the code after the barrier also writes the neighbouring thread's word,
// which that thread reads in the same interval: a race, in an interval that does not only read.
__global__ void sum_row_and_write_neighbour(float* out) {
  __shared__ __align__(16) float row[kWords];
  row[threadIdx.x] = static_cast<float>(threadIdx.x + 1);
  __syncthreads();
  float sum = 0.0f;
  for (unsigned k = 0; k < blockDim.x; ++k) sum += row[k];  // racing read
  float* neighbour = &row[threadIdx.x ^ 1u];
  *neighbour = sum;  // neighbour write
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Loops whose reads step through memory: the block-loop pass checks such reads once, before the
// loop, and runs the loop without a check at each read where every one of them would pass
// (passes/reads_ahead.h). test_reads_ahead.cpp checks that what these kernels find, and how many
// global loads they count, is what a check at each read gives: the last read of a loop out of
// bounds, a read before the buffer in a loop that steps backwards, an unwritten shared word at
// the end of a loop, a read that races with another thread's write.

// Each thread sums `reach` values of its row of `a` (rows of n): past the row's end with
// reach > n, and past the whole buffer in the last row.
__global__ void sum_rows(const float* a, float* out, int n, int reach) {
  float sum = 0.0f;
  for (int k = 0; k < reach; ++k) sum += a[threadIdx.x * n + k];  // row read
  out[threadIdx.x] = sum;
}

// Each thread sums its column of `a` (rows of n) from row `last` down to row `first`: before the
// buffer's start with first < 0.
__global__ void sum_columns_upwards(const float* a, float* out, int n, int first, int last) {
  const int column = threadIdx.x;  // signed: row -1 is before the buffer, not 16 GiB past it
  float sum = 0.0f;
  for (int r = last; r >= first; --r) sum += a[r * n + column];  // column read
  out[threadIdx.x] = sum;
}

// The block's first `written` threads write a word each of a shared row; after the barrier every
// thread sums the first `reach` words: an unwritten word where reach > written.
__global__ void sum_shared_row(float* out, int written, int reach) {
  __shared__ float row[256];
  if (threadIdx.x < written) row[threadIdx.x] = static_cast<float>(threadIdx.x + 1);
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < reach; ++k) sum += row[k];  // shared row read
  out[threadIdx.x] = sum;
}

// Every other word of a shared row, after the barrier: reads two words apart.
__global__ void sum_shared_even_words(float* out, int reach) {
  __shared__ float row[256];
  row[threadIdx.x] = static_cast<float>(threadIdx.x + 1);
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < reach; k += 2) sum += row[k];  // even words
  out[threadIdx.x] = sum;
}

// The same row read with no barrier after the writes: each thread's loop reads words that other
// threads write in the same interval.
__global__ void sum_shared_row_without_barrier(float* out, int reach) {
  __shared__ float row[256];
  row[threadIdx.x] = static_cast<float>(threadIdx.x + 1);
  float sum = 0.0f;
  for (int k = 0; k < reach; ++k) sum += row[k];  // unordered read
  out[threadIdx.x] = sum;
}

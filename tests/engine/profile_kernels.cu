// One warp, one measured access each: the memory-efficiency counts are known by hand.
// Each kernel fills its tile with computed values (stores only), waits, and then makes the
// single shared load (or the single global load) that the tests and the comparison with
// Nsight Compute measure.

__global__ void shared_row(float* out) {
  __shared__ float tile[32][32];
  for (int r = 0; r < 32; ++r) tile[r][threadIdx.x] = static_cast<float>(r * 32 + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[5][threadIdx.x];  // 32 banks, one word each
}

__global__ void shared_column(float* out) {
  __shared__ float tile[32][32];
  for (int r = 0; r < 32; ++r) tile[r][threadIdx.x] = static_cast<float>(r * 32 + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][5];  // one bank, 32 words: 32-way
}

__global__ void shared_column_padded(float* out) {
  __shared__ float tile[32][33];
  for (int r = 0; r < 32; ++r) tile[r][threadIdx.x] = static_cast<float>(r * 32 + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][5];  // rows 33 words apart: 32 banks
}

__global__ void shared_column_swizzled(float* out) {
  __shared__ float tile[32][32];
  for (int r = 0; r < 32; ++r) tile[r][threadIdx.x ^ r] = static_cast<float>(r * 32 + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][5 ^ threadIdx.x];  // column 5, swizzled: 32 banks
}

__global__ void shared_broadcast(float* out) {
  __shared__ float tile[32][32];
  for (int r = 0; r < 32; ++r) tile[r][threadIdx.x] = static_cast<float>(r * 32 + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[0][0];  // one word for everyone
}

__global__ void shared_float4_row(float* out) {
  __shared__ float4 tile[32][32];
  for (int r = 0; r < 32; ++r) tile[r][threadIdx.x] = make_float4(r, threadIdx.x, 0.0f, 1.0f);
  __syncthreads();
  float4 v = tile[0][threadIdx.x];  // 512 contiguous bytes: 4 quarter-warp phases, no conflict
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

__global__ void shared_float4_column(float* out) {
  __shared__ float4 tile[32][8];
  for (int c = 0; c < 8; ++c) tile[threadIdx.x][c] = make_float4(threadIdx.x, c, 0.0f, 1.0f);
  __syncthreads();
  float4 v = tile[threadIdx.x][0];  // rows 128 bytes apart: 8 lanes a phase on banks 0-3
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

__global__ void global_coalesced(const float* in, float* out) {
  out[threadIdx.x] = in[threadIdx.x];  // 128 contiguous bytes: 4 sectors
}

__global__ void global_strided(const float* in, float* out) {
  out[threadIdx.x] = in[threadIdx.x * 32];  // 128 bytes apart: a sector each
}

__global__ void global_float4(const float4* in, float* out) {
  float4 v = in[threadIdx.x];  // 512 contiguous bytes: 16 sectors
  out[threadIdx.x] = v.x + v.y + v.z + v.w;  // all four used: nvcc keeps the 128-bit load
}

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

// ldmatrix.x4: 32 lanes give 32 row addresses of 16 bytes, served in 4 phases of 8 rows (one
// 8 x 8 matrix a phase). A tile of 64-byte rows, every lane at chunk 0: rows r and r + 2 share
// banks, so each phase of 8 rows is a 4-way conflict.
__device__ unsigned ldmatrix_x4_sum(const void* row) {
  unsigned r0, r1, r2, r3;
  unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(address));
  return r0 + r1 + r2 + r3;
}

__global__ void ldmatrix_rows_64b(float* out) {
  __shared__ __align__(128) unsigned short tile[32][32];
  for (int c = 0; c < 32; ++c) tile[threadIdx.x][c] = static_cast<unsigned short>(c);
  __syncthreads();
  out[threadIdx.x] = static_cast<float>(ldmatrix_x4_sum(&tile[threadIdx.x][0]));
}

// The same rows with the 16-byte chunk XOR-swizzled by (row / 2) % 4: 8 rows of a phase
// cover all 8 bank groups, one wavefront a phase.
__global__ void ldmatrix_rows_64b_swizzled(float* out) {
  __shared__ __align__(128) unsigned short tile[32][32];
  for (int c = 0; c < 32; ++c) tile[threadIdx.x][c] = static_cast<unsigned short>(c);
  __syncthreads();
  int chunk = 0 ^ ((threadIdx.x >> 1) & 3);
  out[threadIdx.x] = static_cast<float>(ldmatrix_x4_sum(&tile[threadIdx.x][8 * chunk]));
}

// 128-byte rows, every lane at chunk 0: the 8 rows of a phase all in banks 0-3, 8-way.
__global__ void ldmatrix_rows_128b(float* out) {
  __shared__ __align__(128) unsigned short tile[32][64];
  for (int c = 0; c < 64; ++c) tile[threadIdx.x][c] = static_cast<unsigned short>(c);
  __syncthreads();
  out[threadIdx.x] = static_cast<float>(ldmatrix_x4_sum(&tile[threadIdx.x][0]));
}

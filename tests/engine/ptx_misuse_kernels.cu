// Inline PTX used wrongly, each kernel with one mistake, for the findings the CPU backend
// must give (test_ptx.cpp). Some are mistakes ptxas would refuse, so this file is built for
// the CPU backend only.
#include <cstdint>

__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

__device__ void fill(uint16_t (&tile)[32][8]) {
  for (int i = threadIdx.x; i < 32 * 8; i += blockDim.x) tile[i / 8][i % 8] = static_cast<uint16_t>(i);
  __syncthreads();
}

__device__ void write_out(uint32_t* out, const uint32_t (&r)[4]) {
  for (int i = 0; i < 4; ++i) out[4 * threadIdx.x + i] = r[i];
}

// Row addresses 4 bytes past a 16-byte boundary.
__global__ void ptx_ldmatrix_misaligned(uint32_t* out) {
  __shared__ __align__(16) uint16_t tile[32][8];
  fill(tile);
  uint32_t r[4];
  ldmatrix_x4(r, shared_address(&tile[threadIdx.x % 32][2]));
  write_out(out, r);
}

// Only half of the warp reaches the ldmatrix.
__global__ void ptx_ldmatrix_half_warp(uint32_t* out) {
  __shared__ __align__(16) uint16_t tile[32][8];
  fill(tile);
  uint32_t r[4] = {};
  if (threadIdx.x % 32 < 16) ldmatrix_x4(r, shared_address(&tile[threadIdx.x % 32][0]));
  write_out(out, r);
}

// Even lanes load four matrices, odd lanes two: not the same instruction.
__global__ void ptx_ldmatrix_mixed_shapes(uint32_t* out) {
  __shared__ __align__(16) uint16_t tile[32][8];
  fill(tile);
  uint32_t r[4] = {};
  uint32_t row = shared_address(&tile[threadIdx.x % 32][0]);
  if (threadIdx.x % 2 == 0)
    ldmatrix_x4(r, row);
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(row));
  write_out(out, r);
}

// The tile's last 16 rows are never written, and ldmatrix reads them.
__global__ void ptx_ldmatrix_unwritten(uint32_t* out) {
  __shared__ __align__(16) uint16_t tile[32][8];
  for (int i = threadIdx.x; i < 16 * 8; i += blockDim.x) tile[i / 8][i % 8] = static_cast<uint16_t>(i);
  __syncthreads();
  uint32_t r[4];
  ldmatrix_x4(r, shared_address(&tile[threadIdx.x % 32][0]));
  write_out(out, r);
}

// cp.async fills the tile, and the warp reads it after a barrier but without waiting for the copies.
__global__ void ptx_cp_async_without_wait(const uint16_t* in, uint32_t* out) {
  __shared__ __align__(16) uint16_t tile[32][8];
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address(&tile[threadIdx.x % 32][0])),
               "l"(in + 8 * (threadIdx.x % 32)));
  asm volatile("cp.async.commit_group;\n" ::);
  __syncthreads();
  uint32_t r[4];
  ldmatrix_x4(r, shared_address(&tile[threadIdx.x % 32][0]));
  write_out(out, r);
}

// The last thread's copy reads 16 bytes past the end of `in` (32 rows of 8 halves).
__global__ void ptx_cp_async_out_of_bounds(const uint16_t* in, uint32_t* out) {
  __shared__ __align__(16) uint16_t tile[32][8];
  const unsigned t = threadIdx.x % 32;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address(&tile[t][0])), "l"(in + 8 * (t + 1)));
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  out[threadIdx.x] = tile[t][0];
}

// A copy of 12 bytes: cp.async copies 4, 8 or 16.
__global__ void ptx_cp_async_bad_size(const uint16_t* in, uint32_t* out) {
  __shared__ __align__(16) uint16_t tile[32][8];
  asm volatile("cp.async.ca.shared.global [%0], [%1], 12;\n" ::"r"(shared_address(&tile[threadIdx.x % 32][0])),
               "l"(in));
  asm volatile("cp.async.wait_all;\n" ::);
  out[threadIdx.x] = 0;
}

// A shared address made up instead of taken from __cvta_generic_to_shared.
__global__ void ptx_ld_shared_outside(uint32_t* out) {
  uint32_t v;
  asm volatile("ld.shared.u32 %0, [%1];\n" : "=r"(v) : "r"(0x7FFFFFF0u));
  out[threadIdx.x] = v;
}

// 48 threads: the second warp has 16 lanes, and mma.sync needs 32.
__global__ void ptx_mma_partial_warp(uint32_t* out) {
  float d[4] = {};
  uint32_t a = 0x3C003C00u;  // two halves of 1.0
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%4,%4}, {%0,%1,%2,%3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a));
  out[threadIdx.x] = static_cast<uint32_t>(d[0]);
}

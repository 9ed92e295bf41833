// Hopper kernels in the form the CUDA Programming Guide's TMA examples take: libcu++'s
// cuda::device::experimental copies, a cuda::barrier in shared memory, alignas(128) tiles
// declared with alignas after __shared__, and the tensor map passed as a __grid_constant__
// parameter or by pointer into global memory. Also: __shared__ with alignas / __align__ in
// either order, and a kernel whose extern __shared__ array is declared in a header
// (guide_staging.cuh). They run unchanged on both backends; test_hopper_guide.cpp checks them.
#include <cstdint>
#include <utility>

#include <cuda.h>
#include <cuda/barrier>

#include "guide_staging.cuh"

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

// A __shared__ cuda::barrier is initialized by init(), not by a constructor: as in the Guide,
// nvcc's warning about its (empty) dynamic initialization is silenced.
#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int kTileRows = 16, kTileCols = 32;  // floats: 2 KiB, one box of the 2-D maps

// One tile of `in_map` at (x, y) into shared memory, each element scaled and shifted by its
// row there, and stored to the same place of `out_map`: load, compute, fence, store.
__device__ void scale_tile(const CUtensorMap* in_map, const CUtensorMap* out_map, float factor) {
  __shared__ alignas(128) float tile[kTileRows][kTileCols];
  __shared__ block_barrier bar;
  const int x = blockIdx.x * kTileCols, y = blockIdx.y * kTileRows;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();  // the initialized barrier, visible to the tensor copy
  }
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(&tile, in_map, x, y, bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int i = threadIdx.x; i < kTileRows * kTileCols; i += blockDim.x) {
    const int r = i / kTileCols, c = i % kTileCols;
    tile[r][c] = tile[r][c] * factor + static_cast<float>(r);
  }
  cde::fence_proxy_async_shared_cta();  // this thread's writes, visible to the tensor store
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(out_map, x, y, &tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();  // the store has read the tile: the block may leave
  }
  __syncthreads();
}

__global__ void guide_scale_grid_constant(const __grid_constant__ CUtensorMap in_map,
                                          const __grid_constant__ CUtensorMap out_map, float factor) {
  scale_tile(&in_map, &out_map, factor);
}

// The maps live in global memory (cudaMalloc, then cudaMemcpy from the host before the launch).
__global__ void guide_scale_by_pointer(const CUtensorMap* in_map, const CUtensorMap* out_map, float factor) {
  scale_tile(in_map, out_map, factor);
}

// One box of 64 floats of a `rank`-D map at coordinates c[0..rank-1] into shared memory, one
// added to each, stored back to the same place of `out_map`: every rank's load and store.
__global__ void guide_box_of_rank(const __grid_constant__ CUtensorMap in_map,
                                  const __grid_constant__ CUtensorMap out_map, int rank, int c0, int c1, int c2,
                                  int c3, int c4) {
  __shared__ alignas(128) float box[64];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    switch (rank) {
      case 1: cde::cp_async_bulk_tensor_1d_global_to_shared(box, &in_map, c0, bar); break;
      case 2: cde::cp_async_bulk_tensor_2d_global_to_shared(box, &in_map, c0, c1, bar); break;
      case 3: cde::cp_async_bulk_tensor_3d_global_to_shared(box, &in_map, c0, c1, c2, bar); break;
      case 4: cde::cp_async_bulk_tensor_4d_global_to_shared(box, &in_map, c0, c1, c2, c3, bar); break;
      default: cde::cp_async_bulk_tensor_5d_global_to_shared(box, &in_map, c0, c1, c2, c3, c4, bar); break;
    }
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(box));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int i = threadIdx.x; i < 64; i += blockDim.x) box[i] += 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    switch (rank) {
      case 1: cde::cp_async_bulk_tensor_1d_shared_to_global(&out_map, c0, box); break;
      case 2: cde::cp_async_bulk_tensor_2d_shared_to_global(&out_map, c0, c1, box); break;
      case 3: cde::cp_async_bulk_tensor_3d_shared_to_global(&out_map, c0, c1, c2, box); break;
      case 4: cde::cp_async_bulk_tensor_4d_shared_to_global(&out_map, c0, c1, c2, c3, box); break;
      default: cde::cp_async_bulk_tensor_5d_shared_to_global(&out_map, c0, c1, c2, c3, c4, box); break;
    }
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
  __syncthreads();
}

// One 16 x 4 box of a 2-D map at (x, y), summed into *sum by thread 0: for the check that a box
// starts on 16 bytes in its contiguous dimension.
__global__ void guide_box_sum(const __grid_constant__ CUtensorMap map, int x, int y, float* sum) {
  __shared__ alignas(128) float box[4][16];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(box, &map, x, y, bar);  // the box's load
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(box));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 16; ++c) s += box[r][c];
    *sum = s;
  }
}

// __shared__ variables with an alignment before or after __shared__, at file scope and in the
// kernel. Each thread 0 writes, for each variable, its address modulo the alignment asked for
// (0 when it holds) and a value written through it and read back.
__shared__ alignas(256) float file_after[3];
alignas(512) __shared__ float file_before[5];
__shared__ __align__(128) float file_align_after[7];
__align__(64) __shared__ float file_align_before[2];

__global__ void shared_alignment_orders(unsigned* remainders, float* values) {
  __shared__ alignas(128) float after[5];
  alignas(256) __shared__ float before[3];
  __shared__ __align__(64) float align_after[7];
  __align__(512) __shared__ float align_before[2];
  __shared__ alignas(1024) alignas(16) unsigned char twice[9];
  if (threadIdx.x != 0) return;
  const struct {
    const void* p;
    unsigned alignment;
  } all[] = {{after, 128},      {before, 256},      {align_after, 64},      {align_before, 512},
             {twice, 1024},     {file_after, 256},  {file_before, 512},     {file_align_after, 128},
             {file_align_before, 64}};
  for (unsigned i = 0; i < sizeof all / sizeof all[0]; ++i)
    remainders[i] = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(all[i].p) % all[i].alignment);
  after[4] = 1.0f;
  before[2] = 2.0f;
  align_after[6] = 3.0f;
  align_before[1] = 4.0f;
  twice[8] = 5;
  file_after[2] = 6.0f;
  file_before[4] = 7.0f;
  file_align_after[6] = 8.0f;
  file_align_before[1] = 9.0f;
  const float read[] = {after[4],     before[2],     align_after[6],      align_before[1],     float(twice[8]),
                        file_after[2], file_before[4], file_align_after[6], file_align_before[1]};
  for (unsigned i = 0; i < 9; ++i) values[i] = read[i];
}

// Reverses `n` floats through dynamic shared memory declared in guide_staging.cuh; thread 0
// also writes the staging address modulo 1024 (0: the alignment holds).
__global__ void reverse_through_header_staging(const float* in, float* out, int n, unsigned* remainder) {
  float* s = guide_staging::staging_floats();
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[n - 1 - i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = s[i];
  if (threadIdx.x == 0) *remainder = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(guide_staging::staging) % 1024);
}

// Kernels that misuse the CUDA of fast kernels, one mistake each. The engine tests check
// that each yields its finding, at its line (so these lines' numbers matter: the tests name
// them; keep new kernels at the end).
#include <cuda_pipeline.h>
#include <mma.h>

#include <cassert>

// A lane calls __shfl_sync with a mask that leaves it out.
__global__ void shfl_lane_not_in_mask(int* out) {
  int lane = threadIdx.x % 32;
  unsigned mask = lane < 16 ? 0x0000FFFFu : 0x0000FFFFu;  // lanes 16-31 are not in it
  out[threadIdx.x] = __shfl_sync(mask, lane, 0);
}

// Lane 31 never reaches the shuffle the mask names it in.
__global__ void shfl_missing_lane(int* out) {
  int lane = threadIdx.x % 32;
  int v = lane;
  if (lane < 31) v = __shfl_sync(0xFFFFFFFFu, v, 0);
  out[threadIdx.x] = v;
}

// Lanes read lane 20 through a mask of lanes 0-15.
__global__ void shfl_source_outside_mask(int* out) {
  int lane = threadIdx.x % 32;
  if (lane < 16) out[threadIdx.x] = __shfl_sync(0x0000FFFFu, lane, 20);
}

// A float4 load from an address 4 bytes past a 16-byte boundary.
__global__ void misaligned_float4(const float* in, float* out) {
  float4 v = reinterpret_cast<const float4*>(in + 1)[threadIdx.x];
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

// A float4 load far past the end of `in` (64 floats).
__global__ void float4_past_the_end(const float* in, float* out) {
  float4 v = reinterpret_cast<const float4*>(in)[threadIdx.x * 4];
  out[threadIdx.x] = v.x;
}

// The shared tile is read before the copy into it was waited for.
__global__ void async_read_before_wait(const float* in, float* out) {
  __shared__ __align__(16) float tile[128];
  __pipeline_memcpy_async(&tile[4 * threadIdx.x], &in[4 * threadIdx.x], 16);
  __pipeline_commit();
  out[threadIdx.x] = tile[4 * threadIdx.x];
  __pipeline_wait_prior(0);
}

// Two groups in flight; the wait lets the newest one (which is then read) stay in flight.
__global__ void async_wait_wrong_group(const float* in, float* out) {
  __shared__ __align__(16) float first[128];
  __shared__ __align__(16) float second[128];
  __pipeline_memcpy_async(&first[4 * threadIdx.x], &in[4 * threadIdx.x], 16);
  __pipeline_commit();
  __pipeline_memcpy_async(&second[4 * threadIdx.x], &in[128 + 4 * threadIdx.x], 16);
  __pipeline_commit();
  __pipeline_wait_prior(1);
  out[threadIdx.x] = first[4 * threadIdx.x] + second[4 * threadIdx.x];
}

// The source of a copy is overwritten before the copy was waited for.
__global__ void async_source_overwritten(float* in, float* out) {
  __shared__ __align__(16) float tile[128];
  __pipeline_memcpy_async(&tile[4 * threadIdx.x], &in[4 * threadIdx.x], 16);
  __pipeline_commit();
  in[4 * threadIdx.x] = 0.0f;
  __pipeline_wait_prior(0);
  out[threadIdx.x] = tile[4 * threadIdx.x];
}

// Half the warp skips a tensor-core load.
__global__ void wmma_lane_skips(const __half* a, float* c) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> fa;
  if (threadIdx.x < 16) nvcuda::wmma::load_matrix_sync(fa, a, 16);
  c[threadIdx.x] = 0.0f;
}

// A leading dimension that is not a multiple of 8 halves.
__global__ void wmma_bad_ldm(const __half* a, float* c) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::load_matrix_sync(fa, a, 20);
  c[threadIdx.x] = static_cast<float>(fa.x[0]);
}

// A kernel that asserts something false for thread 5.
__global__ void failing_assert(int* out) {
  assert(threadIdx.x != 5);
  out[threadIdx.x] = 1;
}

// A struct copy from global into shared memory (the compiler makes it a memcpy) and a loop
// of reads the compiler may merge, with the barrier between them missing.
struct Pair {
  float first, second, third;
};
__global__ void copy_race(const Pair* in, float* out) {
  __shared__ Pair staged[64];
  staged[threadIdx.x] = in[threadIdx.x];
  float local[3];
  const float* words = &staged[(threadIdx.x + 1) % 64].first;
  for (int i = 0; i < 3; ++i) local[i] = words[i];
  out[threadIdx.x] = local[0] + local[1] + local[2];
}

// Two threads write the same half of a shared word, with no barrier between them.
__global__ void same_half_race(float* out) {
  __shared__ __half halves[64];
  halves[threadIdx.x / 2] = __float2half(static_cast<float>(threadIdx.x));
  __syncthreads();
  out[threadIdx.x] = __half2float(halves[threadIdx.x / 2]);
}

// Every lane reads a word; after a __syncwarp() lane 0 rewrites it, and the other lanes read it
// again with no __syncwarp() between that write and their second reads: a race.
__global__ void reread_after_lane_write(int* out) {
  __shared__ int word;
  if (threadIdx.x == 0) word = 7;
  __syncthreads();
  int before = word;
  __syncwarp();
  if (threadIdx.x == 0) word = before + 1;
  out[threadIdx.x] = before + word;
}

// Two warps read a word; after a __syncwarp() of its own warp, thread 0 rewrites it. The
// __syncwarp() orders the write after warp 0's reads, not after warp 1's: a race with those.
__global__ void write_after_other_warps_read(int* out) {
  __shared__ int shared_flag;
  if (threadIdx.x == 0) shared_flag = 7;
  __syncthreads();
  int before = shared_flag;
  __syncwarp();
  if (threadIdx.x == 0) shared_flag = before + 1;
  out[threadIdx.x] = before;
}

// Every lane reads a word, and after a __syncwarp() reads it again; lane 30 then rewrites it
// with no __syncwarp() after the other lanes' second reads: a race with those.
__global__ void write_after_rereads(int* out) {
  __shared__ int shared_flag;
  if (threadIdx.x == 0) shared_flag = 7;
  __syncthreads();
  int before = shared_flag;
  __syncwarp();
  int again = shared_flag;
  if (threadIdx.x == 30) shared_flag = before + again;
  out[threadIdx.x] = before + again;
}

// Every lane reads a word; after a __syncwarp() only the last lane to reach it (lane 31 in
// forward order, which goes on first) reads it again, and lane 0 then rewrites it with no
// __syncwarp() between: a race with lane 31's second read. The checks' settled entries must
// follow the __syncwarp() count of the lane that completed it.
__global__ void write_after_last_lanes_reread(int* out) {
  __shared__ int shared_flag;
  if (threadIdx.x == 0) shared_flag = 7;
  __syncthreads();
  int before = shared_flag;
  __syncwarp();
  int again = threadIdx.x == 31 ? shared_flag : 0;
  if (threadIdx.x == 0) shared_flag = before + 1;
  out[threadIdx.x] = before + again;
}

// Every thread of every block reads a shared word that no thread wrote: one finding per thread,
// made by every worker at once.
__global__ void every_thread_reads_unwritten(float* out) {
  __shared__ float never_written[256];
  out[blockIdx.x * blockDim.x + threadIdx.x] = never_written[threadIdx.x];
}

// Each block spins `cycles` of the multiprocessor's clock (real time on both backends), then
// writes its index: a grid of short blocks that together take long.
__global__ void spin_in_each_block(long long cycles, int* out) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  out[blockIdx.x] = static_cast<int>(blockIdx.x);
}

// Block `stuck` never ends; the others write their index at once.
__global__ void one_block_never_ends(int stuck, volatile int* never_set, int* out) {
  if (static_cast<int>(blockIdx.x) == stuck)
    while (*never_set == 0) {
    }
  out[blockIdx.x] = static_cast<int>(blockIdx.x);
}

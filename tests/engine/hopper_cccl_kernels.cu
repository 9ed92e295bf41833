// Hopper kernels in the form public kernels write them with libcu++: cuda::ptx bindings and
// cuda::barrier, not inline PTX. They run unchanged on both backends (the toolkit's headers
// on the GPU, the CPU backend's in cuda_cpu/compat/ on the CPU); test_hopper_cccl.cpp checks
// them against the layouts measured on an H100.
#include <cstdint>
#include <utility>

#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace ptx = cuda::ptx;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// One 2-D box of `in_map` at (c0, c1), loaded by thread 0 with a tensor copy that completes
// the block's cuda::barrier, dumped as it landed (raw, swizzle and all) into `out`, and stored
// back with a tensor store to the same place of `out_map`.
__global__ void cccl_tma_box(const __grid_constant__ CUtensorMap in_map, const __grid_constant__ CUtensorMap out_map,
                             int c0, int c1, int bytes, uint16_t* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  // After the box, which must start 1024-byte aligned for the swizzles.
  block_barrier& bar = *reinterpret_cast<block_barrier*>(smem + 16384);
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    const int32_t coords[2] = {c0, c1};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, smem, &in_map, coords,
                              cuda::device::barrier_native_handle(bar));
    token = cuda::device::barrier_arrive_tx(bar, 1, bytes);
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int i = threadIdx.x; i < bytes / 2; i += blockDim.x) out[i] = reinterpret_cast<const uint16_t*>(smem)[i];
  if (threadIdx.x == 0) {
    const int32_t coords[2] = {c0, c1};
    ptx::fence_proxy_async(ptx::space_shared);
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &out_map, coords, smem);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
  bar.arrive_and_wait();  // no thread leaves while the store may still read the box
}

// A ring of two stages between a producer (thread 0) and 32 consumers (warp 1), on raw
// mbarriers through cuda::ptx, as warp-specialized GEMMs keep theirs: the producer waits until
// a stage is free (`empty`: every consumer has read it), announces its bytes on `full` and fills
// it with a tensor copy of a 32 x 4 box of `map` (round r: rows 4r to 4r + 3); each consumer
// waits for `full`, adds up its column of the box into sums[lane], and frees the stage.
// `rounds` rounds, so each stage's phases wrap around. ranks[0..1]: the cluster rank and size
// (0 and 1 without a cluster launch).
__global__ void cccl_mbarrier_ring(const __grid_constant__ CUtensorMap map, int rounds, int* sums, unsigned* ranks) {
  constexpr int kBox = 32 * 4;
  __shared__ __align__(128) uint16_t stage[2][kBox];
  __shared__ uint64_t full[2], empty[2];
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], 32);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int r = 0; r < rounds; ++r) {
      const int s = r % 2;
      const uint32_t free_parity = ((r / 2) & 1) ^ 1;  // a fresh stage is free: its "previous" phase is done
      while (!ptx::mbarrier_test_wait_parity(&empty[s], free_parity)) {
      }
      (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                           kBox * sizeof(uint16_t));
      const int32_t coords[2] = {0, 4 * r};
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, stage[s], &map, coords, &full[s]);
    }
  } else if (threadIdx.x >= 32) {
    const int lane = threadIdx.x - 32;
    int sum = 0;
    for (int r = 0; r < rounds; ++r) {
      const int s = r % 2;
      while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &full[s], (r / 2) & 1)) {
      }
      for (int row = 0; row < 4; ++row) sum += stage[s][row * 32 + lane];
      (void)ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &empty[s]);
    }
    sums[lane] = sum;
  }
  ptx::barrier_cluster_arrive(ptx::sem_release);
  ptx::barrier_cluster_wait(ptx::sem_acquire);
  if (threadIdx.x == 0) {
    ranks[0] = ptx::get_sreg_cluster_ctarank();
    ranks[1] = ptx::get_sreg_cluster_nctarank();
  }
}

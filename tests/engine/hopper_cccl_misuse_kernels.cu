// Mistakes in Hopper kernels written with cuda::ptx, for the CPU backend's findings
// (test_hopper_cccl.cpp): each kernel is a small correct one with one thing wrong.
#include <cstdint>

#include <cuda.h>
#include <cuda/ptx>

namespace ptx = cuda::ptx;

// A tensor copy of a box of 16-bit elements whose mbarrier is told the box's element count
// instead of its byte count: the phase never sees its bytes add up.
__global__ void cccl_expect_tx_elements_not_bytes(const __grid_constant__ CUtensorMap map, int box_cols, int box_rows,
                                                  uint16_t* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  uint64_t* bar = reinterpret_cast<uint64_t*>(smem + 16384);
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    const int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, smem, &map, coords, bar);
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, bar,
                                         box_cols * box_rows);  // the mistake: elements, not bytes
  }
  while (!ptx::mbarrier_try_wait_parity(bar, 0)) {  // waits for the box
  }
  out[threadIdx.x] = reinterpret_cast<const uint16_t*>(smem)[threadIdx.x];
}

// Thread 0 arrives once, completing phase 0; every thread then waits for parity 1, the phase
// after it, which no arrival will ever complete. (Before phase 0 completes, parity 1 would be
// the phase before it, which counts as complete.)
__global__ void cccl_wait_wrong_parity(int* out) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) (void)ptx::mbarrier_arrive(&bar);
  __syncthreads();  // every thread waits after phase 0 completed
  while (!ptx::mbarrier_try_wait_parity(&bar, 1)) {  // the mistake: phase 0 has parity 0
  }
  out[threadIdx.x] = 1;
}

// The same mistake in a polling loop (test_wait, which never blocks): every thread polls on.
__global__ void cccl_poll_wrong_parity(int* out) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) (void)ptx::mbarrier_arrive(&bar);
  __syncthreads();
  while (!ptx::mbarrier_test_wait_parity(&bar, 1)) {  // the mistake, polled
  }
  out[threadIdx.x] = 1;
}

// The warp-specialized GEMM (hopper_gemm.cuh) with one mistake each, and other misuses of
// Hopper's instructions, for the findings the CPU backend must give (test_hopper.cpp).
#include "hopper_ptx.cuh"
#include "hopper_gemm.cuh"

#define HOPPER_GEMM_WITH(name, mistake)                                                                     \
  __global__ void __launch_bounds__(hopper_gemm::THREADS, 1)                                                \
  name(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* c, int m, \
       int n, int k) {                                                                                      \
    hopper_gemm::run<hopper_gemm::Mistake::mistake>(&a_map, &b_map, c, m, n, k);                           \
  }

HOPPER_GEMM_WITH(gemm_expects_too_few_bytes, expect_too_few_bytes)
HOPPER_GEMM_WITH(gemm_expects_too_many_bytes, expect_too_many_bytes)
HOPPER_GEMM_WITH(gemm_producer_parity_zero, producer_parity_zero)
HOPPER_GEMM_WITH(gemm_descriptor_64b, descriptor_64b)
HOPPER_GEMM_WITH(gemm_release_before_wait, release_before_wait)
HOPPER_GEMM_WITH(gemm_consumer_skips_wait, consumer_skips_wait)

// A wgmma that only the first 64 threads of the warpgroup execute.
__global__ void wgmma_half_warpgroup(float* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  for (int i = threadIdx.x; i < 8192 + 8192; i += blockDim.x) smem[i] = 0;
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  float d[32] = {};
  if (threadIdx.x < 64) {
    wgmma_fence();
    wgmma_m64n64k16_f16<0>(d, matrix_descriptor(shared_address(smem), 16, 1024, 1),
                           matrix_descriptor(shared_address(smem + 8192), 16, 1024, 1), 0);
    wgmma_commit();
    wgmma_wait<0>();
  }
  out[threadIdx.x] = d[0];
}

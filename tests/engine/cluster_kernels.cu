// A kernel launched in thread block clusters (sm_90): every block records which cluster
// rank it has and how many blocks its cluster holds, read from PTX's special registers.
// The CPU backend does not run clusters' registers yet, so its build records ~0u instead
// (the tests of this file run on the GPU).
#include <cstdint>

__global__ void cluster_ranks(unsigned* out) {
  unsigned rank = ~0u, blocks = ~0u;
#ifdef __CUDA_ARCH__
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(blocks));
#endif
  if (threadIdx.x == 0) {
    unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    out[2 * block] = rank;
    out[2 * block + 1] = blocks;
  }
}

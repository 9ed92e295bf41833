// Thin wrappers for the instructions of thread block clusters, as Hopper kernels keep them: the
// cluster barrier, CTA ranks, distributed shared memory through mapa, arrivals on another
// CTA's mbarrier, and multicast tensor copies. Shared by cluster_kernels.cu and
// cluster_misuse_kernels.cu.
#pragma once

#include "hopper_ptx.cuh"

__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t cluster_size() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(r));
  return r;
}
__device__ __forceinline__ void cluster_arrive() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() {
  asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}
// Makes mbarrier.init visible to the other CTAs of the cluster (before a cluster barrier).
__device__ __forceinline__ void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// The .shared::cluster address of `shared` (a shared address of this kernel) in CTA `rank`.
__device__ __forceinline__ uint32_t map_to_rank(uint32_t shared, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(shared), "r"(rank));
  return r;
}
__device__ __forceinline__ uint32_t load_cluster_u32(uint32_t address) {
  uint32_t v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];\n" : "=r"(v) : "r"(address) : "memory");
  return v;
}
__device__ __forceinline__ void store_cluster_u32(uint32_t address, uint32_t v) {
  asm volatile("st.shared::cluster.u32 [%0], %1;\n" ::"r"(address), "r"(v) : "memory");
}
// One arrival on an mbarrier of any CTA of the cluster (its address from map_to_rank).
__device__ __forceinline__ void mbarrier_arrive_cluster(uint32_t cluster_bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_bar) : "memory");
}
// A 2-D box into the same place of every CTA in `cta_mask`, completing each one's mbarrier at `bar`.
__device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const CUtensorMap* map, int c0, int c1, uint32_t bar,
                                                      uint16_t cta_mask) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
               "[%0], [%1, {%2, %3}], [%4], %5;\n"
               ::"r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(bar), "h"(cta_mask) : "memory");
}

// Kernels launched as thread block clusters: ranks and cluster ids, distributed shared memory,
// arrivals on another CTA's mbarrier, and a multicast tensor copy. They run unchanged on both
// backends; test_clusters.cpp checks what each CTA saw.
#include "cluster_ptx.cuh"

// Thread 0 of each block: its rank, the cluster's size, its cluster's id and its place in it.
__global__ void cluster_ids(unsigned* out) {
  unsigned rank = cluster_rank(), size = cluster_size(), id, place;
  asm volatile("mov.u32 %0, %%clusterid.x;\n" : "=r"(id));
  asm volatile("mov.u32 %0, %%cluster_ctaid.x;\n" : "=r"(place));
  if (threadIdx.x == 0) {
    unsigned* mine = out + 4 * (blockIdx.x + gridDim.x * blockIdx.y);
    mine[0] = rank;
    mine[1] = size;
    mine[2] = id;
    mine[3] = place;
  }
}

// Each CTA fills its shared array, then reads the next rank's through distributed shared
// memory. The cluster barriers: the neighbour has written before anyone reads, and nobody
// exits while a neighbour may still read its memory.
__global__ void cluster_exchange(int* out) {
  __shared__ int mine[64];
  const unsigned rank = cluster_rank(), next = (rank + 1) % cluster_size();
  if (threadIdx.x < 64) mine[threadIdx.x] = int(blockIdx.x * 1000 + threadIdx.x);
  cluster_sync();
  if (threadIdx.x < 64)
    out[blockIdx.x * 64 + threadIdx.x] = int(load_cluster_u32(map_to_rank(shared_address(&mine[threadIdx.x]), next)));
  cluster_sync();
}

// Rank 1's threads write into rank 0's shared memory and each arrive on rank 0's mbarrier;
// rank 0's threads wait on it and copy out what they got.
__global__ void cluster_remote_arrive(int* out) {
  __shared__ int inbox[128];
  __shared__ __align__(8) uint64_t bar;
  const unsigned rank = cluster_rank();
  if (threadIdx.x == 0 && rank == 0) {
    mbarrier_init(shared_address(&bar), 128);
    fence_mbarrier_init();
  }
  cluster_sync();
  if (rank == 1) {
    store_cluster_u32(map_to_rank(shared_address(&inbox[threadIdx.x]), 0), 7000 + threadIdx.x);
    mbarrier_arrive_cluster(map_to_rank(shared_address(&bar), 0));
  } else {
    mbarrier_wait(shared_address(&bar), 0);
    out[threadIdx.x] = inbox[threadIdx.x];
  }
  cluster_sync();
}

// Clusters of two: each CTA loads half of a 16-row box (8 rows of 64 halves) and multicasts it
// to both, so each CTA's mbarrier expects both halves. Every CTA then dumps the whole box.
__global__ void cluster_multicast(const __grid_constant__ CUtensorMap map, uint16_t* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  constexpr int kHalfBytes = 8 * 64 * 2;
  const uint32_t bar = shared_address(smem + 2 * kHalfBytes);
  const unsigned rank = cluster_rank();
  unsigned cluster;
  asm volatile("mov.u32 %0, %%clusterid.x;\n" : "=r"(cluster));
  if (threadIdx.x == 0) {
    mbarrier_init(bar, 1);
    fence_mbarrier_init();
  }
  cluster_sync();
  if (threadIdx.x == 0) {
    mbarrier_expect_tx(bar, 2 * kHalfBytes);
    tma_load_2d_multicast(shared_address(smem + rank * kHalfBytes), &map, 0, int(cluster * 16 + rank * 8), bar, 0x3);
  }
  mbarrier_wait(bar, 0);
  for (int i = threadIdx.x; i < 16 * 64; i += blockDim.x)
    out[blockIdx.x * 16 * 64 + i] = reinterpret_cast<const uint16_t*>(smem)[i];
  cluster_sync();
}

// Every block records its rank in its cluster and its cluster's size, for clusters of any shape.
__global__ void cluster_ranks(unsigned* out) {
  unsigned rank = cluster_rank(), blocks = cluster_size();
  if (threadIdx.x == 0) {
    unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    out[2 * block] = rank;
    out[2 * block + 1] = blocks;
  }
}

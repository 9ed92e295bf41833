// Mistakes with clusters, each with the finding the CPU backend gives (test_clusters.cpp).
#include "cluster_ptx.cuh"

// cluster_multicast without the cluster barrier after mbarrier.init: the copy into the other
// CTA may complete an mbarrier that CTA has not initialized yet.
__global__ void multicast_before_cluster_barrier(const __grid_constant__ CUtensorMap map, uint16_t* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  constexpr int kHalfBytes = 8 * 64 * 2;
  const uint32_t bar = shared_address(smem + 2 * kHalfBytes);
  const unsigned rank = cluster_rank();
  if (threadIdx.x == 0) {
    mbarrier_init(bar, 1);
    fence_mbarrier_init();
  }
  __syncthreads();  // orders the CTA's own threads only
  if (threadIdx.x == 0) {
    mbarrier_expect_tx(bar, 2 * kHalfBytes);
    tma_load_2d_multicast(shared_address(smem + rank * kHalfBytes), &map, 0, int(rank * 8), bar, 0x3);  // finding: not ready
  }
  mbarrier_wait(bar, 0);
  for (int i = threadIdx.x; i < 16 * 64; i += blockDim.x)
    out[blockIdx.x * 16 * 64 + i] = reinterpret_cast<const uint16_t*>(smem)[i];
  cluster_sync();
}

// cluster_exchange without its last cluster barrier: a CTA that finishes first takes its shared
// memory with it while its neighbour still reads it.
__global__ void exchange_exits_early(int* out) {
  __shared__ int mine[64];
  const unsigned rank = cluster_rank(), next = (rank + 1) % cluster_size();
  if (threadIdx.x < 64) mine[threadIdx.x] = int(blockIdx.x * 1000 + threadIdx.x);
  cluster_sync();
  if (threadIdx.x < 64)
    out[blockIdx.x * 64 + threadIdx.x] = int(load_cluster_u32(map_to_rank(shared_address(&mine[threadIdx.x]), next)));  // finding: exited
}

// Reads the neighbour's shared memory before any cluster barrier.
__global__ void exchange_without_barrier(int* out) {
  __shared__ int mine[64];
  const unsigned rank = cluster_rank(), next = (rank + 1) % cluster_size();
  if (threadIdx.x < 64) mine[threadIdx.x] = int(blockIdx.x * 1000 + threadIdx.x);
  __syncthreads();
  if (threadIdx.x < 64)
    out[blockIdx.x * 64 + threadIdx.x] = int(load_cluster_u32(map_to_rank(shared_address(&mine[threadIdx.x]), next)));  // finding: no barrier yet
  cluster_sync();
}

// Rank 1 arrives on its own mbarrier instead of rank 0's: rank 0 waits for arrivals that never
// come, and rank 1 for rank 0 at the cluster barrier.
__global__ void remote_arrive_wrong_cta(int* out) {
  __shared__ __align__(8) uint64_t bar;
  const unsigned rank = cluster_rank();
  if (threadIdx.x == 0) {
    mbarrier_init(shared_address(&bar), 128);
    fence_mbarrier_init();
  }
  cluster_sync();
  if (rank == 1) {
    mbarrier_arrive_cluster(map_to_rank(shared_address(&bar), 1));
  } else {
    mbarrier_wait(shared_address(&bar), 0);  // waits here forever
    out[threadIdx.x] = 1;
  }
  cluster_sync();
}

// Rank 0's thread 0 initializes a second mbarrier with an arrival count of `count` (0: a misuse
// that stops the grid), and rank 1's thread 0 arrives on rank 0's first mbarrier. Where rank 0's
// turn comes first after the cluster barrier (the reverse order does it), the grid stops, rank 0's
// other threads end where they wait, and then rank 1 arrives. Rank 0 was stopped, not exited: its
// shared memory is there, and the misuse is the one finding.
__global__ void remote_use_of_stopped_cta(int* out, int count) {
  __shared__ __align__(8) uint64_t bars[2];
  const unsigned rank = cluster_rank();
  if (threadIdx.x == 0) {
    mbarrier_init(shared_address(&bars[0]), 1);
    fence_mbarrier_init();
  }
  cluster_sync();
  if (rank == 0 && threadIdx.x == 0) mbarrier_init(shared_address(&bars[1]), count);
  if (rank == 1 && threadIdx.x == 0) mbarrier_arrive_cluster(map_to_rank(shared_address(&bars[0]), 0));
  cluster_sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = int(rank);
}

// barrier.cluster.wait without barrier.cluster.arrive before it.
__global__ void cluster_wait_without_arrive(int* out) {
  cluster_wait();  // finding: no arrive
  out[blockIdx.x] = 1;
}

// The async proxy's rules, for the findings the CPU backend must give (test_async_proxy.cpp):
// shared memory written by the threads and then read by a tensor store or a wgmma needs a
// fence.proxy.async by each writing thread; a wgmma's accumulators belong to it until the
// wgmma.wait_group that retires its group.
#include "hopper_ptx.cuh"

// The same wgmma as hopper_ptx.cuh's, with its accumulators as outputs and tied inputs ("0"),
// as some wrappers write them.
__device__ __forceinline__ void wgmma_tied(float (&d)[32], uint64_t a_desc, uint64_t b_desc) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %64, %65, 1, 1, 1, 0, 0;\n"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7]), "=f"(d[8]), "=f"(d[9]), "=f"(d[10]), "=f"(d[11]), "=f"(d[12]), "=f"(d[13]), "=f"(d[14]), "=f"(d[15]), "=f"(d[16]), "=f"(d[17]), "=f"(d[18]), "=f"(d[19]), "=f"(d[20]), "=f"(d[21]), "=f"(d[22]), "=f"(d[23]), "=f"(d[24]), "=f"(d[25]), "=f"(d[26]), "=f"(d[27]), "=f"(d[28]), "=f"(d[29]), "=f"(d[30]), "=f"(d[31])
               : "0"(d[0]), "1"(d[1]), "2"(d[2]), "3"(d[3]), "4"(d[4]), "5"(d[5]), "6"(d[6]), "7"(d[7]), "8"(d[8]), "9"(d[9]), "10"(d[10]), "11"(d[11]), "12"(d[12]), "13"(d[13]), "14"(d[14]), "15"(d[15]), "16"(d[16]), "17"(d[17]), "18"(d[18]), "19"(d[19]), "20"(d[20]), "21"(d[21]), "22"(d[22]), "23"(d[23]), "24"(d[24]), "25"(d[25]), "26"(d[26]), "27"(d[27]), "28"(d[28]), "29"(d[29]), "30"(d[30]), "31"(d[31]), "l"(a_desc), "l"(b_desc));
}

// The block's 32 threads write a 16 x 64 tile of 16-bit values, a 4-byte word each in turn
// (word i by thread i % 32), and thread 0 stores it to `out_map` at (0, 0) with the TMA.
// fence: 0 every writer fences after its writes; 1 nobody does; 2 only thread 0, the store's
// issuer, after the barrier.
__global__ void proxy_tile_store(const __grid_constant__ CUtensorMap out_map, int fence) {
  extern __shared__ __align__(1024) unsigned char smem[];
  uint32_t* words = reinterpret_cast<uint32_t*>(smem);
  for (int i = threadIdx.x; i < 16 * 64 / 2; i += blockDim.x) words[i] = 0x00010001u * uint32_t(i);  // the writes
  if (fence == 0) asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    if (fence == 2) asm volatile("fence.proxy.async;\n" ::: "memory");
    tma_store_2d(&out_map, 0, 0, shared_address(smem));  // the store
    bulk_commit();
    bulk_wait_all();
  }
}

// One warpgroup's m64n64k16 wgmma on operands the threads wrote (zeros, then a 1 in a and b
// each), d written to out[t * 32 ..]. use: 0 d is read after the wait only; 1 read before it;
// 2 written before it; 3 the operands are written without fence.proxy.async; 4 two wgmmas
// chained on d and a wait_group 1 between two groups, d read after the last wait; 5 a chain of
// two through tied inputs.
__global__ void accumulator_use(float* out, int use) {
  extern __shared__ __align__(1024) unsigned char smem[];
  // a[0][0] = b[0][0] = 1.0 (half 0x3C00, its high byte second), all else 0.
  for (int i = threadIdx.x; i < 8192 + 8192; i += blockDim.x) smem[i] = i == 1 || i == 8192 + 1 ? 0x3C : 0;
  if (use != 3) asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  float d[32];
  const uint64_t a = matrix_descriptor(shared_address(smem), 16, 1024, 1);
  const uint64_t b = matrix_descriptor(shared_address(smem + 8192), 16, 1024, 1);
  wgmma_fence();
  wgmma_m64n64k16_f16<0>(d, a, b, 0);  // the wgmma
  if (use == 4) wgmma_m64n64k16_f16<0>(d, a, b, 1);
  if (use == 5) wgmma_tied(d, a, b);
  wgmma_commit();
  if (use == 1) out[32 * 128 + threadIdx.x] = d[0];  // read before the wait
  if (use == 2) d[1] = 2.0f;                          // written before the wait
  if (use == 4) {
    wgmma_wait<1>();
    wgmma_fence();
    wgmma_m64n64k16_f16<0>(d, a, b, 1);
    wgmma_commit();
  }
  wgmma_wait<0>();
  for (int i = 0; i < 32; ++i) out[threadIdx.x * 32 + i] = d[i];
}

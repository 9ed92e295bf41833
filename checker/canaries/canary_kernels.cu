// The canaries: kernels that each make one known mistake, so that the CPU backend's checks prove
// themselves on the compiler in use (docs/dev/canaries.md). Most of these mistakes are seen only
// through the compiler's instrumentation of every load and store (checker/cmake/KernelTargets.cmake:
// kernel_cpu_flags); a compiler that stops instrumenting some accesses would let them PASS without
// a word. run_canaries.cpp launches each kernel and checks that its finding, or its number, comes
// out. The cluster canary is the control: the engine runs its inline PTX itself, so it is found
// with or without the instrumentation.
#include <cstdint>

#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

// --- Plain CUDA ---------------------------------------------------------------------------------

// `in` has 32 elements: thread 31 reads in[32].
__global__ void canary_global_read_past_end(const float* in, float* out) {
  out[threadIdx.x] = in[threadIdx.x + 1];
}

// `out` has 32 elements: thread 31 writes out[32].
__global__ void canary_global_write_past_end(float* out) {
  out[threadIdx.x + 1] = 1.0f;
}

// Launched with 16 floats of dynamic shared memory: threads 16 to 31 write past them.
__global__ void canary_dynamic_shared_past_end(float* out) {
  extern __shared__ float dynamic[];
  dynamic[threadIdx.x] = 1.0f;
  out[threadIdx.x] = 0.0f;
}

// Each thread reads the element its neighbour writes, with no __syncthreads() between.
__global__ void canary_shared_race(float* out) {
  __shared__ float cells[32];
  cells[threadIdx.x] = static_cast<float>(threadIdx.x);
  out[threadIdx.x] = cells[(threadIdx.x + 1) % 32];
}

// Reads shared memory that no thread wrote.
__global__ void canary_unwritten_shared(float* out) {
  __shared__ float never_written[32];
  out[threadIdx.x] = never_written[threadIdx.x];
}

// A float4 load 4 bytes past a 16-byte boundary.
__global__ void canary_misaligned_float4(const float* in, float* out) {
  float4 v = reinterpret_cast<const float4*>(in + 1)[threadIdx.x];
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

// Reads the destination of an asynchronous copy before waiting for it.
__global__ void canary_async_copy_read_before_wait(const float* in, float* out) {
  __shared__ __align__(16) float tile[128];
  __pipeline_memcpy_async(&tile[4 * threadIdx.x], &in[4 * threadIdx.x], 16);
  __pipeline_commit();
  out[threadIdx.x] = tile[4 * threadIdx.x];
  __pipeline_wait_prior(0);
}

// The warp reads one column of a 32 x 32 tile: 32 words in one bank, a 32-way conflict.
__global__ void canary_bank_conflict(float* out) {
  __shared__ float tile[32][32];
  for (int r = 0; r < 32; ++r) tile[r][threadIdx.x] = static_cast<float>(r * 32 + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][5];
}

// Each thread loads 8 floats `stride` apart: 8 global loads the budget counts.
__global__ void canary_global_loads(const float* in, float* out, int stride) {
  float sum = 0.0f;
  for (int i = 0; i < 8; ++i) sum += in[i * stride + threadIdx.x];
  out[threadIdx.x] = sum;
}

// --- Hopper's asynchronous units and clusters, in the inline PTX of puzzles 12 and 13 ------------

__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbarrier_init(uint64_t* bar, int arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(arrivals));
}
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t* bar, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbarrier_wait(uint64_t* bar, int parity) {
  asm volatile(
      "{\n.reg .pred done;\nWAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@done bra READY;\nbra WAIT;\nREADY:\n}\n" ::"r"(shared_address(bar)),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ __forceinline__ void tma_load(void* dst, const CUtensorMap* map, int x, int y, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          shared_address(dst)),
      "l"(map), "r"(x), "r"(y), "r"(shared_address(bar))
      : "memory");
}
__device__ __forceinline__ void tma_store(const CUtensorMap* map, int x, int y, const void* src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(map), "r"(x),
               "r"(y), "r"(shared_address(src))
               : "memory");
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}
// A K-major descriptor with the 128-byte swizzle, as puzzle 12 builds them.
__device__ __forceinline__ uint64_t descriptor(const void* start) {
  return uint64_t((shared_address(start) & 0x3FFFF) >> 4) | (uint64_t(16 >> 4) << 16) | (uint64_t(1024 >> 4) << 32) |
         (uint64_t(1) << 62);
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// d (+)= a · b, m64n64k16, both operands K-major from shared memory (puzzle 12's form).
__device__ __forceinline__ void wgmma_m64n64k16(float (&d)[32], uint64_t a_desc, uint64_t b_desc, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(a_desc), "l"(b_desc), "r"(accumulate));
}
__device__ __forceinline__ void zero_operands(unsigned char* smem) {
  for (int i = threadIdx.x; i < 2 * 8192; i += blockDim.x) smem[i] = 0;
  fence_proxy_async();
  __syncthreads();
}

// The threads read a tensor copy's destination before waiting on the mbarrier it completes.
// 2048 bytes of dynamic shared memory for the 16 x 64 box of halves, then the mbarrier.
__global__ void canary_tensor_copy_read_before_wait(const __grid_constant__ CUtensorMap map, uint16_t* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  uint64_t* bar = reinterpret_cast<uint64_t*>(smem + 2048);
  if (threadIdx.x == 0) {
    mbarrier_init(bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(bar, 2048);
    tma_load(smem, &map, 0, 0, bar);
  }
  out[threadIdx.x] = reinterpret_cast<const uint16_t*>(smem)[threadIdx.x];  // before the wait
  mbarrier_wait(bar, 0);
}

// Puzzle 12's mistake, in its form: the accumulators (a local array) stored before the last
// wgmma.wait_group, as float2 pairs inside an m x n result, in unrolled loops of constant
// indices (where a compiler's analysis can prove every access to the array in bounds, and then
// leave it unchecked). One warpgroup, `steps` >= 1 steps along k; out: m x n, m, n <= 64.
__global__ void canary_wgmma_accumulator_read_before_wait(float* out, int m, int n, int steps) {
  extern __shared__ __align__(1024) unsigned char smem[];
  zero_operands(smem);
  float d[32];
  for (int s = 0; s < steps; ++s) {
    wgmma_fence();
    wgmma_m64n64k16(d, descriptor(smem), descriptor(smem + 8192), s > 0);
    wgmma_commit();
    wgmma_wait<1>();
  }
  const int t = threadIdx.x, row = 16 * (t / 32) + (t % 32) / 4;
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    const int col = 8 * j + 2 * (t % 4);
    if (col >= n) continue;
#pragma unroll
    for (int h = 0; h < 2; ++h)
      if (row + 8 * h < m)
        *reinterpret_cast<float2*>(&out[(row + 8 * h) * n + col]) = make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);  // before the last wait
  }
  wgmma_wait<0>();
}

// The threads overwrite a wgmma's operand in shared memory while the wgmma may still read it.
__global__ void canary_wgmma_operand_overwritten(float* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  zero_operands(smem);
  float d[32];
  wgmma_fence();
  wgmma_m64n64k16(d, descriptor(smem), descriptor(smem + 8192), 0);
  wgmma_commit();
  smem[threadIdx.x] = 1;  // before the wait
  wgmma_wait<0>();
  out[threadIdx.x] = d[0];
}

// The threads write a 16 x 64 tile of halves and thread 0 stores it with a tensor copy, with
// no fence.proxy.async between the writes and the copy that reads them.
__global__ void canary_tensor_store_without_proxy_fence(const __grid_constant__ CUtensorMap map) {
  extern __shared__ __align__(1024) unsigned char smem[];
  uint32_t* words = reinterpret_cast<uint32_t*>(smem);
  for (int i = threadIdx.x; i < 16 * 64 / 2; i += blockDim.x) words[i] = 0x00010001u * uint32_t(i);
  __syncthreads();
  if (threadIdx.x == 0) tma_store(&map, 0, 0, smem);
}

// Reads the next CTA's shared memory (mapa, ld.shared::cluster) before any cluster barrier.
__global__ void canary_cluster_read_before_barrier(int* out) {
  __shared__ int mine[32];
  uint32_t rank, size, remote;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(size));
  mine[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(shared_address(&mine[threadIdx.x])), "r"((rank + 1) % size));
  int v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];\n" : "=r"(v) : "r"(remote) : "memory");
  out[blockIdx.x * 32 + threadIdx.x] = v;
  asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

// What puzzle 11's data path allows on this GPU: the reference kernel's own inner loop (each
// warp's ldmatrix reads of a 64 x 64 warp tile and its mma.sync, one barrier per step of k, the
// same block, stages and swizzle), run with the tiles already in shared memory, so that nothing
// waits for global memory. Three ways of refilling the stages, from none to the real thing:
//   no copies       the inner loop and the barrier alone: the ceiling of the ldmatrix/mma.sync
//                   loop itself;
//   shared stores   each step also writes as many bytes into the next stage as the kernel's
//                   copies do (16-byte st.shared, the same swizzled addresses): the shared
//                   memory's bandwidth shared between reads and refills;
//   copies from L2  each step starts the same cp.async copies as the kernel, from a block's
//                   own 32 KB of global memory that stays in L2: the kernel with a perfect
//                   memory system behind L2.
// Then puzzle 11's kernel itself and cuBLAS's HGEMM at 4096³ (f16 in, f32 sums and out), in the
// same process, medians of repeats after warm-ups. If even "no copies" stays far below a target,
// the target needs a different data path, not a better-tuned pipeline.
//
// The loop below is puzzle 11's, copied (the solution is included for its constants and
// helpers, so that a change of tile or swizzle there changes this too). Not part of the checker
// or of CI: a tool for a GPU machine. Handouts leave it out (it includes the reference kernel).
//
// Build: the default preset builds it where nvcc can build sm_90a (cmake --build build/default
//        --target p11_data_path), or by hand: nvcc -O3 -std=c++17 -I.
//        -gencode=arch=compute_90a,code=sm_90a bench/gpu/p11_data_path.cu -lcublas -o build/p11_data_path
// Run:   build/default/bin/p11_data_path
#include <cstdint>
#include <cstdio>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "check.h"
#include "hgemm_baseline.h"
#include "solutions/p11_mma_sync.cu"

namespace {

enum Refill { kNoCopies = 0, kSharedStores = 1, kCopiesFromL2 = 2 };
const char* const kRefillNames[] = {"no copies", "shared stores", "copies from L2"};

// 16 bytes into shared memory, as a cp.async would land them.
__device__ __forceinline__ void store_shared_16(uint32_t destination, uint32_t value) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %1, %1, %1};\n" ::"r"(destination), "r"(value) : "memory");
}

// One block per slot of the GPU (2 per SM, as puzzle 11 runs), `steps` steps of BK along k each.
template <int REFILL>
__global__ void __launch_bounds__(THREADS, 2) p11_data_path(const __half* source, float* out, int steps) {
  constexpr int A_ROW = BK * 2, B_ROW = BN * 2;
  constexpr int A_STAGE = BM * A_ROW, B_STAGE = BK * B_ROW;
  constexpr int MI = WM / 16, NI = WN / 8;
  extern __shared__ __align__(1024) unsigned char shared[];
  const uint32_t a_tiles = shared_address(shared), b_tiles = a_tiles + STAGES * A_STAGE;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (BN / WN)) * WM, warp_col = (warp % (BN / WN)) * WN;

  // Small halves (1/1024) in every stage, so that the sums stay finite.
  for (int i = threadIdx.x; i < STAGES * (A_STAGE + B_STAGE) / 16; i += THREADS) store_shared_16(a_tiles + 16 * i, 0x14001400u);
  __syncthreads();
  const __half* a_source = source + size_t(blockIdx.x) * (BM * BK + BK * BN);
  const __half* b_source = a_source + BM * BK;

  float acc[MI][NI][4] = {};
  for (int s = 0; s < steps; ++s) {
    if (REFILL == kCopiesFromL2) cp_async_wait<STAGES - 2>();
    __syncthreads();
    if (REFILL != kNoCopies) {  // refill the stage that step s - 1 used, as the kernel does
      const int stage = (s + STAGES - 1) % STAGES;
      const uint32_t a_stage = a_tiles + stage * A_STAGE, b_stage = b_tiles + stage * B_STAGE;
#pragma unroll
      for (int l = 0; l < BM * BK / (8 * THREADS); ++l) {
        const int e = threadIdx.x + l * THREADS, r = e / (BK / 8), chunk = e % (BK / 8);
        if (REFILL == kSharedStores) store_shared_16(a_stage + swizzle<A_ROW>(r, chunk), 0x14001400u);
        else cp_async_16(a_stage + swizzle<A_ROW>(r, chunk), a_source + 8 * e, 16);
      }
#pragma unroll
      for (int l = 0; l < BK * BN / (8 * THREADS); ++l) {
        const int e = threadIdx.x + l * THREADS, r = e / (BN / 8), chunk = e % (BN / 8);
        if (REFILL == kSharedStores) store_shared_16(b_stage + swizzle<B_ROW>(r, chunk), 0x14001400u);
        else cp_async_16(b_stage + swizzle<B_ROW>(r, chunk), b_source + 8 * e, 16);
      }
      if (REFILL == kCopiesFromL2) cp_async_commit();
    }

    // Puzzle 11's loop over one stage.
    const uint32_t a_stage = a_tiles + (s % STAGES) * A_STAGE, b_stage = b_tiles + (s % STAGES) * B_STAGE;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      uint32_t a_frag[MI][4], b_frag[NI][2];
#pragma unroll
      for (int i = 0; i < MI; ++i)
        ldmatrix_x4(a_frag[i], a_stage + swizzle<A_ROW>(warp_row + 16 * i + lane % 16, kk / 8 + lane / 16));
#pragma unroll
      for (int j = 0; j < NI; j += 2) {
        uint32_t t[4];
        ldmatrix_x4_trans(t, b_stage + swizzle<B_ROW>(kk + lane % 16, (warp_col + 8 * j) / 8 + lane / 16));
        b_frag[j][0] = t[0], b_frag[j][1] = t[1], b_frag[j + 1][0] = t[2], b_frag[j + 1][1] = t[3];
      }
#pragma unroll
      for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j) mma_m16n8k16(acc[i][j], a_frag[i], b_frag[j][0], b_frag[j][1]);
    }
  }
  cp_async_wait<0>();
  float sum = 0;
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j) sum += acc[i][j][0] + acc[i][j][1] + acc[i][j][2] + acc[i][j][3];
  out[blockIdx.x * THREADS + threadIdx.x] = sum;
}

}  // namespace

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs; puzzle 11: %d x %d blocks of %d threads, %d x %d warp tiles, BK %d, %d stages\n",
              prop.name, prop.multiProcessorCount, BM, BN, THREADS, WM, WN, BK, STAGES);

  // cuBLAS's HGEMM and puzzle 11's kernel at 4096³, on the same inputs.
  const int n = 4096;
  HgemmOperands operands(n);
  cublasHandle_t handle;
  CHECK_BLAS(cublasCreate(&handle));
  const double blas = report_cublas_hgemm(handle, operands);

  CHECK(cudaFuncSetAttribute(matmul_mma_sync, cudaFuncAttributeMaxDynamicSharedMemorySize, SHARED_BYTES));
  const double kernel_ms = time_ms(
      [&] {
        matmul_mma_sync<<<dim3((n + BN - 1) / BN, (n + BM - 1) / BM), THREADS, SHARED_BYTES>>>(operands.a, operands.b,
                                                                                     operands.c, n, n, n);
      },
      3, 25);
  const double kernel = 2.0 * n * n * n / kernel_ms / 1e9;
  std::printf("puzzle 11's kernel 4096x4096x4096: %.4f ms, %.1f TFLOP/s = %.1f %% of cuBLAS\n", kernel_ms, kernel,
              100.0 * kernel / blas);

  // The data path alone: every block resident at once (2 per SM), 1024 steps of k each.
  const int grid = 2 * prop.multiProcessorCount, steps = 1024;
  __half* source = nullptr;
  float* out = nullptr;
  CHECK(cudaMalloc(&source, size_t(grid) * (BM * BK + BK * BN) * 2));
  CHECK(cudaMemset(source, 0, size_t(grid) * (BM * BK + BK * BN) * 2));
  CHECK(cudaMalloc(&out, size_t(grid) * THREADS * 4));
  auto measure = [&](auto kernel_of_refill, Refill refill) {
    CHECK(cudaFuncSetAttribute(kernel_of_refill, cudaFuncAttributeMaxDynamicSharedMemorySize, SHARED_BYTES));
    int resident = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel_of_refill, THREADS, SHARED_BYTES));
    const double ms = time_ms([&] { kernel_of_refill<<<grid, THREADS, SHARED_BYTES>>>(source, out, steps); }, 2, 9);
    const double tflops = 2.0 * BM * BN * BK * double(steps) * grid / ms / 1e9;
    std::printf("data path, %-14s: %d blocks per SM, %.3f ms, %.1f TFLOP/s = %.1f %% of cuBLAS\n",
                kRefillNames[refill], resident, ms, tflops, 100.0 * tflops / blas);
  };
  measure(p11_data_path<kNoCopies>, kNoCopies);
  measure(p11_data_path<kSharedStores>, kSharedStores);
  measure(p11_data_path<kCopiesFromL2>, kCopiesFromL2);
  CHECK(cudaFree(source));
  CHECK(cudaFree(out));
  CHECK_BLAS(cublasDestroy(handle));
  return 0;
}

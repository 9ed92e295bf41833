// The ceiling of mma.sync.m16n8k16 (f16 inputs, f32 sums) on this GPU: every SM, operands in
// registers only, several independent accumulators per warp so that no mma waits for the one
// before it; next to cuBLAS's HGEMM at 4096³ (f16 in, f32 sums and out, as the checker's --bench
// calls it) in the same process. That bounds what puzzle 11, which feeds the same instruction
// from shared memory, can reach. Not part of the checker or of CI: a tool for a GPU machine.
//
// Build: the default preset builds it where nvcc can build sm_90a (cmake --build build/default
//        --target mma_sync_peak), or by hand: nvcc -O3 -std=c++17
//        -gencode=arch=compute_90a,code=sm_90a bench/gpu/mma_sync_peak.cu -lcublas -o build/mma_sync_peak
// Run:   build/default/bin/mma_sync_peak   (one line per configuration, then cuBLAS, then the best)
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "check.h"
#include "hgemm_baseline.h"

__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Each warp: `iters` times, ACC independent mmas (one per accumulator).
template <int ACC>
__global__ void mma_peak(float* out, int iters) {
  uint32_t a[4], b[2];
  // Operands that the compiler cannot know: small halves from the thread's index.
  const __half2 x = __floats2half2_rn(1e-3f * (threadIdx.x % 7), -1e-3f * (threadIdx.x % 5));
  for (int i = 0; i < 4; ++i) a[i] = *reinterpret_cast<const uint32_t*>(&x);
  for (int i = 0; i < 2; ++i) b[i] = *reinterpret_cast<const uint32_t*>(&x);
  float d[ACC][4] = {};
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < ACC; ++j) mma_m16n8k16(d[j], a, b);
  }
  float sum = 0;
#pragma unroll
  for (int j = 0; j < ACC; ++j) sum += d[j][0] + d[j][1] + d[j][2] + d[j][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  std::printf("device %s, %d SMs, reported boost clock %d MHz\n", prop.name, sms, clock_khz / 1000);
  float* out = nullptr;
  CHECK(cudaMalloc(&out, size_t(sms) * 32 * 1024 * 4));

  double best = 0;
  auto run = [&](auto kernel, int acc, int warps_per_block, int blocks_per_sm) {
    const int iters = 16384, grid = sms * blocks_per_sm, threads = 32 * warps_per_block;
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, kernel));
    if (attr.numRegs * threads > 65536) {  // the block would not fit on an SM
      std::printf("mma.sync m16n8k16 f32: %2d warps per SM, %2d accumulators per warp: %d registers a thread, too many\n",
                  warps_per_block * blocks_per_sm, acc, attr.numRegs);
      return;
    }
    const double ms = time_ms([&] { kernel<<<grid, threads>>>(out, iters); }, 2, 6);
    const double flops = 2.0 * 16 * 8 * 16 * double(iters) * acc * grid * warps_per_block;
    const double tflops = flops / ms / 1e9;
    best = std::max(best, tflops);
    std::printf("mma.sync m16n8k16 f32: %2d warps per SM, %2d accumulators per warp: %.3f ms, %.1f TFLOP/s\n",
                warps_per_block * blocks_per_sm, acc, ms, tflops);
  };
  for (int warps : {4, 8, 16, 32}) {
    run(mma_peak<2>, 2, warps, 1);
    run(mma_peak<4>, 4, warps, 1);
    run(mma_peak<8>, 8, warps, 1);
    run(mma_peak<16>, 16, warps, 1);
  }

  // cuBLAS HGEMM at 4096³ as the checker's --bench calls it: median of 25 after 3 warm-ups.
  const int n = 4096;
  HgemmOperands operands(n);
  cublasHandle_t handle;
  CHECK_BLAS(cublasCreate(&handle));
  const double blas = report_cublas_hgemm(handle, operands);
  std::printf("best mma.sync: %.1f TFLOP/s = %.1f %% of cuBLAS HGEMM at 4096^3\n", best, 100.0 * best / blas);
  CHECK_BLAS(cublasDestroy(handle));
  return 0;
}

// Puzzle 13's reference kernel outside the checker, to see where its time goes at one shape:
// each launch timed with events next to cuBLAS's HGEMM on the same inputs, with the launch's
// cluster scheduling policy chosen, on several sets of buffers allocated in one process, and a
// traced copy of the kernel (p13_trace.cu: the solution with a few lines that record, per block,
// its SM, its start and end on the GPU's clock and on the SM's cycle counter, and when each of
// its tiles ended). Not part of the checker or of CI: a tool for measuring on a GPU machine.
//
// Build: the default preset builds it where nvcc can build sm_90a (cmake --build build/default
// --target p13_schedule: build/default/bin/p13_schedule), or by hand, from the repository root
// (p13_trace.cu is made by bench/gpu/make_p13_trace.py):
//   python3 bench/gpu/make_p13_trace.py solutions/p13_warp_specialization.cu build/p13_trace.cu
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Isolutions -Ibuild \
//        bench/gpu/p13_schedule.cu -lcublas -lcuda -o build/p13_schedule
// Run: build/p13_schedule M N K SETS ROUNDS [TRACE_FILE]
//   prints one line per (set, variant) with the median of ROUNDS launches, then one line per
//   traced launch (TRACE_FILE gets every block's record of the last traced launch of each set),
//   then the order experiment: after a second of idle GPU each time, 28 launches of cuBLAS then
//   28 of the kernel (the order the checker used to time them in), the kernel first, and the
//   two in turn.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <chrono>
#include <thread>
#include <vector>

#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "check.h"

namespace plain {
#include "p13_warp_specialization.cu"
}
namespace traced {
#include "p13_trace.cu"
}

constexpr int kRecord = traced::TRACE_WORDS;  // words per block in the trace

__global__ void fill_random(__half* p, size_t count, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
    uint32_t x = uint32_t(i) * 2654435761u ^ (uint32_t(i >> 32) + seed) * 2246822519u;
    x ^= x >> 15; x *= 2246822519u; x ^= x >> 13; x *= 3266489917u; x ^= x >> 16;
    p[i] = __float2half(float(x >> 8) / float(1u << 23) - 1.0f);  // [-1, 1)
  }
}

struct Set {
  __half *a = nullptr, *b = nullptr;
  float *c = nullptr;
  CUtensorMap a_map, b_map, c_map;
};

// As the checker encodes them (kernel_args.cpp): no interleave, no L2 promotion, zeros past the edges.
CUtensorMap encode(CUtensorMapDataType type, void* base, uint64_t cols, uint64_t rows, uint64_t row_bytes,
                   uint32_t box_cols, uint32_t box_rows) {
  CUtensorMap map;
  cuuint64_t dims[2] = {cols, rows}, strides[1] = {row_bytes};
  cuuint32_t box[2] = {box_cols, box_rows}, elem[2] = {1, 1};
  CHECK_DRV(cuTensorMapEncodeTiled(&map, type, 2, base, dims, strides, box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                   CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return map;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: %s M N K SETS ROUNDS [TRACE_FILE]\n", argv[0]);
    return 2;
  }
  const int m = std::atoi(argv[1]), n = std::atoi(argv[2]), k = std::atoi(argv[3]);
  const int sets = std::atoi(argv[4]), rounds = std::atoi(argv[5]);
  const char* trace_file = argc > 6 ? argv[6] : nullptr;
  using namespace plain;

  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  const int pairs = ((m + BM - 1) / BM + CLUSTER - 1) / CLUSTER * ((n + BN - 1) / BN);
  const int grid = CLUSTER * std::min(pairs, sms / CLUSTER);
  std::printf("device %s, %d SMs, L2 %d MB; %dx%dx%d, grid %d blocks in clusters of %d, %d bytes of shared memory\n",
              prop.name, sms, prop.l2CacheSize >> 20, m, n, k, grid, CLUSTER, SHARED_BYTES);

  CHECK(cudaFuncSetAttribute(plain::matmul_warp_specialized, cudaFuncAttributeMaxDynamicSharedMemorySize, SHARED_BYTES));
  CHECK(cudaFuncSetAttribute(traced::matmul_warp_specialized, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             SHARED_BYTES));

  // How many clusters of this launch fit on the GPU at once.
  {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = CLUSTER;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = SHARED_BYTES;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int clusters = -1;
    CHECK(cudaOccupancyMaxActiveClusters(&clusters, (void*)plain::matmul_warp_specialized, &cfg));
    int blocks_per_sm = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, plain::matmul_warp_specialized, THREADS,
                                                        SHARED_BYTES));
    std::printf("cudaOccupancyMaxActiveClusters: %d (the grid has %d); blocks per SM: %d\n", clusters, grid / CLUSTER,
                blocks_per_sm);
  }

  std::vector<Set> set(sets);
  for (int s = 0; s < sets; ++s) {
    CHECK(cudaMalloc(&set[s].a, size_t(m) * k * 2));
    CHECK(cudaMalloc(&set[s].b, size_t(k) * n * 2));
    CHECK(cudaMalloc(&set[s].c, size_t(m) * n * 4));
    fill_random<<<1024, 256>>>(set[s].a, size_t(m) * k, 17 + 2 * s);
    fill_random<<<1024, 256>>>(set[s].b, size_t(k) * n, 18 + 2 * s);
    CHECK(cudaGetLastError());
    set[s].a_map = encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, set[s].a, k, m, size_t(k) * 2, BK, BM);
    set[s].b_map = encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, set[s].b, n, k, size_t(n) * 2, 64, BK);
    set[s].c_map = encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, set[s].c, n, m, size_t(n) * 4, EPI_COLS, EPI_ROWS);
    std::printf("set %d: a %p, b %p, c %p\n", s, (void*)set[s].a, (void*)set[s].b, (void*)set[s].c);
  }
  float* c_blas = nullptr;
  CHECK(cudaMalloc(&c_blas, size_t(m) * n * 4));
  unsigned long long* trace = nullptr;
  CHECK(cudaMalloc(&trace, size_t(grid) * kRecord * 8));
  CHECK(cudaMemcpyToSymbol(traced::trace_buffer, &trace, sizeof(trace)));

  cublasHandle_t handle;
  CHECK_BLAS(cublasCreate(&handle));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  auto launch = [&](const void* kernel, Set& s, int policy) {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[2];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = CLUSTER;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    attr[1].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
    attr[1].val.clusterSchedulingPolicyPreference = cudaClusterSchedulingPolicy(policy);
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = SHARED_BYTES;
    cfg.attrs = attr;
    cfg.numAttrs = policy < 0 ? 1 : 2;
    void* args[] = {&s.a_map, &s.b_map, &s.c_map, &s.c, (void*)&m, (void*)&n, (void*)&k};
    CHECK(cudaLaunchKernelExC(&cfg, kernel, args));
  };
  auto blas = [&](Set& s) {
    const float alpha = 1.0f, beta = 0.0f;
    CHECK_BLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, s.b, CUDA_R_16F, n, s.a, CUDA_R_16F,
                            k, &beta, c_blas, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  };
  auto timed = [&](auto&& what) {
    CHECK(cudaEventRecord(start));
    what();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    return double(ms);
  };

  // The kernel's result against cuBLAS's on set 0, on a sample of cells: a wrong launch times nothing.
  {
    launch((const void*)plain::matmul_warp_specialized, set[0], -1);
    blas(set[0]);
    CHECK(cudaDeviceSynchronize());
    std::vector<float> mine(size_t(m) * n), ref(size_t(m) * n);
    CHECK(cudaMemcpy(mine.data(), set[0].c, mine.size() * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ref.data(), c_blas, ref.size() * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (size_t i = 0; i < mine.size(); i += 997) worst = std::max(worst, double(std::fabs(mine[i] - ref[i])));
    std::printf("largest difference from cuBLAS over every 997th cell: %.3g\n", worst);
    if (!(worst < 1e-2 * std::sqrt(double(k)))) {
      std::printf("the kernel's result is wrong: nothing timed\n");
      return 1;
    }
  }

  // Variants: the kernel with no policy attribute, with each policy, and cuBLAS.
  const char* names[] = {"kernel", "kernel_spread", "kernel_balance", "cublas_hgemm"};
  const int policies[] = {-1, int(cudaClusterSchedulingPolicySpread), int(cudaClusterSchedulingPolicyLoadBalancing)};
  std::vector<std::vector<std::vector<double>>> ms(sets, std::vector<std::vector<double>>(4));
  for (int r = 0; r < rounds + 2; ++r)
    for (int s = 0; s < sets; ++s)
      for (int v = 0; v < 4; ++v) {
        double t = v < 3 ? timed([&] { launch((const void*)plain::matmul_warp_specialized, set[s], policies[v]); })
                         : timed([&] { blas(set[s]); });
        if (r >= 2) ms[s][v].push_back(t);  // two rounds of warm-up
      }
  const double flops = 2.0 * m * n * k;
  for (int s = 0; s < sets; ++s)
    for (int v = 0; v < 4; ++v) {
      std::vector<double>& t = ms[s][v];
      std::printf("set %d %-15s median %.4f ms (%.0f TFLOP/s), min %.4f, max %.4f, %.1f %% of cuBLAS\n", s, names[v],
                  median(t), flops / median(t) / 1e9, *std::min_element(t.begin(), t.end()),
                  *std::max_element(t.begin(), t.end()), 100.0 * median(ms[s][3]) / median(t));
    }

  // Traced launches: per launch, the span, how long blocks took to start, the SMs used and the
  // SM clock each block saw (cycles over nanoseconds).
  FILE* out = trace_file ? std::fopen(trace_file, "w") : nullptr;
  if (out) std::fprintf(out, "set launch block smid entry start end cycles pairs tile_ends...\n");
  std::vector<unsigned long long> h(size_t(grid) * kRecord);
  for (int s = 0; s < sets; ++s)
    for (int l = 0; l < 4; ++l) {
      CHECK(cudaMemset(trace, 0, h.size() * 8));
      double t = timed([&] { launch((const void*)traced::matmul_warp_specialized, set[s], -1); });
      CHECK(cudaMemcpy(h.data(), trace, h.size() * 8, cudaMemcpyDeviceToHost));
      unsigned long long t0 = ~0ull, first_end = ~0ull, last_start = 0, last_end = 0;
      double mhz_min = 1e9, mhz_max = 0, mhz_sum = 0;
      std::vector<int> per_sm(sms + 64, 0);
      int pairs_min = 1 << 30, pairs_max = 0;
      for (int b = 0; b < grid; ++b) {
        const unsigned long long* rec = &h[size_t(b) * kRecord];
        t0 = std::min(t0, rec[1]);
        last_start = std::max(last_start, rec[1]);
        first_end = std::min(first_end, rec[3]);
        last_end = std::max(last_end, rec[3]);
        double mhz = double(rec[4] - rec[2]) / double(rec[3] - rec[1]) * 1000.0;
        mhz_min = std::min(mhz_min, mhz);
        mhz_max = std::max(mhz_max, mhz);
        mhz_sum += mhz;
        if (rec[0] < per_sm.size()) per_sm[rec[0]]++;
        pairs_min = std::min(pairs_min, int(rec[5]));
        pairs_max = std::max(pairs_max, int(rec[5]));
      }
      int used = 0, doubled = 0;
      for (int c : per_sm) used += c > 0, doubled += c > 1;
      // Time per tile: the blocks' median gap between tile ends, in microseconds.
      std::vector<double> gaps;
      for (int b = 0; b < grid; ++b) {
        const unsigned long long* rec = &h[size_t(b) * kRecord];
        for (int p = 1; p < int(rec[5]) && p < traced::TRACE_TILES; ++p)
          gaps.push_back(double(rec[traced::TRACE_FIRST_TILE + p] - rec[traced::TRACE_FIRST_TILE + p - 1]) / 1000.0);
      }
      std::printf("traced set %d launch %d: %.4f ms by events; blocks started over %.1f us, ended from %.1f to %.1f us; "
                  "%d SMs used, %d with two blocks; SM clock %.0f-%.0f MHz (mean %.0f); %d-%d tiles per block; "
                  "median %.2f us per tile\n",
                  s, l, t, (last_start - t0) / 1000.0, (first_end - t0) / 1000.0, (last_end - t0) / 1000.0, used,
                  doubled, mhz_min, mhz_max, mhz_sum / grid, pairs_min, pairs_max, gaps.empty() ? 0.0 : median(gaps));
      if (out && l == 3)
        for (int b = 0; b < grid; ++b) {
          const unsigned long long* rec = &h[size_t(b) * kRecord];
          std::fprintf(out, "%d %d %d %llu %lld %lld %lld %llu %llu", s, l, b, rec[0], (long long)(rec[6] - t0),
                       (long long)(rec[1] - t0), (long long)(rec[3] - t0), rec[4] - rec[2], rec[5]);
          for (int p = 0; p < int(rec[5]) && p < traced::TRACE_TILES; ++p)
            std::fprintf(out, " %lld", (long long)(rec[traced::TRACE_FIRST_TILE + p] - t0));
          std::fprintf(out, "\n");
        }
    }
  if (out) std::fclose(out);

  // The order experiment, on set 0: does whichever runs first get the faster launches?
  auto kernel_once = [&] { return timed([&] { launch((const void*)plain::matmul_warp_specialized, set[0], -1); }); };
  auto blas_once = [&] { return timed([&] { blas(set[0]); }); };
  auto series = [&](std::vector<double>& into, auto&& once) {
    for (int i = 0; i < 28; ++i) {
      double t = once();
      if (i >= 3) into.push_back(t);
    }
  };
  auto report = [&](const char* order, std::vector<double>& kernel_ms, std::vector<double>& blas_ms) {
    std::printf("order %-14s kernel median %.4f ms (first 3 timed: %.4f %.4f %.4f, last: %.4f), cuBLAS median %.4f ms "
                "(first 3 timed: %.4f %.4f %.4f, last: %.4f): kernel at %.1f %% of cuBLAS\n",
                order, median(kernel_ms), kernel_ms[0], kernel_ms[1], kernel_ms[2], kernel_ms.back(), median(blas_ms),
                blas_ms[0], blas_ms[1], blas_ms[2], blas_ms.back(), 100.0 * median(blas_ms) / median(kernel_ms));
  };
  for (int repeat = 0; repeat < 2; ++repeat) {
    std::vector<double> k1, b1, k2, b2, k3, b3;
    std::this_thread::sleep_for(std::chrono::seconds(1));
    series(b1, blas_once);
    series(k1, kernel_once);
    report("cublas-first", k1, b1);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    series(k2, kernel_once);
    series(b2, blas_once);
    report("kernel-first", k2, b2);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    for (int i = 0; i < 28; ++i) {
      double tb = blas_once(), tk = kernel_once();
      if (i >= 3) b3.push_back(tb), k3.push_back(tk);
    }
    report("in-turn", k3, b3);
  }
  return 0;
}

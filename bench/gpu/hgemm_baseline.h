// What bench/gpu's tools put beside their own figures: event timing (the median of repeated
// launches after warm-ups) and cuBLAS's HGEMM at n³ on random halves (f16 in, f32 sums and out,
// as the checker's --bench calls it).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "check.h"

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median milliseconds of `repeats` calls of launch() after `warmups`, each between two events;
// every launch is checked.
template <typename Launch>
double time_ms(Launch launch, int warmups, int repeats) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<double> ms;
  for (int r = 0; r < warmups + repeats; ++r) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    if (r >= warmups) ms.push_back(t);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return median(ms);
}

// n × n row-major operands a and b of random halves in [-1, 1) and a float c, on the GPU.
struct HgemmOperands {
  explicit HgemmOperands(int size) : n(size) {
    CHECK(cudaMalloc(&a, size_t(n) * n * 2));
    CHECK(cudaMalloc(&b, size_t(n) * n * 2));
    CHECK(cudaMalloc(&c, size_t(n) * n * 4));
    std::vector<__half> h(size_t(n) * n);
    uint32_t x = 12345;
    for (auto& v : h) {
      x = x * 1664525u + 1013904223u;
      v = __float2half(float(x >> 8) / float(1u << 23) - 1.0f);
    }
    CHECK(cudaMemcpy(a, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
  }
  ~HgemmOperands() {
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
  }
  HgemmOperands(const HgemmOperands&) = delete;
  HgemmOperands& operator=(const HgemmOperands&) = delete;
  int n;
  __half* a = nullptr;
  __half* b = nullptr;
  float* c = nullptr;
};

// cuBLAS's HGEMM c = a · b on the operands (row-major, so cuBLAS computes cᵀ = bᵀ · aᵀ): the
// median of 25 launches after 3 warm-ups, in milliseconds.
inline double cublas_hgemm_ms(cublasHandle_t handle, const HgemmOperands& x) {
  return time_ms(
      [&] {
        const float alpha = 1, beta = 0;
        CHECK_BLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, x.n, x.n, x.n, &alpha, x.b, CUDA_R_16F, x.n, x.a,
                                CUDA_R_16F, x.n, &beta, x.c, CUDA_R_32F, x.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
      },
      3, 25);
}

// Times cuBLAS's HGEMM on the operands, prints its line (milliseconds, TFLOP/s) and returns its
// TFLOP/s, for the figures measured beside it.
inline double report_cublas_hgemm(cublasHandle_t handle, const HgemmOperands& x) {
  const double ms = cublas_hgemm_ms(handle, x), tflops = 2.0 * x.n * x.n * x.n / ms / 1e9;
  std::printf("cuBLAS HGEMM %dx%dx%d (f16 in, f32 out): %.4f ms, %.1f TFLOP/s\n", x.n, x.n, x.n, ms, tflops);
  return tflops;
}

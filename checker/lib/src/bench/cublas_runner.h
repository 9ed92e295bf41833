// cuBLAS as --bench's yardstick: one call of a matrix product on device buffers, timed with
// CUDA events around it. Built from cublas_runner.cpp where the CUDA toolkit is found, and
// from no_cublas.cpp (which refuses) where it is not, so that host code never says #ifdef.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "checker/puzzle.h"

namespace checker {

enum class CublasGemm {
  sgemm,  // cublasSgemm, default math mode: float32 all the way, no TF32
  tf32,   // cublasGemmEx on float32 inputs with CUBLAS_COMPUTE_32F_FAST_TF32
  hgemm,  // cublasGemmEx on fp16 inputs, fp32 output, CUBLAS_COMPUTE_32F
  bf16,   // cublasGemmEx on bf16 inputs, fp32 output, CUBLAS_COMPUTE_32F
};
// "cuBLAS SGEMM", "cuBLAS TF32", "cuBLAS HGEMM", "cuBLAS BF16"
const char* cublas_name(CublasGemm gemm);

class CublasRunner {
 public:
  virtual ~CublasRunner() = default;
  // Row-major c = alpha · a · b + beta · c with a (m x k) and b (k x n): float buffers, or
  // fp16 bits for hgemm, bf16 bits for bf16. Returns the milliseconds between events recorded around the call.
  // Throws engine::Error, with cuBLAS's or CUDA's words, when a call fails.
  virtual double gemm(CublasGemm gemm, const Dims& d, const void* a, const void* b, float* c, float alpha,
                      float beta) = 0;
  // The device's L2 cache, which the timed inputs must not fit in.
  virtual std::size_t l2_bytes() const = 0;
};

// Throws engine::Error when this build has no CUDA toolkit.
std::unique_ptr<CublasRunner> open_cublas();

}  // namespace checker

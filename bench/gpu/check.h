// Error checks for bench/gpu's tools: every CUDA runtime, driver and cuBLAS call stops the tool
// with the file, the line, the call and the error's name (status 2).
#pragma once
#include <cstdio>
#include <cstdlib>

#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                  \
  do {                                                                                               \
    cudaError_t e_ = (call);                                                                         \
    if (e_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));    \
      std::exit(2);                                                                                  \
    }                                                                                                \
  } while (0)
#define CHECK_DRV(call)                                                                              \
  do {                                                                                               \
    CUresult r_ = (call);                                                                            \
    if (r_ != CUDA_SUCCESS) {                                                                        \
      const char* s_ = nullptr;                                                                      \
      cuGetErrorString(r_, &s_);                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_ ? s_ : "?");             \
      std::exit(2);                                                                                  \
    }                                                                                                \
  } while (0)
#define CHECK_BLAS(call)                                                                             \
  do {                                                                                               \
    cublasStatus_t s_ = (call);                                                                      \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                               \
      std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, int(s_));    \
      std::exit(2);                                                                                  \
    }                                                                                                \
  } while (0)

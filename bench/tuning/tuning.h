// Shared by tune.cu and the variant files that run.sh generates: the CUDA headers the kernel
// files include (included here first, at global scope, so that a kernel file included inside a
// namespace finds them already there), error checks, and the registry of kernels to time.
#pragma once

#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#define CUDA_CHECK(call)                                                                     \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
                   cudaGetErrorString(err_));                                                \
      std::fflush(stdout);                                                                   \
      std::exit(3);                                                                          \
    }                                                                                        \
  } while (0)

namespace tuning {

// What a kernel computes, which decides its cuBLAS reference and baseline.
enum class Kind {
  sgemm,             // c = a · b, float
  sgemm_relu,        // c = max(0, a · b), float
  sgemm_alpha_beta,  // c = alpha · a · b + beta · c, float
  hgemm,             // c = a · b, half inputs, float sums and output
};

// Device pointers and sizes of one call; a and b are float or __half as the kind says.
struct Call {
  const void* a;
  const void* b;
  float* c;
  int m, n, k;
  float alpha, beta;
};

struct Kernel {
  std::string variant;  // the id from variants.txt
  std::string name;     // the kernel's function name
  Kind kind;
  int threads;
  // Launches and returns cudaGetLastError(), so that the caller can name what failed.
  std::function<cudaError_t(const Call&)> launch;
  std::function<cudaError_t(cudaFuncAttributes*)> attributes;
};

std::vector<Kernel>& registry();

struct Registrar {
  explicit Registrar(Kernel k) { registry().push_back(std::move(k)); }
};

}  // namespace tuning

// One registration per kernel of a variant file. NS is the namespace the kernel file was
// included in; it defines BM, BN and THREADS, as every puzzle file does.
#define TUNING_GRID(NS, call) dim3(((call).n + NS::BN - 1) / NS::BN, ((call).m + NS::BM - 1) / NS::BM)

#define TUNING_REGISTER_FLOAT(NS, KERNEL, KIND, VARIANT)                                      \
  static tuning::Registrar NS##_##KERNEL##_registrar(tuning::Kernel{                         \
      VARIANT, #KERNEL, tuning::Kind::KIND, NS::THREADS,                                     \
      [](const tuning::Call& x) {                                                            \
        NS::KERNEL<<<TUNING_GRID(NS, x), NS::THREADS>>>(                                     \
            static_cast<const float*>(x.a), static_cast<const float*>(x.b), x.c, x.m, x.n, x.k); \
        return cudaGetLastError();                                                           \
      },                                                                                     \
      [](cudaFuncAttributes* at) { return cudaFuncGetAttributes(at, NS::KERNEL); }})

// Puzzle 9 keeps its tiles in dynamic shared memory (NS::SHARED_BYTES), above 48 KiB for the
// deeper pipelines: the kernel is allowed that much first.
#define TUNING_REGISTER_HALF(NS, KERNEL, VARIANT)                                             \
  static tuning::Registrar NS##_##KERNEL##_registrar(tuning::Kernel{                         \
      VARIANT, #KERNEL, tuning::Kind::hgemm, NS::THREADS,                                    \
      [](const tuning::Call& x) {                                                            \
        cudaError_t e = cudaFuncSetAttribute(NS::KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, \
                                             NS::SHARED_BYTES);                              \
        if (e != cudaSuccess) return e;                                                      \
        NS::KERNEL<<<TUNING_GRID(NS, x), NS::THREADS, NS::SHARED_BYTES>>>(                   \
            static_cast<const __half*>(x.a), static_cast<const __half*>(x.b), x.c, x.m, x.n, x.k); \
        return cudaGetLastError();                                                           \
      },                                                                                     \
      [](cudaFuncAttributes* at) { return cudaFuncGetAttributes(at, NS::KERNEL); }})

#define TUNING_REGISTER_WARP_TILED(NS, VARIANT)                                               \
  static tuning::Registrar NS##_warp_tiled_registrar(tuning::Kernel{                         \
      VARIANT, "matmul_warp_tiled", tuning::Kind::sgemm_alpha_beta, NS::THREADS,             \
      [](const tuning::Call& x) {                                                            \
        NS::matmul_warp_tiled<NS::BM, NS::BN, NS::BK, NS::WM, NS::WN, NS::TM, NS::TN>         \
            <<<TUNING_GRID(NS, x), NS::THREADS>>>(static_cast<const float*>(x.a),             \
                                                 static_cast<const float*>(x.b), x.c, x.m, x.n, \
                                                 x.k, x.alpha, x.beta);                      \
        return cudaGetLastError();                                                           \
      },                                                                                     \
      [](cudaFuncAttributes* at) {                                                           \
        return cudaFuncGetAttributes(                                                        \
            at, NS::matmul_warp_tiled<NS::BM, NS::BN, NS::BK, NS::WM, NS::WN, NS::TM, NS::TN>); \
      }})

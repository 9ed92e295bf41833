// cuBLAS on the GPU, timed with events. Every CUDA and cuBLAS call is checked; a failure
// becomes an engine::Error naming the call, its file and line, and the library's words.
//
// cuBLAS is loaded with dlopen when --bench first needs it, not linked: loading libcublasLt
// (over 500 MB) costs every checker start about 2 s and 200 MB, which the edit -> verdict
// loop cannot afford for a library that only --bench uses.
#include "bench/cublas_runner.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdlib>
#include <vector>

#include "engine/backend.h"

#ifndef PUZZLES_CUBLAS_SONAME
#define PUZZLES_CUBLAS_SONAME "libcublas.so"
#endif
#ifndef PUZZLES_CUBLAS_DIR
#define PUZZLES_CUBLAS_DIR ""
#endif

namespace checker {
namespace {

[[noreturn]] void fail(const std::string& what, const char* call, const char* file, int line) {
  throw engine::Error(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + what);
}

#define BENCH_CUDA_CHECK(call)                                                                          \
  do {                                                                                                  \
    cudaError_t bench_status_ = (call);                                                                 \
    if (bench_status_ != cudaSuccess)                                                                   \
      fail(std::string(cudaGetErrorString(bench_status_)) + " (" + cudaGetErrorName(bench_status_) + ")", \
           #call, __FILE__, __LINE__);                                                                  \
  } while (0)

// The functions --bench calls, with the types the header declares them with.
struct CublasApi {
  decltype(&cublasCreate_v2) create;
  decltype(&cublasDestroy_v2) destroy;
  decltype(&cublasSetMathMode) set_math_mode;
  decltype(&cublasSgemm_v2) sgemm;
  // C++ also sees an inline overload (a cudaDataType compute type): name the library's own.
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                            const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                            cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
  decltype(&cublasGetStatusString) status_string;
  decltype(&cublasGetStatusName) status_name;
};

// The toolkit's cuBLAS: by its soname (LD_LIBRARY_PATH, the loader's cache), then from the
// folder where the build found it, then from CUDA_HOME.
CublasApi load_cublas() {
  std::vector<std::string> candidates{PUZZLES_CUBLAS_SONAME};
  if (*PUZZLES_CUBLAS_DIR) candidates.push_back(std::string(PUZZLES_CUBLAS_DIR) + "/" + PUZZLES_CUBLAS_SONAME);
  if (const char* home = std::getenv("CUDA_HOME"))
    candidates.push_back(std::string(home) + "/lib64/" + PUZZLES_CUBLAS_SONAME);
  void* library = nullptr;
  std::string why;
  for (const std::string& name : candidates) {
    library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library) break;
    if (why.empty()) why = dlerror();
  }
  if (!library)
    throw engine::Error(std::string("--bench times against cuBLAS, and ") + PUZZLES_CUBLAS_SONAME +
                        " (from the CUDA toolkit) cannot be loaded: " + why);
  auto symbol = [&](const char* name) {
    void* address = dlsym(library, name);
    if (!address) throw engine::Error(std::string("this cuBLAS has no ") + name + ": " + dlerror());
    return address;
  };
  CublasApi api;
  api.create = reinterpret_cast<decltype(api.create)>(symbol("cublasCreate_v2"));
  api.destroy = reinterpret_cast<decltype(api.destroy)>(symbol("cublasDestroy_v2"));
  api.set_math_mode = reinterpret_cast<decltype(api.set_math_mode)>(symbol("cublasSetMathMode"));
  api.sgemm = reinterpret_cast<decltype(api.sgemm)>(symbol("cublasSgemm_v2"));
  api.gemm_ex = reinterpret_cast<decltype(api.gemm_ex)>(symbol("cublasGemmEx"));
  api.status_string = reinterpret_cast<decltype(api.status_string)>(symbol("cublasGetStatusString"));
  api.status_name = reinterpret_cast<decltype(api.status_name)>(symbol("cublasGetStatusName"));
  return api;  // the library stays loaded until the program ends
}

#define BENCH_CUBLAS_CHECK(call)                                                                  \
  do {                                                                                            \
    cublasStatus_t bench_status_ = (call);                                                        \
    if (bench_status_ != CUBLAS_STATUS_SUCCESS)                                                   \
      fail(std::string(api_.status_string(bench_status_)) + " (" + api_.status_name(bench_status_) + ")", #call, \
           __FILE__, __LINE__);                                                                   \
  } while (0)

class Cublas final : public CublasRunner {
 public:
  Cublas() : api_(load_cublas()) {
    BENCH_CUBLAS_CHECK(api_.create(&handle_));
    // The default math mode never rounds float32 inputs to TF32: SGEMM is a float32 product.
    BENCH_CUBLAS_CHECK(api_.set_math_mode(handle_, CUBLAS_DEFAULT_MATH));
    BENCH_CUDA_CHECK(cudaEventCreate(&start_));
    BENCH_CUDA_CHECK(cudaEventCreate(&stop_));
    int device = 0, l2 = 0;
    BENCH_CUDA_CHECK(cudaGetDevice(&device));
    BENCH_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    l2_bytes_ = static_cast<std::size_t>(l2);
  }
  ~Cublas() override {
    // Teardown errors change nothing the run has printed: ignore them.
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    api_.destroy(handle_);
  }

  std::size_t l2_bytes() const override { return l2_bytes_; }

  double gemm(CublasGemm gemm, const Dims& d, const void* a, const void* b, float* c, float alpha,
              float beta) override {
    // cuBLAS is column-major: the row-major c = a · b is the column-major cᵀ = bᵀ · aᵀ, so b
    // goes first, and the sizes are n x m with inner size k.
    const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
    BENCH_CUDA_CHECK(cudaEventRecord(start_));
    switch (gemm) {
      case CublasGemm::sgemm:
        BENCH_CUBLAS_CHECK(api_.sgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha,
                                       static_cast<const float*>(b), n, static_cast<const float*>(a), k, &beta, c, n));
        break;
      case CublasGemm::tf32:
        BENCH_CUBLAS_CHECK(api_.gemm_ex(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_32F, n, a,
                                        CUDA_R_32F, k, &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32,
                                        CUBLAS_GEMM_DEFAULT));
        break;
      case CublasGemm::hgemm:
        BENCH_CUBLAS_CHECK(api_.gemm_ex(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16F, n, a,
                                        CUDA_R_16F, k, &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                        CUBLAS_GEMM_DEFAULT));
        break;
      case CublasGemm::bf16:
        BENCH_CUBLAS_CHECK(api_.gemm_ex(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16BF, n, a,
                                        CUDA_R_16BF, k, &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                        CUBLAS_GEMM_DEFAULT));
        break;
    }
    BENCH_CUDA_CHECK(cudaGetLastError());  // a kernel cuBLAS launched may have failed to start
    BENCH_CUDA_CHECK(cudaEventRecord(stop_));
    BENCH_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    BENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  CublasApi api_;
  cublasHandle_t handle_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::size_t l2_bytes_ = 0;
};

}  // namespace

std::unique_ptr<CublasRunner> open_cublas() { return std::unique_ptr<CublasRunner>(new Cublas()); }

}  // namespace checker

// The course's kernels against cuBLAS SGEMM on the GPU, in one run: events around each
// kernel, warm-up first, median of repeats. Each kernel's result is checked against
// cuBLAS's before its time is printed.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_gpu_kernels.h"
#include "checker/matrices.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "stats.h"

namespace {

#define CHECK_CUDA(call)                                                                   \
  do {                                                                                     \
    cudaError_t e = (call);                                                                \
    if (e != cudaSuccess) {                                                                \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)
#define CHECK_CUBLAS(call)                                                                 \
  do {                                                                                     \
    cublasStatus_t s = (call);                                                             \
    if (s != CUBLAS_STATUS_SUCCESS) {                                                      \
      std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, static_cast<int>(s)); \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

using Matmul = engine::Kernel<void(const float*, const float*, float*, int)>;

struct Entry {
  const char* name;
  Matmul kernel;
  unsigned tile;  // 0: one block of 256 threads per row
  int max_n;
};

engine::LaunchConfig config_for(const Entry& e, int n) {
  if (e.tile == 0) return {engine::Dim3(static_cast<unsigned>(n)), engine::Dim3(256)};
  unsigned t = (static_cast<unsigned>(n) + e.tile - 1) / e.tile;
  return {engine::Dim3(t, t), engine::Dim3(e.tile, e.tile)};
}

double max_relative_error(const std::vector<float>& got, const std::vector<float>& want) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, std::fabs(double(got[i]) - want[i]) / (1.0 + std::fabs(double(want[i]))));
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = argc > 1 ? std::atoi(argv[1]) : 10;
  auto opened = engine::open_backend(engine::BackendChoice::gpu);
  engine::Backend& gpu = *opened.backend;
  namespace k = kernels::bench_gpu;
  std::vector<Entry> entries = {
      {"naive (p01)", Matmul(k::cpu_matmul_naive(), k::gpu_matmul_naive()), 16, 0},
      {"row in shared (p02)", Matmul(k::cpu_matmul_single_row_shared(), k::gpu_matmul_single_row_shared()), 0, 1024},
      {"rows+cols shared (p03)", Matmul(k::cpu_matmul_row_col_shared(), k::gpu_matmul_row_col_shared()), 16, 256},
      {"tiled 16x16 (p04)", Matmul(k::cpu_matmul_tiled(), k::gpu_matmul_tiled()), 16, 0},
      {"tiled 32x32", Matmul(k::cpu_matmul_tiled_32(), k::gpu_matmul_tiled_32()), 32, 0},
  };
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::printf("Device: %s; warm-up 2, median of %d; float32 throughout (cuBLAS SGEMM, default math mode)\n",
              gpu.description().c_str(), repeats);
  std::printf("%6s  %-24s %10s %10s %10s %12s\n", "n", "kernel", "ms", "TFLOP/s", "% cuBLAS", "max rel err");
  for (int n : {256, 1024, 4096}) {
    checker::Problem in = checker::random_problem(checker::find_puzzle("p04_tiled"), checker::Dims{n, n, n}, 7);
    std::size_t count = static_cast<std::size_t>(n) * n;
    engine::DeviceArray<float> a(gpu, count, "a"), b(gpu, count, "b"), c(gpu, count, "c"), ref(gpu, count, "ref");
    a.upload(in.a);
    b.upload(in.b);
    double flops = 2.0 * n * double(n) * n;
    // cuBLAS is column-major: row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ.
    const float one = 1.0f, zero = 0.0f;
    std::vector<double> times;
    for (int r = 0; r < repeats + 2; ++r) {
      CHECK_CUDA(cudaEventRecord(start));
      CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b.get(), n, a.get(), n, &zero,
                               ref.get(), n));
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaEventRecord(stop));
      CHECK_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
      if (r >= 2) times.push_back(ms);
    }
    double cublas_ms = bench::median(times);
    std::vector<float> want = ref.download();
    std::printf("%6d  %-24s %10.3f %10.2f %10.1f %12s\n", n, "cuBLAS SGEMM", cublas_ms, flops / cublas_ms / 1e9,
                100.0, "-");
    for (const Entry& e : entries) {
      if (e.max_n && n > e.max_n) continue;
      times.clear();
      for (int r = 0; r < repeats + 2; ++r) {
        engine::LaunchResult res =
            engine::launch(gpu, e.kernel, config_for(e, n), engine::RunOptions{}, a.get(), b.get(), c.get(), n);
        if (!res.clean()) {
          std::fprintf(stderr, "%s failed at n = %d: %s\n", e.name, n, res.rejected.c_str());
          return 1;
        }
        if (r >= 2) times.push_back(res.stats.milliseconds);
      }
      double ms = bench::median(times);
      double err = max_relative_error(c.download(), want);
      char err_text[32];
      std::snprintf(err_text, sizeof err_text, "%.1e", err);
      std::printf("%6d  %-24s %10.3f %10.2f %10.1f %12s\n", n, e.name, ms, flops / ms / 1e9, 100.0 * cublas_ms / ms,
                  err_text);
      if (err > 1e-3) {
        std::fprintf(stderr, "%s disagrees with cuBLAS at n = %d\n", e.name, n);
        return 1;
      }
    }
  }
  CHECK_CUBLAS(cublasDestroy(handle));
  return 0;
}

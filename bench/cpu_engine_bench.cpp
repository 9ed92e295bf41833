// How fast the CPU backend runs the classic 16 x 16 tiled kernel (solutions/p04_tiled.cu),
// plain and instrumented as the checkers run it, against a plain triple loop on one core.
// Each figure is the median of several runs.
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "bench_tiled_instrumented_kernels.h"
#include "bench_tiled_plain_kernels.h"
#include "checker/matrices.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "stats.h"

namespace {

using Matmul = engine::Kernel<void(const float*, const float*, float*, int)>;

double triple_loop_ms(const checker::Problem& in, std::vector<float>& c) {
  int n = static_cast<int>(in.dims.n);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < n; ++k) sum += in.a[i * n + k] * in.b[k * n + j];
      c[i * n + j] = sum;
    }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 5;
  auto backend = engine::open_backend(engine::BackendChoice::cpu).backend;
  Matmul plain(kernels::bench_tiled_plain::cpu_matmul_tiled(), kernels::bench_tiled_plain::gpu_matmul_tiled());
  Matmul checked(kernels::bench_tiled_instrumented::cpu_matmul_tiled(),
                 kernels::bench_tiled_instrumented::gpu_matmul_tiled());
  std::printf("CPU backend: %s; %u hardware threads; median of %d runs\n", backend->description().c_str(),
              std::thread::hardware_concurrency(), runs);
  std::printf("%6s  %-13s %10s %16s %12s %10s\n", "n", "kernel", "time (ms)", "barrier waits/s", "loop (ms)",
              "ratio");
  for (int n : {128, 256, 512}) {
    checker::Problem in = checker::random_problem(checker::find_puzzle("p04_tiled"), checker::Dims{n, n, n}, 1);
    std::vector<float> loop_c(static_cast<std::size_t>(n) * n);
    std::vector<double> loop_times;
    for (int r = 0; r < runs; ++r) loop_times.push_back(triple_loop_ms(in, loop_c));
    double loop_ms = bench::median(loop_times);
    engine::DeviceArray<float> a(*backend, in.a.size(), "a"), b(*backend, in.b.size(), "b"), c(*backend, in.a.size(), "c");
    a.upload(in.a);
    b.upload(in.b);
    unsigned tiles = (static_cast<unsigned>(n) + 15) / 16;
    engine::LaunchConfig config{engine::Dim3(tiles, tiles), engine::Dim3(16, 16)};
    for (const auto& [label, kernel] : {std::pair<const char*, const Matmul*>{"plain", &plain},
                                        std::pair<const char*, const Matmul*>{"instrumented", &checked}}) {
      std::vector<double> times;
      engine::LaunchResult last;
      for (int r = 0; r < runs; ++r) {
        last = engine::launch(*backend, *kernel, config, engine::RunOptions{}, a.get(), b.get(), c.get(), n);
        if (!last.clean()) {
          std::fprintf(stderr, "the benchmark kernel failed: %s\n", last.rejected.c_str());
          return 1;
        }
        times.push_back(last.stats.milliseconds);
      }
      // The engine's result must match the loop's, or the timing means nothing.
      std::vector<float> got = c.download();
      for (std::size_t i = 0; i < got.size(); ++i)
        if (std::abs(got[i] - loop_c[i]) > 1e-3f * (1.0f + std::abs(loop_c[i]))) {
          std::fprintf(stderr, "mismatch at %zu: %g vs %g\n", i, got[i], loop_c[i]);
          return 1;
        }
      double ms = bench::median(times);
      std::printf("%6d  %-13s %10.1f %16.3g %12.1f %9.2fx\n", n, label, ms,
                  static_cast<double>(last.stats.barrier_waits) / (ms / 1000.0), loop_ms, ms / loop_ms);
    }
  }
  std::printf("ratio: the CPU backend's time over the plain triple loop's (one core, same compiler)\n");
  return 0;
}

// How fast the CPU backend runs three reference kernels, plain and instrumented as the checkers
// run them, against a plain triple loop on one core: the naive kernel, which has no barrier
// (solutions/p01_naive.cu), the classic 16 x 16 tiled kernel (solutions/p04_tiled.cu) and a
// register-tiled one with float4 reads from shared memory (puzzle 7's padded kernel,
// solutions/p07_bank_conflicts.cu). Each figure is the median of
// several runs, and each result is checked against the loop's. A second argument keeps only the
// rows whose label contains it (for a profile of one kernel: `cpu_engine_bench 5 "tiled 16x16, plain"`).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "bench_naive_instrumented_kernels.h"
#include "bench_naive_plain_kernels.h"
#include "bench_register_tiled_instrumented_kernels.h"
#include "bench_register_tiled_plain_kernels.h"
#include "bench_tiled_instrumented_kernels.h"
#include "bench_tiled_plain_kernels.h"
#include "checker/matrices.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "stats.h"

namespace {

// The naive kernel and the tiled one take the same arguments and the same 16 x 16 blocks.
using Tiled = engine::Kernel<void(const float*, const float*, float*, int)>;
using RegisterTiled = engine::Kernel<void(const float*, const float*, float*, int, int, int)>;

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

// Launches `run` `runs` times; prints the median and checks the last result against the loop's.
// Returns false (after saying why) when a launch fails or the result is wrong.
template <typename Launch>
bool time_row(const char* only, int n, const char* label, int runs, double loop_ms, const std::vector<float>& loop_c,
              engine::DeviceArray<float>& c, Launch run) {
  if (only != nullptr && std::strstr(label, only) == nullptr) return true;
  std::vector<double> times;
  engine::LaunchResult last;
  for (int r = 0; r < runs; ++r) {
    last = run();
    if (!last.clean()) {
      std::fprintf(stderr, "the benchmark kernel %s failed: %s\n", label, engine::to_string(last.rejected.why));
      return false;
    }
    times.push_back(last.stats.milliseconds);
  }
  // The engine's result must match the loop's, or the timing means nothing.
  std::vector<float> got = c.download();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::abs(got[i] - loop_c[i]) > 1e-3f * (1.0f + std::abs(loop_c[i]))) {
      std::fprintf(stderr, "%s: mismatch at %zu: %g vs %g\n", label, i, got[i], loop_c[i]);
      return false;
    }
  double ms = bench::median(times);
  std::printf("%6d  %-28s %10.1f %16.3g %12.1f %9.2fx\n", n, label, ms,
              static_cast<double>(last.stats.barrier_waits) / (ms / 1000.0), loop_ms, ms / loop_ms);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 5;
  const char* only = argc > 2 ? argv[2] : nullptr;
  if (runs < 1 || argc > 3) {
    std::fprintf(stderr, "usage: cpu_engine_bench [RUNS [KERNEL]]   (RUNS >= 1, default 5; KERNEL: a part of a row's label)\n");
    return 2;
  }
  auto backend = engine::open_backend(engine::BackendChoice::cpu).backend;
  Tiled naive_plain(kernels::bench_naive_plain::cpu_matmul_naive(), kernels::bench_naive_plain::gpu_matmul_naive());
  Tiled naive_checked(kernels::bench_naive_instrumented::cpu_matmul_naive(),
                      kernels::bench_naive_instrumented::gpu_matmul_naive());
  Tiled tiled_plain(kernels::bench_tiled_plain::cpu_matmul_tiled(), kernels::bench_tiled_plain::gpu_matmul_tiled());
  Tiled tiled_checked(kernels::bench_tiled_instrumented::cpu_matmul_tiled(),
                      kernels::bench_tiled_instrumented::gpu_matmul_tiled());
  RegisterTiled register_plain(kernels::bench_register_tiled_plain::cpu_matmul_padded_tile(),
                               kernels::bench_register_tiled_plain::gpu_matmul_padded_tile());
  RegisterTiled register_checked(kernels::bench_register_tiled_instrumented::cpu_matmul_padded_tile(),
                                 kernels::bench_register_tiled_instrumented::gpu_matmul_padded_tile());
  std::printf("CPU backend: %s; %u hardware threads; median of %d runs\n", backend->description().c_str(),
              std::thread::hardware_concurrency(), runs);
  std::printf("%6s  %-28s %10s %16s %12s %10s\n", "n", "kernel", "time (ms)", "barrier waits/s", "loop (ms)",
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
    engine::LaunchConfig tiled{engine::Dim3(tiles, tiles), engine::Dim3(16, 16)};
    unsigned blocks = (static_cast<unsigned>(n) + 127) / 128;  // 128 x 128 tiles of c, 256 threads
    engine::LaunchConfig register_tiled{engine::Dim3(blocks, blocks), engine::Dim3(256)};
    auto launch_tiled = [&](const Tiled& k) {
      return [&, kernel = &k] {
        return engine::launch(*backend, *kernel, tiled, engine::RunOptions{}, a.get(), b.get(), c.get(), n);
      };
    };
    auto launch_register_tiled = [&](const RegisterTiled& k) {
      return [&, kernel = &k] {
        return engine::launch(*backend, *kernel, register_tiled, engine::RunOptions{}, a.get(), b.get(), c.get(), n,
                              n, n);
      };
    };
    if (!time_row(only, n, "naive, plain", runs, loop_ms, loop_c, c, launch_tiled(naive_plain)) ||
        !time_row(only, n, "naive, instrumented", runs, loop_ms, loop_c, c, launch_tiled(naive_checked)) ||
        !time_row(only, n, "tiled 16x16, plain", runs, loop_ms, loop_c, c, launch_tiled(tiled_plain)) ||
        !time_row(only, n, "tiled 16x16, instrumented", runs, loop_ms, loop_c, c, launch_tiled(tiled_checked)) ||
        !time_row(only, n, "register-tiled, plain", runs, loop_ms, loop_c, c, launch_register_tiled(register_plain)) ||
        !time_row(only, n, "register-tiled, instrumented", runs, loop_ms, loop_c, c, launch_register_tiled(register_checked)))
      return 1;
  }
  std::printf("ratio: the CPU backend's time over the plain triple loop's (one core, same compiler)\n");
  return 0;
}

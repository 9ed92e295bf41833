// The engine's semantics, proved on each backend with kernels from engine_kernels.cu.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "backend_fixture.h"
#include "cuda_cpu/vector_types.h"  // float4, for a kernel parameter type
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "engine_kernels_cpu_only_kernels.h"
#include "engine_kernels_kernels.h"
#include "../seconds_text.h"  // checker/engine/src: how a time limit is worded

using engine::DeviceArray;
using engine::Dim3;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;

namespace k = kernels::engine_kernels;

namespace {

template <typename Sig>
engine::Kernel<Sig> kernel(const engine::KernelImage& (*cpu)(), const engine::KernelImage& (*gpu)()) {
  return engine::Kernel<Sig>(cpu(), gpu());
}

void require_clean(const LaunchResult& r) {
  INFO("rejected: " << engine::to_string(r.rejected.why));
  for (const auto& f : r.findings) INFO("finding: " << f.detail << " " << f.buffer);
  REQUIRE(!r.rejected.refused());
  REQUIRE(r.findings.empty());
}

std::vector<int> run_exchange(engine::Backend& backend, unsigned blocks, unsigned threads,
                              RunOptions options = {}) {
  auto exchange = kernel<void(int*)>(k::cpu_exchange_through_shared, k::gpu_exchange_through_shared);
  DeviceArray<int> out(backend, blocks * threads, "out");
  out.upload(std::vector<int>(blocks * threads, -1));
  require_clean(engine::launch(backend, exchange, LaunchConfig{blocks, threads}, options, out.get()));
  return out.download();
}

}  // namespace

BACKEND_TEST("threads exchange values through shared memory across a barrier") {
  const unsigned blocks = 8, threads = 256;
  std::vector<int> out = run_exchange(backend, blocks, threads);
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t)
      CHECK(out[b * threads + t] == static_cast<int>(((t + 1) % threads) * 10 + b));
}

BACKEND_TEST("shared memory is private to each block while blocks run at the same time") {
  auto isolation = kernel<void(int*, int)>(k::cpu_shared_isolation, k::gpu_shared_isolation);
  DeviceArray<int> errors(backend, 1, "errors");
  errors.upload({0});
  require_clean(engine::launch(backend, isolation, LaunchConfig{64, 256}, RunOptions{}, errors.get(), 20));
  CHECK(errors.download()[0] == 0);
}

BACKEND_TEST("1-, 2- and 3-D grids and blocks give every thread its coordinates") {
  auto record = kernel<void(unsigned*)>(k::cpu_record_coordinates, k::gpu_record_coordinates);
  const LaunchConfig shapes[] = {{Dim3(5), Dim3(7)}, {Dim3(3, 2), Dim3(4, 3)}, {Dim3(2, 3, 2), Dim3(4, 2, 3)}};
  for (const LaunchConfig& c : shapes) {
    CAPTURE(c.grid.str(true));
    CAPTURE(c.block.str(true));
    std::size_t threads = c.grid.count() * c.block.count();
    DeviceArray<unsigned> out(backend, threads * 12, "out");
    out.upload(std::vector<unsigned>(threads * 12, 0xFFFFFFFFu));
    require_clean(engine::launch(backend, record, c, RunOptions{}, out.get()));
    std::vector<unsigned> o = out.download();
    for (std::uint64_t b = 0; b < c.grid.count(); ++b)
      for (std::uint64_t t = 0; t < c.block.count(); ++t) {
        Dim3 bi = c.grid.unlinear(b), ti = c.block.unlinear(t);
        const unsigned* r = &o[12 * (b * c.block.count() + t)];
        const unsigned expected[12] = {ti.x, ti.y, ti.z, bi.x, bi.y, bi.z, c.block.x, c.block.y,
                                       c.block.z, c.grid.x, c.grid.y, c.grid.z};
        for (int i = 0; i < 12; ++i) REQUIRE(r[i] == expected[i]);
      }
  }
}

BACKEND_TEST("a 1024-thread block reduces with a barrier in a loop") {
  auto sum = kernel<void(const float*, float*)>(k::cpu_block_sum, k::gpu_block_sum);
  const unsigned blocks = 4, threads = 1024;
  std::vector<float> in(blocks * threads);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 7);  // exact in float
  DeviceArray<float> d_in(backend, in.size(), "in");
  DeviceArray<float> d_out(backend, blocks, "out");
  d_in.upload(in);
  LaunchResult r = engine::launch(backend, sum, LaunchConfig{blocks, threads}, RunOptions{}, d_in.get(), d_out.get());
  require_clean(r);
  std::vector<float> out = d_out.download();
  for (unsigned b = 0; b < blocks; ++b)
    CHECK(out[b] == std::accumulate(in.begin() + b * threads, in.begin() + (b + 1) * threads, 0.0f));
  if (backend.kind() == engine::BackendKind::cpu)  // 1 + log2(1024) barriers per thread
    CHECK(r.stats.barrier_waits == std::uint64_t{blocks} * threads * 11);
}

BACKEND_TEST("launches over the limits are refused with CUDA's reason") {
  auto exchange = kernel<void(int*)>(k::cpu_exchange_through_shared, k::gpu_exchange_through_shared);
  DeviceArray<int> out(backend, 2048, "out");
  using Why = engine::LaunchRejection::Why;
  struct Case {
    LaunchConfig config;
    Why why;
    Dim3 shape, limit_shape;
  };
  const Case cases[] = {
      {{Dim3(1), Dim3(1025)}, Why::too_many_threads, Dim3(1025), Dim3()},
      {{Dim3(1), Dim3(1, 1, 65)}, Why::block_too_large, Dim3(1, 1, 65), Dim3(1024, 1024, 64)},
      {{Dim3(1, 65536), Dim3(32)}, Why::grid_too_large, Dim3(1, 65536), backend.limits().max_grid},
      {{Dim3(0), Dim3(32)}, Why::empty_grid, Dim3(0), Dim3()},
      {{Dim3(1), Dim3(32, 0)}, Why::empty_block, Dim3(32, 0), Dim3()},
  };
  for (const Case& c : cases) {
    LaunchResult r = engine::launch(backend, exchange, c.config, RunOptions{}, out.get());
    CHECK(engine::to_string(r.rejected.why) == std::string(engine::to_string(c.why)));
    CHECK(r.rejected.shape == c.shape);
    CHECK(r.rejected.limit_shape == c.limit_shape);
    if (c.why == Why::too_many_threads) {
      CHECK(r.rejected.requested == 1025);
      CHECK(r.rejected.limit == 1024);
    }
  }
  auto reverse = kernel<void(const float*, float*, int)>(k::cpu_reverse_with_dynamic_shared,
                                                         k::gpu_reverse_with_dynamic_shared);
  DeviceArray<float> f(backend, 16, "f");
  LaunchResult r = engine::launch(backend, reverse, LaunchConfig{Dim3(1), Dim3(8), 64 * 1024}, RunOptions{},
                                  f.get(), f.get(), 8);
  CHECK(r.rejected.why == engine::LaunchRejection::Why::dynamic_shared_too_large);
  CHECK(r.rejected.requested == 65536);
  CHECK(r.rejected.attribute_would_help);
}

TEST_CASE("a time limit is worded with three significant digits, never a bare point") {
  CHECK(engine::seconds_text(2) == "2.00");
  CHECK(engine::seconds_text(0.5) == "0.50");
  CHECK(engine::seconds_text(15.7) == "15.7");
  CHECK(engine::seconds_text(103.2) == "103");  // a limit stretched under an emulator
  CHECK(engine::seconds_text(1030) == "1030");
}

TEST_CASE("cpu: a kernel with more than 48 KiB of static shared memory is refused") {
  auto backend = test_support::backend_or_skip(engine::BackendKind::cpu);
  auto big = kernel<void(float*)>(kernels::engine_kernels_cpu_only::cpu_too_much_shared,
                                  kernels::engine_kernels_cpu_only::gpu_too_much_shared);
  DeviceArray<float> out(*backend, 32, "out");
  LaunchResult r = engine::launch(*backend, big, LaunchConfig{1, 32}, RunOptions{}, out.get());
  CHECK(r.rejected.why == engine::LaunchRejection::Why::static_shared_too_large);
  CHECK(r.rejected.kernel == "too_much_shared");
  CHECK(r.rejected.requested == 65536);
  CHECK(r.rejected.limit == 49152);
}

BACKEND_TEST("atomicAdd on int and float, in global and in shared memory") {
  auto atomics = kernel<void(int*, float*, int*)>(k::cpu_atomic_counts, k::gpu_atomic_counts);
  const unsigned blocks = 32, threads = 256;
  DeviceArray<int> total(backend, 1, "int_total");
  DeviceArray<float> ftotal(backend, 1, "float_total");
  DeviceArray<int> per_block(backend, blocks, "per_block");
  total.upload({0});
  ftotal.upload({0.f});
  require_clean(engine::launch(backend, atomics, LaunchConfig{blocks, threads}, RunOptions{}, total.get(),
                               ftotal.get(), per_block.get()));
  CHECK(total.download()[0] == static_cast<int>(blocks * threads));
  CHECK(ftotal.download()[0] == doctest::Approx(blocks * threads * 0.5));
  for (int c : per_block.download()) CHECK(c == static_cast<int>(threads));
}

BACKEND_TEST("extern __shared__ memory is sized at launch, and its arrays alias") {
  auto reverse = kernel<void(const float*, float*, int)>(k::cpu_reverse_with_dynamic_shared,
                                                         k::gpu_reverse_with_dynamic_shared);
  const int n = 100;
  std::vector<float> in(n);
  std::iota(in.begin(), in.end(), 1.f);
  DeviceArray<float> d_in(backend, n, "in");
  DeviceArray<float> d_out(backend, n + 1, "out");
  d_in.upload(in);
  require_clean(engine::launch(backend, reverse, LaunchConfig{Dim3(1), Dim3(128), n * sizeof(float)}, RunOptions{},
                               d_in.get(), d_out.get(), n));
  std::vector<float> out = d_out.download();
  for (int i = 0; i < n; ++i) CHECK(out[i] == in[n - 1 - i]);
  CHECK(out[n] == 1.f);
}

BACKEND_TEST("float4, min, max and fmaf behave as in CUDA") {
  auto math = kernel<void(const float4*, float*, int)>(k::cpu_vector_math, k::gpu_vector_math);
  const int n = 40;
  std::vector<float> in(4 * n);
  for (int i = 0; i < 4 * n; ++i) in[i] = static_cast<float>((i * 37) % 11) - 5.f;
  DeviceArray<float> d_in(backend, in.size(), "in");
  DeviceArray<float> d_out(backend, n, "out");
  d_in.upload(in);
  require_clean(engine::launch(backend, math, LaunchConfig{2, 32}, RunOptions{},
                               reinterpret_cast<const float4*>(d_in.get()), d_out.get(), n));
  std::vector<float> out = d_out.download();
  for (int i = 0; i < n; ++i) {
    const float* v = &in[4 * i];
    CHECK(out[i] == std::fma(v[0], v[1], std::max(v[2], v[3])) + static_cast<float>(std::min(i, 3)));
  }
}

BACKEND_TEST("repeated runs give identical results") {
  auto sum = kernel<void(const float*, float*)>(k::cpu_block_sum, k::gpu_block_sum);
  const unsigned blocks = 16, threads = 512;
  std::vector<float> in(blocks * threads);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = std::sin(static_cast<float>(i)) * 1e3f;
  DeviceArray<float> d_in(backend, in.size(), "in");
  DeviceArray<float> d_out(backend, blocks, "out");
  d_in.upload(in);
  std::vector<float> first;
  for (int run = 0; run < 5; ++run) {
    require_clean(engine::launch(backend, sum, LaunchConfig{blocks, threads}, RunOptions{}, d_in.get(), d_out.get()));
    std::vector<float> out = d_out.download();
    if (run == 0) first = out;
    CHECK(std::memcmp(first.data(), out.data(), first.size() * sizeof(float)) == 0);
  }
  std::vector<int> exchange_first = run_exchange(backend, 4, 128);
  for (int run = 0; run < 3; ++run) CHECK(run_exchange(backend, 4, 128) == exchange_first);
}

TEST_CASE("cpu: a correct kernel gives the same result in every thread order") {
  auto backend = test_support::backend_or_skip(engine::BackendKind::cpu);
  RunOptions forward, reverse, shuffled;
  reverse.order = engine::ThreadOrder::reverse;
  shuffled.order = engine::ThreadOrder::shuffled;
  shuffled.shuffle_seed = 42;
  std::vector<int> a = run_exchange(*backend, 4, 96, forward);
  CHECK(run_exchange(*backend, 4, 96, reverse) == a);
  CHECK(run_exchange(*backend, 4, 96, shuffled) == a);
}

// The CUDA of fast kernels on both backends (feature_kernels.cu), and the findings its
// misuse yields on the CPU backend (misuse_kernels.cu). Where CUDA defines the result
// exactly, the two backends must agree bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "backend_fixture.h"
#include "cuda_cpu/compat/cuda_fp16.h"
#include "cuda_cpu/runtime_hooks.h"
#include "cuda_cpu/vector_types.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "feature_kernels_kernels.h"
#include "fp16_kernels_kernels.h"
#include "misuse_kernels_kernels.h"
#include "shared_layout.h"  // the engine's own: how it finds __shared__ variables

using engine::DeviceArray;
using engine::Dim3;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;

namespace f = kernels::feature_kernels;
namespace m = kernels::misuse_kernels;

namespace {

template <typename Sig>
engine::Kernel<Sig> kernel(const engine::KernelImage& (*cpu)(), const engine::KernelImage& (*gpu)()) {
  return engine::Kernel<Sig>(cpu(), gpu());
}

void require_clean(const LaunchResult& r) {
  INFO("rejected: " << engine::to_string(r.rejected.why));
  for (const auto& finding : r.findings)
    INFO("finding: kind " << static_cast<int>(finding.kind) << " " << finding.detail << " " << finding.buffer
                          << " line " << finding.at.line);
  REQUIRE(!r.rejected.refused());
  REQUIRE(r.findings.empty());
}

const engine::Finding* first_of(const LaunchResult& r, FindingKind kind) {
  for (const auto& finding : r.findings)
    if (finding.kind == kind) return &finding;
  return nullptr;
}

std::vector<float> random_floats(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = d(rng);
  return v;
}

}  // namespace

BACKEND_TEST("shuffles, votes and __activemask give CUDA's results") {
  auto warp = kernel<void(int*)>(f::cpu_warp_functions, f::gpu_warp_functions);
  const unsigned blocks = 2, threads = 64;
  DeviceArray<int> out(backend, blocks * threads * 10, "out");
  require_clean(engine::launch(backend, warp, LaunchConfig{blocks, threads}, RunOptions{}, out.get()));
  std::vector<int> o = out.download();
  for (unsigned t = 0; t < blocks * threads; ++t) {
    CAPTURE(t);
    int lane = static_cast<int>(t % 32), w = static_cast<int>((t % threads) / 32);
    auto value = [&](int l) { return 3 * l + w; };
    const int* r = &o[10 * t];
    CHECK(r[0] == value(5));
    CHECK(r[1] == value((lane & ~7) + ((lane + 1) & 7)));
    CHECK(r[2] == value(lane >= 3 ? lane - 3 : lane));
    CHECK(r[3] == value((lane % 16) + 2 < 16 ? lane + 2 : lane));
    CHECK(r[4] == value(lane ^ 1));
    CHECK(static_cast<unsigned>(r[5]) == 0x49249249u);  // lanes 0, 3, 6, ..., 30
    CHECK(r[6] == 1);
    CHECK(r[7] == 0);
    CHECK(static_cast<unsigned>(r[8]) == 0xFFFFFFFFu);
    CHECK(r[9] == 3 * (31 * 32 / 2) + 32 * w);
  }
}

BACKEND_TEST("a warp reduces through shared memory ordered by __syncwarp alone, race-free") {
  auto reduce = kernel<void(const float*, float*)>(f::cpu_warp_reduce_shared, f::gpu_warp_reduce_shared);
  std::vector<float> in(4 * 32);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 5);  // exact sums
  DeviceArray<float> d_in(backend, in.size(), "in"), d_out(backend, 4, "out");
  d_in.upload(in);
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    RunOptions options;
    options.order = order;
    require_clean(engine::launch(backend, reduce, LaunchConfig{4, 32}, options, d_in.get(), d_out.get()));
    std::vector<float> out = d_out.download();
    for (unsigned b = 0; b < 4; ++b) CHECK(out[b] == std::accumulate(in.begin() + 32 * b, in.begin() + 32 * (b + 1), 0.0f));
  }
}

BACKEND_TEST("float4, int4, uint4 and float2 move through global and shared memory intact") {
  auto copies = kernel<void(const float4*, float4*, const int4*, int4*, float2*)>(f::cpu_vector_copies,
                                                                                   f::gpu_vector_copies);
  const unsigned blocks = 3, threads = 64, count = blocks * threads;
  std::vector<float> in = random_floats(4 * count, 7);
  std::vector<int> in_int(4 * count);
  std::iota(in_int.begin(), in_int.end(), -100);
  DeviceArray<float> d_in(backend, in.size(), "in"), d_out(backend, in.size(), "out");
  DeviceArray<int> d_in_int(backend, in_int.size(), "in_int"), d_out_int(backend, in_int.size(), "out_int");
  DeviceArray<float> d_out2(backend, 2 * count, "out2");
  d_in.upload(in);
  d_in_int.upload(in_int);
  require_clean(engine::launch(backend, copies, LaunchConfig{blocks, threads}, RunOptions{},
                               reinterpret_cast<const float4*>(d_in.get()), reinterpret_cast<float4*>(d_out.get()),
                               reinterpret_cast<const int4*>(d_in_int.get()), reinterpret_cast<int4*>(d_out_int.get()),
                               reinterpret_cast<float2*>(d_out2.get())));
  std::vector<float> out = d_out.download(), out2 = d_out2.download();
  std::vector<int> out_int = d_out_int.download();
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t) {
      unsigned i = b * threads + t, src = b * threads + (threads - 1 - t), next = b * threads + (t + 1) % threads;
      for (int c = 0; c < 4; ++c) {
        CHECK(out[4 * i + c] == in[4 * src + (3 - c)]);
        CHECK(out_int[4 * i + c] == in_int[4 * next + c]);
      }
      CHECK(out2[2 * i] == in[2 * i]);
      CHECK(out2[2 * i + 1] == in[2 * i + 1]);
    }
}

BACKEND_TEST("templates, __launch_bounds__, #pragma unroll, __ldg, fmaf and __syncthreads_count/and/or") {
  auto features = kernel<void(const float*, float*, int*)>(f::cpu_template_features, f::gpu_template_features);
  const unsigned blocks = 2, threads = 128, items = 4;
  std::vector<float> in(blocks * threads * items);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 64);
  DeviceArray<float> d_in(backend, in.size(), "in"), d_out(backend, blocks * threads, "out");
  DeviceArray<int> counts(backend, 3 * blocks + 1, "counts");
  d_in.upload(in);
  counts.upload(std::vector<int>(3 * blocks + 1, 0));
  require_clean(engine::launch(backend, features, LaunchConfig{blocks, threads}, RunOptions{}, d_in.get(), d_out.get(),
                               counts.get()));
  std::vector<float> out = d_out.download();
  std::vector<int> c = counts.download();
  for (unsigned b = 0; b < blocks; ++b) {
    int positive = 0;
    for (unsigned t = 0; t < threads; ++t) {
      float acc = 0.0f;
      for (unsigned i = 0; i < items; ++i) acc = std::fma(in[(b * threads + t) * items + i], 2.0f, std::fma(acc, 1.0f, 0.5f));
      CHECK(out[b * threads + t] == acc);
      positive += acc > 100.0f;
    }
    CHECK(c[3 * b] == positive);
    CHECK(c[3 * b + 1] == 1);
    CHECK(c[3 * b + 2] == 1);
  }
  float total;
  std::memcpy(&total, &c[3 * blocks], 4);
  CHECK(total == 0.25f * blocks * threads);
}

BACKEND_TEST("dynamic shared memory above 48 KiB needs cudaFuncSetAttribute, and stops at the device's limit") {
  auto big = kernel<void(const float*, float*, int)>(f::cpu_big_dynamic_shared, f::gpu_big_dynamic_shared);
  const int count = 40000;  // 160000 bytes
  std::vector<float> in = random_floats(count, 3);
  DeviceArray<float> d_in(backend, count, "in"), d_out(backend, count, "out");
  d_in.upload(in);
  LaunchConfig config{1, 256, count * sizeof(float)};
  LaunchResult refused = engine::launch(backend, big, config, RunOptions{}, d_in.get(), d_out.get(), count);
  CHECK(refused.rejected.why == engine::LaunchRejection::Why::dynamic_shared_too_large);
  CHECK(refused.rejected.kernel == "big_dynamic_shared");
  CHECK(refused.rejected.attribute_would_help);
  backend.set_max_dynamic_shared_bytes(big.image(backend.kind()), count * sizeof(float));
  require_clean(engine::launch(backend, big, config, RunOptions{}, d_in.get(), d_out.get(), count));
  std::vector<float> out = d_out.download();
  for (int i = 0; i < count; ++i) REQUIRE(out[i] == in[count - 1 - i]);
  try {
    backend.set_max_dynamic_shared_bytes(big.image(backend.kind()), 300 * 1024);
    FAIL("300 KiB of dynamic shared memory was allowed");
  } catch (const engine::LaunchRefused& e) {
    CHECK(e.rejection.why == engine::LaunchRejection::Why::attribute_too_large);
    CHECK(e.rejection.requested == 300 * 1024);
    CHECK(e.rejection.limit == backend.limits().max_shared_optin);
  }
}

BACKEND_TEST("asynchronous copies with double buffering give the same sums in every thread order") {
  auto sums = kernel<void(const float*, float*)>(f::cpu_async_double_buffer, f::gpu_async_double_buffer);
  const unsigned blocks = 3;
  std::vector<float> in(blocks * 8 * 256);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>((i * 7) % 13);  // exact sums
  DeviceArray<float> d_in(backend, in.size(), "in"), d_out(backend, blocks * 64, "out");
  d_in.upload(in);
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    require_clean(engine::launch(backend, sums, LaunchConfig{blocks, 64}, options, d_in.get(), d_out.get()));
    std::vector<float> out = d_out.download();
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < 64; ++t) {
        float expected = 0.0f;
        for (unsigned c = 0; c < 8; ++c)
          for (unsigned i = 0; i < 4; ++i) expected += in[b * 2048 + c * 256 + (4 * t + 17 * i) % 256];
        REQUIRE(out[b * 64 + t] == expected);
      }
  }
}

BACKEND_TEST("wmma: 16x16x16 half products with float accumulation, both layouts, fragments element-wise") {
  auto tile = kernel<void(const __half*, const __half*, const __half*, float*, float*)>(f::cpu_wmma_tile, f::gpu_wmma_tile);
  std::vector<float> a = random_floats(256, 11), b = random_floats(256, 12), c = random_floats(256, 13);
  std::vector<std::uint16_t> ha(256), hb_row(256), hb_col(256);
  for (int i = 0; i < 256; ++i) {
    ha[i] = __half_as_ushort(__float2half_rn(a[i]));
    a[i] = __half2float(__ushort_as_half(ha[i]));
    hb_row[i] = __half_as_ushort(__float2half_rn(b[i]));
    b[i] = __half2float(__ushort_as_half(hb_row[i]));
  }
  for (int r = 0; r < 16; ++r)
    for (int col = 0; col < 16; ++col) hb_col[col * 16 + r] = hb_row[r * 16 + col];
  DeviceArray<std::uint16_t> da(backend, 256, "a"), db_row(backend, 256, "b_row"), db_col(backend, 256, "b_col");
  DeviceArray<float> dc_row(backend, 256, "c_row"), dc_col(backend, 256, "c_col");
  da.upload(ha);
  db_row.upload(hb_row);
  db_col.upload(hb_col);
  dc_row.upload(c);
  dc_col.upload(std::vector<float>(256, -1.0f));
  require_clean(engine::launch(backend, tile, LaunchConfig{1, 32}, RunOptions{}, reinterpret_cast<const __half*>(da.get()),
                               reinterpret_cast<const __half*>(db_row.get()), reinterpret_cast<const __half*>(db_col.get()),
                               dc_row.get(), dc_col.get()));
  std::vector<float> row = dc_row.download(), col = dc_col.download();
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double product = 0, magnitude = 0;
      for (int k = 0; k < 16; ++k) {
        product += double(a[i * 16 + k]) * b[k * 16 + j];
        magnitude += std::fabs(double(a[i * 16 + k]) * b[k * 16 + j]);
      }
      double tolerance = 1e-5 * (magnitude + std::fabs(c[i * 16 + j]));
      CHECK(std::fabs(row[i * 16 + j] - 2.0 * (product + c[i * 16 + j])) <= 2 * tolerance);
      CHECK(std::fabs(col[j * 16 + i] - product) <= tolerance);  // stored column-major
    }
}

BACKEND_TEST("a tutorial-style SGEMM (templated block tiling, float4 loads, a transposed tile) matches a reference") {
  auto sgemm = kernel<void(int, int, int, const float*, const float*, float*)>(f::cpu_sgemm_2d_blocktiling,
                                                                               f::gpu_sgemm_2d_blocktiling);
  const int m = 128, n = 192, k = 64;
  std::vector<float> a = random_floats(m * k, 21), b = random_floats(k * n, 22);
  DeviceArray<float> da(backend, a.size(), "a"), db(backend, b.size(), "b"), dc(backend, m * n, "c");
  da.upload(a);
  db.upload(b);
  require_clean(engine::launch(backend, sgemm, LaunchConfig{Dim3(n / 64, m / 64), Dim3(128)}, RunOptions{}, m, n, k,
                               da.get(), db.get(), dc.get()));
  std::vector<float> c = dc.download();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double expected = 0, magnitude = 0;
      for (int p = 0; p < k; ++p) {
        expected += double(a[i * k + p]) * b[p * n + j];
        magnitude += std::fabs(double(a[i * k + p]) * b[p * n + j]);
      }
      REQUIRE(std::fabs(c[i * n + j] - expected) <= 2 * (k + 1) * std::ldexp(1.0, -24) * magnitude + 1e-30);
    }
}

BACKEND_TEST("threads writing the two halves of one shared word do not race") {
  auto halves = kernel<void(float*)>(f::cpu_half_words, f::gpu_half_words);
  DeviceArray<float> out(backend, 64, "out");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    RunOptions options;
    options.order = order;
    require_clean(engine::launch(backend, halves, LaunchConfig{1, 64}, options, out.get()));
    std::vector<float> o = out.download();
    for (int t = 0; t < 64; ++t) CHECK(o[t] == static_cast<float>(63 - t));
  }
}

// --- Half precision: the same bits on both backends -----------------------------------------

TEST_CASE("gpu: half-precision operations give the same bits on the CPU backend as on the GPU" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto cpu = engine::open_backend(engine::BackendChoice::cpu).backend;
  auto gpu = engine::open_backend(engine::BackendChoice::gpu).backend;
  namespace h = kernels::fp16_kernels;
  auto ops = kernel<void(const unsigned short*, const unsigned short*, const unsigned short*, unsigned short*, int)>(
      h::cpu_half_ops, h::gpu_half_ops);
  auto to_half = kernel<void(const unsigned int*, unsigned short*, int)>(h::cpu_float_to_half, h::gpu_float_to_half);
  const int count = 1 << 16;
  std::mt19937 rng(5);
  std::vector<unsigned short> x(count), y(count), z(count);
  for (int i = 0; i < count; ++i) {
    x[i] = static_cast<unsigned short>(i);  // every half
    y[i] = static_cast<unsigned short>(rng());
    z[i] = static_cast<unsigned short>(rng());
  }
  std::vector<unsigned int> floats(count);
  for (unsigned int& v : floats) v = static_cast<unsigned int>(rng());
  auto run = [&](engine::Backend& be) {
    DeviceArray<unsigned short> dx(be, count, "x"), dy(be, count, "y"), dz(be, count, "z");
    DeviceArray<unsigned short> out(be, std::size_t(count) * 34, "out"), halves(be, std::size_t(count) * 6, "halves");
    DeviceArray<unsigned int> df(be, count, "f");
    dx.upload(x);
    dy.upload(y);
    dz.upload(z);
    df.upload(floats);
    require_clean(engine::launch(be, ops, LaunchConfig{64, 256}, RunOptions{}, dx.get(), dy.get(), dz.get(), out.get(), count));
    require_clean(engine::launch(be, to_half, LaunchConfig{64, 256}, RunOptions{}, df.get(), halves.get(), count));
    std::vector<unsigned short> all = out.download(), h2 = halves.download();
    all.insert(all.end(), h2.begin(), h2.end());
    return all;
  };
  std::vector<unsigned short> on_cpu = run(*cpu), on_gpu = run(*gpu);
  REQUIRE(on_cpu.size() == on_gpu.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < on_cpu.size(); ++i) differ += on_cpu[i] != on_gpu[i];
  CHECK(differ == 0);
}

// --- Misuse: each mistake is a finding at its line (CPU backend) -----------------------------

namespace {

std::unique_ptr<engine::Backend> cpu_backend() {
  test_support::note_started();
  return engine::open_backend(engine::BackendChoice::cpu).backend;
}

template <typename Sig, typename... Args>
LaunchResult run_misuse(engine::Backend& be, const engine::KernelImage& (*cpu)(), const engine::KernelImage& (*gpu)(),
                        LaunchConfig config, Args... args) {
  return engine::launch(be, kernel<Sig>(cpu, gpu), config, RunOptions{}, args...);
}

}  // namespace

TEST_CASE("cpu: a lane outside a __shfl_sync's mask, a lane that never arrives, and a source lane outside it") {
  auto be = cpu_backend();
  DeviceArray<int> out(*be, 64, "out");
  LaunchResult r = run_misuse<void(int*)>(*be, m::cpu_shfl_lane_not_in_mask, m::gpu_shfl_lane_not_in_mask,
                                          LaunchConfig{1, 32}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::warp_misuse);
  REQUIRE(f);
  CHECK(f->op == "__shfl_sync");
  CHECK(f->misuse == engine::Finding::Misuse::own_lane_not_in_mask);
  CHECK(f->where.thread.x == 16);
  CHECK(f->at.line == 13);

  r = run_misuse<void(int*)>(*be, m::cpu_shfl_missing_lane, m::gpu_shfl_missing_lane, LaunchConfig{1, 32}, out.get());
  f = first_of(r, FindingKind::warp_divergence);
  REQUIRE(f);
  CHECK(f->op == "__shfl_sync");
  REQUIRE(f->groups.size() == 2);
  CHECK(f->groups[0].count == 31);
  CHECK(!f->groups[0].returned);
  CHECK(f->groups[0].waits_for == "__shfl_sync");
  CHECK(f->groups[0].barrier.line == 20);
  CHECK(f->groups[1].returned);
  CHECK(f->groups[1].sample.at(0).x == 31);

  r = run_misuse<void(int*)>(*be, m::cpu_shfl_source_outside_mask, m::gpu_shfl_source_outside_mask, LaunchConfig{1, 32},
                             out.get());
  f = first_of(r, FindingKind::warp_misuse);
  REQUIRE(f);
  CHECK(f->misuse == engine::Finding::Misuse::source_lane_not_in_mask);
  CHECK(f->misuse_value == 20);
}

TEST_CASE("cpu: a misaligned float4 is a finding, and a float4 far past the end names the buffer and the index") {
  auto be = cpu_backend();
  DeviceArray<float> in(*be, 64, "in"), out(*be, 16, "out");
  LaunchResult r = run_misuse<void(const float*, float*)>(*be, m::cpu_misaligned_float4, m::gpu_misaligned_float4,
                                                          LaunchConfig{1, 8}, in.get(), out.get());
  const engine::Finding* f = first_of(r, FindingKind::misaligned);
  REQUIRE(f);
  CHECK(f->buffer == "in");
  CHECK(f->index == 1);
  CHECK(f->access_size == 16);
  CHECK(f->at.line == 32);
  CHECK(f->at.file.find("misuse_kernels.cu") != std::string::npos);

  r = run_misuse<void(const float*, float*)>(*be, m::cpu_float4_past_the_end, m::gpu_float4_past_the_end,
                                             LaunchConfig{1, 16}, in.get(), out.get());
  f = first_of(r, FindingKind::out_of_bounds);
  REQUIRE(f);
  CHECK(f->buffer == "in");
  CHECK(f->index == 64);  // thread 4 reads in[64..67]
  CHECK(f->where.thread.x == 4);
  CHECK(f->at.line == 38);
  CHECK(r.total(FindingKind::fault) == 0);
}

TEST_CASE("cpu: reading an async copy's destination before the wait, waiting on the wrong group, overwriting the source") {
  auto be = cpu_backend();
  DeviceArray<float> in(*be, 256, "in"), out(*be, 32, "out");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    auto early = kernel<void(const float*, float*)>(m::cpu_async_read_before_wait, m::gpu_async_read_before_wait);
    LaunchResult r = engine::launch(*be, early, LaunchConfig{1, 32}, options, in.get(), out.get());
    const engine::Finding* f = first_of(r, FindingKind::async_copy);
    REQUIRE(f);
    CHECK(f->buffer == "tile");
    CHECK(f->op == "read");
    CHECK(f->at.line == 47);
    CHECK(f->other_at.line == 45);
  }
  LaunchResult r = run_misuse<void(const float*, float*)>(*be, m::cpu_async_wait_wrong_group, m::gpu_async_wait_wrong_group,
                                                          LaunchConfig{1, 32}, in.get(), out.get());
  const engine::Finding* f = first_of(r, FindingKind::async_copy);
  REQUIRE(f);
  CHECK(f->buffer == "second");
  CHECK(f->at.line == 60);
  CHECK(f->other_at.line == 57);
  r = run_misuse<void(float*, float*)>(*be, m::cpu_async_source_overwritten, m::gpu_async_source_overwritten,
                                       LaunchConfig{1, 32}, in.get(), out.get());
  f = first_of(r, FindingKind::async_copy);
  REQUIRE(f);
  CHECK(f->buffer == "in");
  CHECK(f->op == "source written");
  CHECK(f->at.line == 68);
  CHECK(f->other_at.line == 66);
}

TEST_CASE("cpu: a lane that skips a wmma load, and an ldm CUDA does not allow") {
  auto be = cpu_backend();
  DeviceArray<std::uint16_t> a(*be, 16 * 32, "a");
  DeviceArray<float> c(*be, 32, "c");
  auto* ha = reinterpret_cast<const __half*>(a.get());
  LaunchResult r = run_misuse<void(const __half*, float*)>(*be, m::cpu_wmma_lane_skips, m::gpu_wmma_lane_skips,
                                                           LaunchConfig{1, 32}, ha, c.get());
  const engine::Finding* f = first_of(r, FindingKind::warp_divergence);
  REQUIRE(f);
  CHECK(f->op == "wmma::load_matrix_sync");
  CHECK(f->groups.at(0).count == 16);
  CHECK(f->groups.at(0).barrier.line == 76);
  r = run_misuse<void(const __half*, float*)>(*be, m::cpu_wmma_bad_ldm, m::gpu_wmma_bad_ldm, LaunchConfig{1, 32}, ha,
                                              c.get());
  f = first_of(r, FindingKind::warp_misuse);
  REQUIRE(f);
  CHECK(f->misuse == engine::Finding::Misuse::wmma_bad_ldm);
  CHECK(f->misuse_value == 20);
  CHECK(f->misuse_limit == 8);
  CHECK(f->misuse_subject == "__half");
  CHECK(f->at.line == 83);
}

TEST_CASE("cpu: a failed assert names the thread, the line and the expression") {
  auto be = cpu_backend();
  DeviceArray<int> out(*be, 32, "out");
  LaunchResult r = run_misuse<void(int*)>(*be, m::cpu_failing_assert, m::gpu_failing_assert, LaunchConfig{1, 32}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::assertion);
  REQUIRE(f);
  CHECK(f->where.thread.x == 5);
  CHECK(f->at.line == 89);
  CHECK(f->detail == "assert(threadIdx.x != 5) failed");
}

TEST_CASE("cpu: races through struct copies and merged reads are found in every thread order") {
  auto be = cpu_backend();
  DeviceArray<float> in(*be, 64 * 3, "in"), out(*be, 64, "out");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    void* args_in = in.get();
    float* args_out = out.get();
    void* args[] = {&args_in, &args_out, nullptr};
    LaunchResult r = be->launch(m::cpu_copy_race(), LaunchConfig{1, 64}, args, options);
    const engine::Finding* f = first_of(r, FindingKind::shared_race);
    REQUIRE(f);
    CHECK(f->buffer == "staged");
  }
}

TEST_CASE("cpu: a float4 SGEMM with its first barrier removed yields the race at its line in every order") {
  auto be = cpu_backend();
  const int m = 64, n = 64, k = 16;
  DeviceArray<float> a(*be, m * k, "a"), b(*be, k * n, "b"), c(*be, m * n, "c");
  a.upload(random_floats(m * k, 1));
  b.upload(random_floats(k * n, 2));
  auto sgemm = kernel<void(int, int, int, const float*, const float*, float*)>(f::cpu_sgemm_missing_barrier,
                                                                               f::gpu_sgemm_missing_barrier);
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    LaunchResult r = engine::launch(*be, sgemm, LaunchConfig{1, 128}, options, m, n, k, a.get(), b.get(), c.get());
    const engine::Finding* f = first_of(r, FindingKind::shared_race);
    REQUIRE(f);
    CHECK((f->buffer == "As" || f->buffer == "Bs"));
    INFO("at " << f->at.file << ":" << f->at.line << ", other " << f->other_at.file << ":" << f->other_at.line);
    CHECK(f->at.file.find("feature_kernels.cu") != std::string::npos);
    CHECK(f->other_at.file.find("feature_kernels.cu") != std::string::npos);
  }
}

TEST_CASE("cpu: a finding every thread of every block makes is counted once each, and the first four in (block, "
          "thread) order are kept, in every order") {
  // Every worker reports at once, most findings past the kept ones: the lock-free rejection
  // (LaunchReport::add) must neither lose a count nor keep a later finding.
  auto be = cpu_backend();
  const unsigned blocks = 96, threads = 256;
  DeviceArray<float> out(*be, blocks * threads, "out");
  auto reads = kernel<void(float*)>(m::cpu_every_thread_reads_unwritten, m::gpu_every_thread_reads_unwritten);
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    LaunchResult r = engine::launch(*be, reads, LaunchConfig{blocks, threads}, options, out.get());
    CHECK(r.total(FindingKind::uninitialized_shared) == blocks * threads);
    std::vector<unsigned> kept_threads;
    for (const auto& finding : r.findings) {
      if (finding.kind != FindingKind::uninitialized_shared) continue;
      CHECK(finding.where.block.x == 0);
      kept_threads.push_back(finding.where.thread.x);
    }
    std::sort(kept_threads.begin(), kept_threads.end());
    CHECK(kept_threads == std::vector<unsigned>{0, 1, 2, 3});
  }
}

TEST_CASE("cpu: with the limit on each block a grid of short blocks runs to its end, longer than the limit, and a "
          "block that never ends is the only one named") {
  // 192 blocks of 20 ms (by the device clock, which is the wall clock) on at most two workers
  // take about two seconds: past a 0.5 s limit on the launch even on a machine so busy that the
  // workers' own time is a fraction of that (past three times the limit by the clock, which stops
  // the launch whatever the load), and each block 25 times within the limit.
  auto be = cpu_backend();
  const int blocks = 192;
  DeviceArray<int> out(*be, blocks, "out");
  DeviceArray<int> never_set(*be, 1, "never_set");
  never_set.upload({0});
  auto spin = kernel<void(long long, int*)>(m::cpu_spin_in_each_block, m::gpu_spin_in_each_block);
  const long long cycles = 20LL * cuda_cpu::kClockKhz;  // 20 ms
  RunOptions whole_launch;
  whole_launch.timeout_seconds = 0.5;
  LaunchResult late = engine::launch(*be, spin, LaunchConfig{blocks, 1}, whole_launch, cycles, out.get());
  CHECK(first_of(late, FindingKind::timeout) != nullptr);

  RunOptions each_block = whole_launch;
  each_block.limit_each_block = true;
  out.upload(std::vector<int>(blocks, -1));
  LaunchResult done = engine::launch(*be, spin, LaunchConfig{blocks, 1}, each_block, cycles, out.get());
  for (const auto& finding : done.findings) INFO("block " << finding.where.block.x << ": " << finding.detail);
  CHECK(done.findings.empty());
  std::vector<int> every_block(blocks);
  for (int b = 0; b < blocks; ++b) every_block[b] = b;
  CHECK(out.download() == every_block);

  auto never = kernel<void(int, volatile int*, int*)>(m::cpu_one_block_never_ends, m::gpu_one_block_never_ends);
  LaunchResult stuck = engine::launch(*be, never, LaunchConfig{blocks, 32}, each_block, 37, never_set.get(), out.get());
  std::vector<unsigned> named;
  std::string named_text;
  for (const auto& finding : stuck.findings)
    if (finding.kind == FindingKind::timeout) {
      named.push_back(finding.where.block.x);
      named_text += std::to_string(finding.where.block.x) + " (thread " + std::to_string(finding.where.thread.x) +
                    ", " + finding.detail + ") ";
    }
  INFO("blocks named: " << named_text);
  CHECK(named == std::vector<unsigned>{37});
}

TEST_CASE("cpu: two threads writing the same half of a shared word race") {
  auto be = cpu_backend();
  DeviceArray<float> out(*be, 64, "out");
  LaunchResult r = run_misuse<void(float*)>(*be, m::cpu_same_half_race, m::gpu_same_half_race, LaunchConfig{1, 64}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::shared_race);
  REQUIRE(f);
  CHECK(f->buffer == "halves");
  CHECK(f->element_size == 2);
  CHECK(f->index == 0);
  CHECK(f->is_write);
  CHECK(f->other_is_write);
}

// Reads by many threads settle a word for the epoch (the fast path then skips its shadow);
// a write into it after a __syncwarp() still races with the reads made since that __syncwarp().
TEST_CASE("cpu: a write into a word many threads read races with the reads after the same __syncwarp()") {
  auto be = cpu_backend();
  DeviceArray<int> out(*be, 32, "out");
  LaunchResult r = run_misuse<void(int*)>(*be, m::cpu_reread_after_lane_write, m::gpu_reread_after_lane_write,
                                          LaunchConfig{1, 32}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::shared_race);
  REQUIRE(f);
  CHECK(f->buffer == "word");
  CHECK(f->is_write != f->other_is_write);
  // Lane 0's write (line 123) and another lane's read, whichever came first.
  const unsigned writer = f->is_write ? f->where.thread.x : f->other.thread.x;
  const unsigned reader = f->is_write ? f->other.thread.x : f->where.thread.x;
  CHECK(writer == 0);
  CHECK(reader != 0);
  CHECK((f->is_write ? f->at.line : f->other_at.line) == 123);
}

// A __syncwarp() orders a write after its own warp's reads, and after no other warp's; and
// after a reader's reads before it, not after those that reader made since. The readers the
// checks keep (SharedReaders) must say so whichever reads came first.
TEST_CASE("cpu: a write ordered by __syncwarp() after some reads still races with the others") {
  auto be = cpu_backend();
  DeviceArray<int> out(*be, 64, "out");
  LaunchResult r = run_misuse<void(int*)>(*be, m::cpu_write_after_other_warps_read, m::gpu_write_after_other_warps_read,
                                          LaunchConfig{1, 64}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::shared_race);
  REQUIRE(f);
  CHECK(f->buffer == "shared_flag");
  const unsigned one = f->where.thread.x, other = f->other.thread.x;
  CHECK(((one == 0 && other >= 32) || (other == 0 && one >= 32)));

  // Lanes leave a __syncwarp() with the last to arrive first and the others in order, so lane
  // 30 writes after every other lane's second read: the race is found at the write.
  r = run_misuse<void(int*)>(*be, m::cpu_write_after_rereads, m::gpu_write_after_rereads, LaunchConfig{1, 32},
                             out.get());
  f = first_of(r, FindingKind::shared_race);
  REQUIRE(f);
  CHECK(f->buffer == "shared_flag");
  CHECK(f->is_write);
  CHECK(!f->other_is_write);
  CHECK(f->where.thread.x == 30);
  CHECK(f->other.thread.x != 30);
  CHECK(f->at.line == 148);

  // The lane that completes the __syncwarp() goes on first, and reads at the new count: lane 0's
  // write then races with that read (the inline checks once compared it with the old count's
  // settled entry, and let it pass unrecorded).
  r = run_misuse<void(int*)>(*be, m::cpu_write_after_last_lanes_reread, m::gpu_write_after_last_lanes_reread,
                             LaunchConfig{1, 32}, out.get());
  f = first_of(r, FindingKind::shared_race);
  REQUIRE(f);
  CHECK(f->buffer == "shared_flag");
  CHECK(f->is_write);
  CHECK(!f->other_is_write);
  CHECK(f->where.thread.x == 0);
  CHECK(f->other.thread.x == 31);
}

// Where clang writes no TLS location for __shared__ variables (aarch64), the engine finds each
// one by its mangled symbol (shared_layout.cpp). Where the debug information has the locations
// (x86-64), both ways must agree: plain kernels, two variables in one kernel, and a template
// instantiation, whose statics are global symbols renamed with the library's suffix.
TEST_CASE("cpu: each __shared__ variable's symbol gives the TLS offset its debug information gives") {
  for (const engine::KernelImage* image : {&f::cpu_warp_reduce_shared(), &f::cpu_vector_copies(),
                                           &f::cpu_async_double_buffer(), &f::cpu_sgemm_2d_blocktiling()}) {
    CAPTURE(image->name);
    const std::vector<engine::cpu::SharedVariable> debug = engine::cpu::shared_variables_of(image->address);
    const std::vector<engine::cpu::SharedVariable> symbols = engine::cpu::shared_variables_of(image->address, true);
    REQUIRE(!symbols.empty());
    REQUIRE(symbols.size() == debug.size());
    for (std::size_t i = 0; i < symbols.size(); ++i) {
      CAPTURE(symbols[i].name);
      CHECK(symbols[i].name == debug[i].name);
      CHECK(symbols[i].tls_offset == debug[i].tls_offset);
      CHECK(symbols[i].size == debug[i].size);
    }
  }
}

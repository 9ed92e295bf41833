// <cuda/pipeline> on both backends (pipeline_kernels.cu), and the CPU backend's findings for
// a stage read before its wait.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "pipeline_kernels_kernels.h"

using engine::DeviceArray;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;

namespace {

namespace k = kernels::pipeline_kernels;

void require_clean(const LaunchResult& r) {
  INFO("rejected: " << engine::to_string(r.rejected.why));
  for (const auto& finding : r.findings) INFO("finding: " << finding.detail << " line " << finding.at.line);
  REQUIRE(!r.rejected.refused());
  REQUIRE(r.findings.empty());
}

const engine::Finding* first_of(const LaunchResult& r, FindingKind kind) {
  for (const auto& finding : r.findings)
    if (finding.kind == kind) return &finding;
  return nullptr;
}

std::vector<float> ramp(std::size_t count) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<float>(i % 1000) * 0.5f;
  return v;
}

}  // namespace

BACKEND_TEST("cuda::pipeline: a double-buffered copy through shared memory is clean and correct in every order") {
  auto kernel = engine::Kernel<void(const float*, float*, int)>(k::cpu_pipeline_double_buffer(),
                                                                k::gpu_pipeline_double_buffer());
  const int tiles = 5;
  const std::vector<float> in = ramp(tiles * 256);
  DeviceArray<float> d_in(backend, in.size(), "in"), out(backend, 64, "out");
  d_in.upload(in);
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    require_clean(engine::launch(backend, kernel, LaunchConfig{1, 64}, options, d_in.get(), out.get(), tiles));
    const std::vector<float> o = out.download();
    for (int t = 0; t < 64; ++t) {
      float want = 0.0f;
      for (int k = 0; k < tiles; ++k)
        for (int i = 0; i < 4; ++i) want += in[k * 256 + 4 * ((t + 16) % 64) + i];
      CHECK(o[t] == want);
    }
  }
}

BACKEND_TEST("cuda::memcpy_async: every form copies the same bytes, and pieces of 4 bytes or more are asynchronous") {
  auto kernel = engine::Kernel<void(const float*, float*, int*, int*)>(k::cpu_pipeline_forms(), k::gpu_pipeline_forms());
  const std::vector<float> in = ramp(32 * 16);
  DeviceArray<float> d_in(backend, in.size(), "in"), out(backend, in.size(), "out");
  DeviceArray<int> fulfilled(backend, 32 * 8, "fulfilled"), mismatches(backend, 32, "mismatches");
  d_in.upload(in);
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    require_clean(engine::launch(backend, kernel, LaunchConfig{1, 32}, options, d_in.get(), out.get(), fulfilled.get(),
                                 mismatches.get()));
    CHECK(out.download() == in);
    CHECK(mismatches.download() == std::vector<int>(32, 0));
    const std::vector<int> f = fulfilled.download();
    for (int t = 0; t < 32; ++t) {
      CAPTURE(t);
      const std::vector<int> got(f.begin() + 8 * t, f.begin() + 8 * t + 8);
      CHECK(got == std::vector<int>{1, 1, 1, 0, 1, 0, 1, 0});
    }
  }
}

TEST_CASE("cpu: a pipeline stage read before its own wait is an async-copy finding, in every order") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<float> in(*be, 64, "in"), out(*be, 64, "out");
  in.upload(ramp(64));
  auto newer = engine::Kernel<void(const float*, float*)>(k::cpu_pipeline_reads_newer_stage(),
                                                          k::gpu_pipeline_reads_newer_stage());
  auto prior = engine::Kernel<void(const float*, float*)>(k::cpu_pipeline_wait_prior_too_early(),
                                                          k::gpu_pipeline_wait_prior_too_early());
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    LaunchResult r = engine::launch(*be, newer, LaunchConfig{1, 32}, options, in.get(), out.get());
    const engine::Finding* f = first_of(r, FindingKind::async_copy);
    REQUIRE(f);  // consumer_wait() waits for the oldest stage only
    CHECK(f->buffer == "stage");
    CHECK(f->index == 32 + f->where.thread.x);  // stage[1][t]
    CHECK(f->at.line == 96);
    CHECK(f->other_at.line == 92);
    r = engine::launch(*be, prior, LaunchConfig{1, 32}, options, in.get(), out.get());
    f = first_of(r, FindingKind::async_copy);
    REQUIRE(f);
    CHECK(f->index == 32 + f->where.thread.x);
    CHECK(f->at.line == 112);
    CHECK(f->other_at.line == 107);
  }
}

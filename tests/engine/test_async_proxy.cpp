// The async proxy's rules on the CPU backend (async_proxy_kernels.cu): a tensor store or a wgmma
// reading shared memory that a thread wrote without fence.proxy.async since is a proxy_fence
// finding naming both lines, whatever the thread order, and the fence counts only when the
// writing thread executes it; a wgmma's accumulators read or written before the
// wgmma.wait_group that retires its group are a wgmma_accumulator finding at that line, while
// chains of wgmmas on the same accumulators are clean.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "hopper_test_support.h"
#include "async_proxy_kernels_kernels.h"
#include "cuda_cpu/compat/cuda.h"
#include "engine/device_array.h"
#include "engine/kernel.h"

using engine::DeviceArray;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;
using hopper_test::as_cu;
using hopper_test::describe;
using hopper_test::first_of;
using hopper_test::line_of;
using hopper_test::request_for;
using hopper_test::require_clean;

namespace ap = kernels::async_proxy_kernels;

namespace {

// proxy_tile_store with its `fence` mode, in `order`; the stored tile is checked too.
LaunchResult store_tile(engine::Backend& be, int fence, engine::ThreadOrder order) {
  DeviceArray<std::uint16_t> out(be, 16 * 64, "out");
  out.upload(std::vector<std::uint16_t>(16 * 64, 0));
  CUtensorMap map = as_cu(be.encode_tensor_map(request_for(out.get(), 64, 16, 64, 16, 0)));
  engine::Kernel<void(CUtensorMap, int)> k(ap::cpu_proxy_tile_store(), engine::absent_image("absent"));
  RunOptions options;
  options.order = order;
  LaunchResult r = engine::launch(be, k, LaunchConfig{1, 32, 2048}, options, map, fence);
  std::vector<std::uint16_t> got = out.download();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) wrong += got[i] != static_cast<std::uint16_t>(i / 2);
  CHECK(wrong == 0);  // one memory on the CPU: the values are right, the finding says why they may not be
  return r;
}

LaunchResult use_accumulators(engine::Backend& be, int use, engine::ThreadOrder order, std::vector<float>* d = nullptr) {
  DeviceArray<float> out(be, 33 * 128, "out");
  out.upload(std::vector<float>(33 * 128, 0.0f));
  engine::Kernel<void(float*, int)> k(ap::cpu_accumulator_use(), engine::absent_image("absent"));
  RunOptions options;
  options.order = order;
  LaunchResult r = engine::launch(be, k, LaunchConfig{1, 128, 16384}, options, out.get(), use);
  if (d) *d = out.download();
  return r;
}

// The line of the asm statement of the wrapper the kernels call (in hopper_ptx.cuh, another file
// than the kernel's, so the finding names that line).
int wgmma_asm_line() { return line_of("hopper_ptx.cuh", "void wgmma_m64n64k16_f16(float") + 1; }

}  // namespace

TEST_CASE("cpu: a tile every writer fenced is stored clean, and without the fence each word is a finding naming both lines") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  const int write_line = line_of("async_proxy_kernels.cu", "// the writes");
  const int store_line = line_of("async_proxy_kernels.cu", "// the store");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(engine::to_string(order));
    require_clean(store_tile(*be, 0, order));

    LaunchResult r = store_tile(*be, 1, order);
    INFO(describe(r));
    for (const engine::Finding& each : r.findings) CHECK(each.kind == FindingKind::proxy_fence);
    CHECK(r.total(FindingKind::proxy_fence) == 16 * 64 / 2);  // every word of the tile, once
    const engine::Finding* f = first_of(r, FindingKind::proxy_fence);
    REQUIRE(f != nullptr);
    CHECK(f->proxy_reader == engine::Finding::ProxyReader::tensor_store);
    CHECK(f->where.thread.x == 0);  // the store's issuer
    CHECK(f->at.line == store_line);
    CHECK(f->other_at.line == write_line);
    CHECK(f->other_is_write);
    CHECK(f->is_shared);
    CHECK(f->buffer == "smem");
  }
}

TEST_CASE("cpu: fence.proxy.async by the store's issuer does not fence the other threads' writes") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(engine::to_string(order));
    LaunchResult r = store_tile(*be, 2, order);
    INFO(describe(r));
    // Thread 0 wrote words 0, 32, 64, ...: 16 of the 512, fenced by its own fence.
    CHECK(r.total(FindingKind::proxy_fence) == 16 * 64 / 2 - 16);
    REQUIRE(first_of(r, FindingKind::proxy_fence) != nullptr);
    for (const engine::Finding& f : r.findings) {
      CHECK(f.kind == FindingKind::proxy_fence);
      CHECK(f.other.thread.x != 0);
      CHECK(f.where.thread.x == 0);
    }
  }
}

TEST_CASE("cpu: wgmma operands written without fence.proxy.async are a finding at the wgmma's line") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  LaunchResult r = use_accumulators(*be, 3, engine::ThreadOrder::forward);
  INFO(describe(r));
  const engine::Finding* f = first_of(r, FindingKind::proxy_fence);
  REQUIRE(f != nullptr);
  CHECK(f->proxy_reader == engine::Finding::ProxyReader::wgmma);
  CHECK(f->at.line == wgmma_asm_line());  // the asm of the wrapper (hopper_ptx.cuh)
  CHECK(f->other_at.line == line_of("async_proxy_kernels.cu", "smem[i] = i == 1"));
}

TEST_CASE("cpu: wgmma accumulators used only after their wait_group, and chained wgmmas (+ or tied operands), are clean and right") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    for (int use : {0, 4, 5}) {
      CAPTURE(engine::to_string(order));
      CAPTURE(use);
      std::vector<float> d;
      require_clean(use_accumulators(*be, use, order, &d));
      // d = a · b (+ a · b ...): 1 at (0, 0) per wgmma; thread 0's register 0 holds (0, 0).
      CHECK(d[0] == (use == 4 ? 3.0f : use == 5 ? 2.0f : 1.0f));
      CHECK(d[1] == 0.0f);
    }
  }
}

TEST_CASE("cpu: a wgmma's accumulators read or written before its wait_group: a finding at that line") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  const int wgmma_line = wgmma_asm_line();
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    for (int use : {1, 2}) {
      CAPTURE(engine::to_string(order));
      CAPTURE(use);
      LaunchResult r = use_accumulators(*be, use, order);
      INFO(describe(r));
      for (const engine::Finding& each : r.findings) CHECK(each.kind == FindingKind::wgmma_accumulator);
      CHECK(r.total(FindingKind::wgmma_accumulator) == 128);  // once per thread
      const engine::Finding* f = first_of(r, FindingKind::wgmma_accumulator);
      REQUIRE(f != nullptr);
      CHECK(f->is_write == (use == 2));
      CHECK(f->at.line == line_of("async_proxy_kernels.cu", use == 1 ? "// read before the wait" : "// written before"));
      CHECK(f->other_at.line == wgmma_line);
      CHECK(f->where.thread.x == f->other.thread.x);
    }
  }
}

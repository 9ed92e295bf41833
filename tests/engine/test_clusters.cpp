// Thread block clusters on both backends (cluster_kernels.cu): CTA ranks and cluster ids,
// distributed shared memory, arrivals on another CTA's mbarrier and multicast tensor copies, in
// every thread order; and on the CPU backend, the findings of their mistakes
// (cluster_misuse_kernels.cu): a multicast before the other CTA's mbarrier is ready, reading a
// CTA that has exited or may not have started, a deadlock across CTAs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "hopper_test_support.h"
#include "cluster_kernels_kernels.h"
#include "cluster_misuse_kernels_kernels.h"
#include "cuda_cpu/compat/cuda.h"
#include "engine/device_array.h"
#include "engine/kernel.h"

using engine::DeviceArray;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;
using engine::ThreadOrder;

namespace ck = kernels::cluster_kernels;
namespace cm = kernels::cluster_misuse_kernels;

using hopper_test::describe;
using hopper_test::first_of;
using hopper_test::hopper_or_skip;
using hopper_test::line_of;
using hopper_test::require_clean;
using hopper_test::as_cu;

namespace {

LaunchConfig clustered(engine::Dim3 grid, unsigned threads, engine::Dim3 cluster, std::size_t shared = 0) {
  LaunchConfig c{grid, threads, shared};
  c.cluster = cluster;
  return c;
}

RunOptions in_order(ThreadOrder order) {
  RunOptions o;
  o.order = order;
  o.shuffle_seed = 5;
  return o;
}

// Rows of 64 halves, boxes of 8 rows, no swizzle.
CUtensorMap rows_map(engine::Backend& backend, const void* tensor, unsigned rows) {
  return as_cu(backend.encode_tensor_map(hopper_test::request_for(tensor, 64, rows, 64, 8, 0)));
}

}  // namespace

BACKEND_TEST("clusters: each CTA knows its rank, its cluster's size and id, in clusters of 2 and 4") {
  if (!hopper_or_skip(backend)) return;
  auto ids = engine::Kernel<void(unsigned*)>(ck::cpu_cluster_ids(), ck::gpu_cluster_ids());
  for (unsigned size : {2u, 4u}) {
    CAPTURE(size);
    const unsigned blocks = 8;
    DeviceArray<unsigned> out(backend, 4 * blocks * 2, "out");
    require_clean(engine::launch(backend, ids, clustered({blocks, 2}, 64, {size, 1}), RunOptions{}, out.get()));
    std::vector<unsigned> got = out.download();
    for (unsigned y = 0; y < 2; ++y)
      for (unsigned x = 0; x < blocks; ++x) {
        CAPTURE(x);
        const unsigned* mine = &got[4 * (x + blocks * y)];
        CHECK(mine[0] == x % size);
        CHECK(mine[1] == size);
        CHECK(mine[2] == x / size);
        CHECK(mine[3] == x % size);
      }
  }
}

BACKEND_TEST("clusters: CTAs read each other's shared memory through mapa, between cluster barriers") {
  if (!hopper_or_skip(backend)) return;
  auto exchange = engine::Kernel<void(int*)>(ck::cpu_cluster_exchange(), ck::gpu_cluster_exchange());
  for (ThreadOrder order : engine::kThreadOrders) {
    for (unsigned size : {2u, 4u}) {
      CAPTURE(engine::to_string(order));
      CAPTURE(size);
      const unsigned blocks = 8;
      DeviceArray<int> out(backend, 64 * blocks, "out");
      require_clean(engine::launch(backend, exchange, clustered(blocks, 96, {size}), in_order(order), out.get()));
      std::vector<int> got = out.download();
      for (unsigned b = 0; b < blocks; ++b) {
        unsigned next = b / size * size + (b % size + 1) % size;
        for (unsigned t = 0; t < 64; ++t) CHECK(got[b * 64 + t] == int(next * 1000 + t));
      }
    }
  }
}

BACKEND_TEST("clusters: threads of one CTA write another's shared memory and arrive on its mbarrier") {
  if (!hopper_or_skip(backend)) return;
  auto remote = engine::Kernel<void(int*)>(ck::cpu_cluster_remote_arrive(), ck::gpu_cluster_remote_arrive());
  for (ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(engine::to_string(order));
    DeviceArray<int> out(backend, 128, "out");
    require_clean(engine::launch(backend, remote, clustered(2, 128, {2}), in_order(order), out.get()));
    std::vector<int> got = out.download();
    for (unsigned t = 0; t < 128; ++t) CHECK(got[t] == int(7000 + t));
  }
}

BACKEND_TEST("clusters: a multicast tensor copy lands in every CTA of the mask and completes each one's mbarrier") {
  if (!hopper_or_skip(backend)) return;
  const unsigned clusters = 3, rows = 16 * clusters;
  std::vector<std::uint16_t> tensor(64 * rows);
  for (std::size_t i = 0; i < tensor.size(); ++i) tensor[i] = static_cast<std::uint16_t>(1 + i);
  DeviceArray<std::uint16_t> global(backend, tensor.size(), "tensor");
  global.upload(tensor);
  CUtensorMap map = rows_map(backend, global.get(), rows);
  auto multicast =
      engine::Kernel<void(CUtensorMap, std::uint16_t*)>(ck::cpu_cluster_multicast(), ck::gpu_cluster_multicast());
  for (ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(engine::to_string(order));
    DeviceArray<std::uint16_t> out(backend, 2 * clusters * 16 * 64, "out");
    require_clean(
        engine::launch(backend, multicast, clustered(2 * clusters, 128, {2}, 2048 + 8), in_order(order), map, out.get()));
    std::vector<std::uint16_t> got = out.download();
    std::size_t wrong = 0;
    for (unsigned b = 0; b < 2 * clusters; ++b)
      for (unsigned i = 0; i < 16 * 64; ++i)
        if (got[b * 16 * 64 + i] != tensor[(b / 2) * 16 * 64 + i]) ++wrong;
    CHECK(wrong == 0);
  }
}

TEST_CASE("cpu: the profile counts a multicast copy once per CTA it lands in, and each mbarrier phase once") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  const unsigned clusters = 3, rows = 16 * clusters;
  DeviceArray<std::uint16_t> global(*be, 64 * rows, "tensor");
  global.upload(std::vector<std::uint16_t>(64 * rows, 1));
  CUtensorMap map = rows_map(*be, global.get(), rows);
  auto multicast =
      engine::Kernel<void(CUtensorMap, std::uint16_t*)>(ck::cpu_cluster_multicast(), ck::gpu_cluster_multicast());
  for (ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(engine::to_string(order));
    DeviceArray<std::uint16_t> out(*be, 2 * clusters * 16 * 64, "out");
    RunOptions options = in_order(order);
    options.profile = true;
    LaunchResult r = engine::launch(*be, multicast, clustered(2 * clusters, 128, {2}, 2048 + 8), options, map, out.get());
    require_clean(r);
    // Both CTAs of each cluster multicast half a box (1 KB) to both: 4 copies per cluster, and
    // each CTA's mbarrier receives the two halves in its one phase.
    REQUIRE(r.tensor_copies.size() == 1);
    const engine::TensorCopyProfile& t = r.tensor_copies[0];
    CHECK(t.multicast);
    CHECK_FALSE(t.store);
    CHECK(t.barrier == "smem[2048]");
    CHECK(t.copies == 4 * clusters);
    CHECK(t.bytes == 4 * clusters * 1024);
    CHECK(t.phases == 2 * clusters);
  }
}

// --- mistakes, on the CPU backend ---------------------------------------------------------------

namespace {

std::unique_ptr<engine::Backend> cpu() {
  test_support::note_started();
  return engine::open_backend(engine::BackendChoice::cpu).backend;
}

using test_support::cpu_only;

// The inline-PTX finding that stops the launch: its words and its line.
void check_refusal(const LaunchResult& r, const std::string& words, const char* line_text) {
  INFO(describe(r));
  REQUIRE(!r.findings.empty());
  const engine::Finding& f = r.findings.front();
  CHECK(f.kind == FindingKind::inline_ptx);
  CHECK(f.detail.find(words) != std::string::npos);
  CHECK(f.at.line == line_of("cluster_misuse_kernels.cu", line_text));
}

// The cluster_order finding that stops the launch: why, which rank, what was used, and the line.
void check_cluster_order(const LaunchResult& r, std::vector<engine::Finding::ClusterUse> why, bool mbarrier,
                         const char* line_text) {
  INFO(describe(r));
  REQUIRE(!r.findings.empty());  // one per thread that got there before the grid stopped
  const engine::Finding& f = r.findings.front();
  for (const auto& each : r.findings) CHECK(each.kind == FindingKind::cluster_order);
  CHECK(std::find(why.begin(), why.end(), f.cluster_use) != why.end());
  CHECK(f.cluster_mbarrier == mbarrier);
  CHECK(f.other_rank == 1 - f.where.block.x % 2);  // the other block of a cluster of two
  CHECK(f.at.line == line_of("cluster_misuse_kernels.cu", line_text));
}

}  // namespace

TEST_CASE("cpu: clusters: a multicast before a cluster barrier finds the other CTA's mbarrier not ready") {
  auto be = cpu();
  std::vector<std::uint16_t> tensor(64 * 16, 1);
  DeviceArray<std::uint16_t> global(*be, tensor.size(), "tensor");
  global.upload(tensor);
  CUtensorMap map = rows_map(*be, global.get(), 16);
  auto k = cpu_only<void(CUtensorMap, std::uint16_t*)>(cm::cpu_multicast_before_cluster_barrier);
  for (ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(engine::to_string(order));
    DeviceArray<std::uint16_t> out(*be, 2 * 16 * 64, "out");
    LaunchResult r = engine::launch(*be, k, clustered(2, 128, {2}, 2048 + 8), in_order(order), map, out.get());
    // Whichever CTA runs first writes into the other before any cluster barrier.
    check_cluster_order(r, {engine::Finding::ClusterUse::before_cluster_barrier}, false, "// finding: not ready");
    CHECK(r.findings.front().is_write);
  }
}

TEST_CASE("cpu: clusters: reading the shared memory of a CTA that has exited is a finding") {
  auto be = cpu();
  auto k = cpu_only<void(int*)>(cm::cpu_exchange_exits_early);
  for (ThreadOrder order : {ThreadOrder::forward, ThreadOrder::reverse}) {
    CAPTURE(engine::to_string(order));
    DeviceArray<int> out(*be, 64 * 2, "out");
    LaunchResult r = engine::launch(*be, k, clustered(2, 64, {2}), in_order(order), out.get());
    check_cluster_order(r, {engine::Finding::ClusterUse::cta_exited}, false, "// finding: exited");
    CHECK(!r.findings.front().is_write);
  }
}

TEST_CASE("cpu: clusters: a CTA the engine stopped has not exited: another CTA's use of its mbarrier after the stop "
          "is no finding, only what stopped the grid") {
  auto be = cpu();
  auto k = cpu_only<void(int*, int)>(cm::cpu_remote_use_of_stopped_cta);
  for (ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    DeviceArray<int> out(*be, 2 * 64, "out");
    LaunchResult r = engine::launch(*be, k, clustered(2, 64, {2}), in_order(order), out.get(), 0);
    INFO(describe(r));
    REQUIRE(r.findings.size() == 1);
    const engine::Finding& f = r.findings.front();
    CHECK(f.kind == FindingKind::inline_ptx);
    CHECK(f.op.rfind("mbarrier.init", 0) == 0);
    CHECK(f.where.block.x == 0);
    CHECK(f.where.thread.x == 0);
    CHECK(r.total(FindingKind::cluster_order) == 0);
  }
}

TEST_CASE("cpu: clusters: reading another CTA's shared memory before any cluster barrier is a finding") {
  auto be = cpu();
  auto k = cpu_only<void(int*)>(cm::cpu_exchange_without_barrier);
  DeviceArray<int> out(*be, 64 * 2, "out");
  LaunchResult r = engine::launch(*be, k, clustered(2, 64, {2}), RunOptions{}, out.get());
  check_cluster_order(r, {engine::Finding::ClusterUse::before_cluster_barrier}, false, "// finding: no barrier yet");
}

TEST_CASE("cpu: clusters: an arrival on the wrong CTA's mbarrier leaves the other waiting: a deadlock") {
  auto be = cpu();
  auto k = cpu_only<void(int*)>(cm::cpu_remote_arrive_wrong_cta);
  for (ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(engine::to_string(order));
    DeviceArray<int> out(*be, 128, "out");
    LaunchResult r = engine::launch(*be, k, clustered(2, 128, {2}), in_order(order), out.get());
    INFO(describe(r));
    REQUIRE(r.findings.size() == 1);
    const engine::Finding& f = r.findings.front();
    CHECK(f.kind == FindingKind::deadlock);
    bool waits_at_mbarrier = false;
    for (const auto& g : f.groups)
      if (g.wait.kind == engine::ThreadGroup::BarrierWait::Kind::mbarrier) {
        waits_at_mbarrier = true;
        CHECK(g.count == 128);
        CHECK(g.barrier.line == line_of("cluster_misuse_kernels.cu", "waits here forever"));
        CHECK(g.wait.pending_arrivals == 128);
      }
    CHECK(waits_at_mbarrier);
  }
}

TEST_CASE("cpu: clusters: barrier.cluster.wait without an arrive first is a finding") {
  auto be = cpu();
  auto k = cpu_only<void(int*)>(cm::cpu_cluster_wait_without_arrive);
  DeviceArray<int> out(*be, 2, "out");
  check_refusal(engine::launch(*be, k, clustered(2, 32, {2}), RunOptions{}, out.get()), "without this thread's",
                "// finding: no arrive");
}

// <cooperative_groups.h> on both backends (cg_kernels.cu): every function of a block and of
// tiles of 1 to 32 threads against values computed here from CUDA's definitions, in every
// thread order; and the findings of the CPU backend for the mistakes tiles make possible.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "cg_kernels_kernels.h"
#include "engine/device_array.h"
#include "engine/kernel.h"

using engine::DeviceArray;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;

namespace {

namespace k = kernels::cg_kernels;

void require_clean(const LaunchResult& r) {
  INFO("rejected: " << engine::to_string(r.rejected.why));
  std::string findings;
  for (const auto& finding : r.findings)
    findings += std::to_string(static_cast<int>(finding.kind)) + " " + finding.op + " line " + std::to_string(finding.at.line) +
                ": " + finding.detail + "\n";
  INFO("findings:\n" << findings);
  REQUIRE(!r.rejected.refused());
  REQUIRE(r.findings.empty());
}

const engine::Finding* first_of(const LaunchResult& r, FindingKind kind) {
  for (const auto& finding : r.findings)
    if (finding.kind == kind) return &finding;
  return nullptr;
}

// What tile_functions<N> writes for thread t of a block of 128 (see cg_kernels.cu).
std::vector<int> expected_tile_fields(int n, int t) {
  const int rank = t % n, base = t - rank;
  auto v = [](int thread) { return thread * 10; };
  const int half = n > 1 ? n / 2 : 1;
  const int other = base + n - 1 - rank;
  unsigned ballot = 0;
  for (int r = 0; r < n; r += 2) ballot |= 1u << r;
  return {rank,
          n,
          n,
          t / n,
          128 / n,
          v(base + (rank + 1) % n),
          rank >= 1 ? v(t - 1) : v(t),
          rank + 1 < n ? v(t + 1) : v(t),
          v(base + (rank ^ (n / 2))),
          n > 1 ? 1 : 0,
          1,
          0,
          static_cast<int>(ballot),
          v(other) + 1,
          v(other),
          v(other) + 2,
          v(base + (rank + 1) % n),
          rank / half,
          n / half,
          rank + 100 * n};
}

using TileKernel = const engine::KernelImage& (*)();
struct TileCase {
  int n;
  TileKernel cpu, gpu;
};
const TileCase kTiles[] = {{1, k::cpu_cg_tiles_1, k::gpu_cg_tiles_1},    {2, k::cpu_cg_tiles_2, k::gpu_cg_tiles_2},
                           {4, k::cpu_cg_tiles_4, k::gpu_cg_tiles_4},    {8, k::cpu_cg_tiles_8, k::gpu_cg_tiles_8},
                           {16, k::cpu_cg_tiles_16, k::gpu_cg_tiles_16}, {32, k::cpu_cg_tiles_32, k::gpu_cg_tiles_32}};

}  // namespace

BACKEND_TEST("cooperative groups: a thread block's ranks, sizes, indices and syncs, in every thread order") {
  auto block = engine::Kernel<void(int*)>(k::cpu_cg_block(), k::gpu_cg_block());
  const int fields = 12, blocks = 4, per_block = 256 * fields;
  DeviceArray<int> out(backend, blocks * per_block, "out");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    require_clean(engine::launch(backend, block, LaunchConfig{engine::Dim3{2, 2, 1}, engine::Dim3{32, 4, 1}}, options,
                                 out.get()));
    const std::vector<int> o = out.download();
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < 128; ++t) {
        CAPTURE(b);
        CAPTURE(t);
        const int* f = &o[b * per_block + t * fields];
        const std::vector<int> got(f, f + fields);
        const std::vector<int> want = {t, 128, 128, b % 2, b / 2, t % 32, t / 32, 32, 4, t, 128, t};
        REQUIRE(got == want);
      }
  }
}

BACKEND_TEST("cooperative groups: every tile function for tiles of 1 to 32 threads, in every thread order") {
  const int fields = 20;
  DeviceArray<int> out(backend, 128 * fields, "out");
  for (const TileCase& tc : kTiles) {
    CAPTURE(tc.n);
    auto tiles = engine::Kernel<void(int*)>(tc.cpu(), tc.gpu());
    for (engine::ThreadOrder order : engine::kThreadOrders) {
      CAPTURE(std::string(engine::to_string(order)));
      RunOptions options;
      options.order = order;
      require_clean(engine::launch(backend, tiles, LaunchConfig{1, 128}, options, out.get()));
      const std::vector<int> o = out.download();
      for (int t = 0; t < 128; ++t) {
        CAPTURE(t);
        const std::vector<int> got(o.begin() + t * fields, o.begin() + (t + 1) * fields);
        REQUIRE(got == expected_tile_fields(tc.n, t));
      }
    }
  }
}

TEST_CASE("cpu: a tile sync that one thread skips is a warp divergence at the sync's line") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<int> out(*be, 64, "out");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    auto skipped = engine::Kernel<void(int*)>(k::cpu_cg_tile_sync_skipped(), k::gpu_cg_tile_sync_skipped());
    LaunchResult r = engine::launch(*be, skipped, LaunchConfig{1, 64}, options, out.get());
    const engine::Finding* f = first_of(r, FindingKind::warp_divergence);
    REQUIRE(f);
    CHECK(f->op == "__syncwarp");
    bool waits_at_line = false, one_returned = false;  // the rest of the warp waits at the sync
    for (const auto& group : f->groups) {
      if (!group.returned && group.barrier.line == 116 && group.barrier.file.find("cg_kernels.cu") != std::string::npos)
        waits_at_line = true;
      // Rank 3 of both tiles of the warp (threads 3 and 19) returned.
      if (group.returned && group.count == 2 && group.sample.at(0).x == 3) one_returned = true;
    }
    CHECK(waits_at_line);
    CHECK(one_returned);
  }
}

TEST_CASE("cpu: a block sync that one thread skips is a barrier divergence at the sync's line") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<int> out(*be, 64, "out");
  auto skipped = engine::Kernel<void(int*)>(k::cpu_cg_block_sync_skipped(), k::gpu_cg_block_sync_skipped());
  LaunchResult r = engine::launch(*be, skipped, LaunchConfig{1, 64}, RunOptions{}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::barrier_divergence);
  REQUIRE(f);
  bool waits_at_line = false;
  for (const auto& group : f->groups)
    if (!group.returned && group.barrier.line == 123) waits_at_line = true;
  CHECK(waits_at_line);
}

TEST_CASE("cpu: a tile that shares values through shared memory without tile.sync() races, in every order") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<int> out(*be, 64, "out");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    auto missing = engine::Kernel<void(int*)>(k::cpu_cg_tile_sync_missing(), k::gpu_cg_tile_sync_missing());
    LaunchResult r = engine::launch(*be, missing, LaunchConfig{1, 64}, options, out.get());
    const engine::Finding* f = first_of(r, FindingKind::shared_race);
    REQUIRE(f);
    CHECK(f->buffer == "values");
    CHECK((f->at.line == 131 || f->other_at.line == 131));
  }
}

namespace {

// What cg_groups writes for thread t of block b (see cg_kernels.cu), from CUDA's definitions.
std::vector<int> expected_group_fields(int b, int t) {
  const int fields = 22, lane = t % 32, warp_base = t - lane;
  auto v = [b](int thread) { return 1000 * b + 3 * thread + 1; };
  std::vector<int> f(fields);
  // The lanes of t's parity, in rank order.
  std::vector<int> same;
  for (int l = lane % 2; l < 32; l += 2) same.push_back(warp_base + l);
  const int size = static_cast<int>(same.size()), rank = lane / 2;
  unsigned ballot = 0;
  for (int r = 0; r < size; r += 2) ballot |= 1u << r;
  f[0] = size;
  f[1] = rank;
  f[2] = v(same[0]);
  f[3] = rank >= 1 ? v(same[rank - 1]) : v(t);
  f[4] = rank + 1 < size ? v(same[rank + 1]) : v(t);
  f[5] = static_cast<int>(ballot);
  f[6] = 1;
  f[7] = 1;
  f[8] = v(same[0]);
  f[9] = rank + 1;
  int thirds = 0, thirds_rank = 0, thirds_sum = 0, low_max = 0;
  for (int l = 0; l < 32; ++l) {
    if (l % 3 == lane % 3) {
      thirds_rank += l < lane;
      ++thirds;
      thirds_sum += v(warp_base + l);
    }
    if ((l < 5) == (lane < 5)) low_max = std::max(low_max, v(warp_base + l));
  }
  f[10] = thirds;
  f[11] = thirds_rank;
  f[12] = thirds_sum;
  f[13] = low_max;
  const int eight_base = t - t % 8;
  int inclusive = 0;
  for (int u = eight_base; u <= t; ++u) inclusive += v(u);
  f[14] = inclusive;
  f[15] = inclusive - v(t);
  int x = 0;
  for (int u = t - t % 16; u < t - t % 16 + 16; ++u) x ^= v(u);
  f[16] = x;
  f[17] = v(warp_base + 31);
  f[18] = b * 96 + t;
  f[19] = 2 * 96;
  f[20] = b;
  f[21] = 2;
  return f;
}

}  // namespace

BACKEND_TEST("cooperative groups: coalesced groups, labeled and binary partitions, reduce, the scans and the grid's ranks, in every thread order") {
  const int fields = 22, blocks = 2;
  DeviceArray<int> out(backend, blocks * 96 * fields, "out");
  auto groups = engine::Kernel<void(int*)>(k::cpu_cg_groups(), k::gpu_cg_groups());
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    require_clean(engine::launch(backend, groups, LaunchConfig{blocks, 96}, options, out.get()));
    const std::vector<int> o = out.download();
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < 96; ++t) {
        CAPTURE(b);
        CAPTURE(t);
        const int* f = &o[(b * 96 + t) * fields];
        REQUIRE(std::vector<int>(f, f + fields) == expected_group_fields(b, t));
      }
  }
}

BACKEND_TEST("cooperative groups: coalesced_threads() after some lanes returned groups the lanes that remain, in every thread order") {
  DeviceArray<int> out(backend, 64 * 3, "out");
  auto after = engine::Kernel<void(int*)>(k::cpu_cg_coalesced_after_return(), k::gpu_cg_coalesced_after_return());
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    std::vector<int> unset(64 * 3, -1);
    out.upload(unset);
    require_clean(engine::launch(backend, after, LaunchConfig{1, 64}, options, out.get()));
    const std::vector<int> o = out.download();
    for (int t = 0; t < 64; ++t) {
      CAPTURE(t);
      const int lane = t % 32, base = t - lane;
      // Lanes 0 to 19 of each warp: 20 of them, ranked by lane, summing their thread indices.
      const std::vector<int> want = lane < 20 ? std::vector<int>{20, lane, 20 * base + 190} : std::vector<int>{-1, -1, -1};
      REQUIRE(std::vector<int>(o.begin() + t * 3, o.begin() + t * 3 + 3) == want);
    }
  }
}

// Warp-synchronous code through `volatile` (volatile_step_kernels.cu): the sums and words that
// lanes in lockstep get, on both backends and in every thread order; on the CPU backend the
// race between lanes in shared memory is still reported. The CPU backend keeps lanes in step
// where the block-loop pass put its steps: a build without the pass skips the CPU variant.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "backend_fixture.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "volatile_step_hopper_kernels_kernels.h"
#include "volatile_step_kernels_kernels.h"

using engine::DeviceArray;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;

namespace {

namespace k = kernels::volatile_step_kernels;
namespace kh = kernels::volatile_step_hopper_kernels;

bool steps_or_skip(const engine::Backend& backend) {
#if PUZZLES_VOLATILE_STEPS
  (void)backend;
  return true;
#else
  if (backend.kind() == engine::BackendKind::gpu) return true;
  test_support::note_skipped("this build has no block-loop pass (Debian package llvm-dev: the LLVM of the build's "
                             "clang; a g++ build has none), so its lanes do not keep in step at volatile accesses");
  return false;
#endif
}

std::string describe(const LaunchResult& r) {
  std::string text = std::string("rejected: ") + engine::to_string(r.rejected.why) + "\n";
  for (const auto& finding : r.findings)
    text += std::to_string(static_cast<int>(finding.kind)) + " line " + std::to_string(finding.at.line) + " thread " + std::to_string(finding.where.thread.x) + " after " + std::to_string(finding.other.thread.x) + " at " + std::to_string(finding.other_at.line) + ": " +
            finding.detail + "\n";
  return text;
}

std::size_t count_of(const LaunchResult& r, FindingKind kind) {
  std::size_t n = 0;
  for (const auto& finding : r.findings) n += finding.kind == kind;
  return n;
}

constexpr int kBlocks = 6, kValues = 64;

std::vector<int> values() {
  std::vector<int> v(kBlocks * kValues);
  for (int i = 0; i < kBlocks * kValues; ++i) v[i] = (i * 37) % 101 - 50;
  return v;
}

std::vector<int> block_sums(const std::vector<int>& v) {
  std::vector<int> sums(kBlocks, 0);
  for (int i = 0; i < kBlocks * kValues; ++i) sums[i / kValues] += v[i];
  return sums;
}

}  // namespace

BACKEND_TEST("volatile: a warp's sum in global memory is what lockstep lanes make, in every thread order") {
  if (!steps_or_skip(backend)) return;
  auto sum = engine::Kernel<void(int*, int*)>(k::cpu_warp_sum_global(), k::gpu_warp_sum_global());
  DeviceArray<int> data(backend, kBlocks * kValues, "data"), sums(backend, kBlocks, "sums");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    data.upload(values());
    RunOptions options;
    options.order = order;
    LaunchResult r = engine::launch(backend, sum, LaunchConfig{kBlocks, 128}, options, data.get(), sums.get());
    INFO(describe(r));
    REQUIRE(r.clean());
    CHECK(sums.download() == block_sums(values()));
  }
}

BACKEND_TEST("volatile: a warp's sum in shared memory is what lockstep lanes make, and the race is reported") {
  if (!steps_or_skip(backend)) return;
  auto sum = engine::Kernel<void(const int*, int*)>(k::cpu_warp_sum_shared(), k::gpu_warp_sum_shared());
  DeviceArray<int> data(backend, kBlocks * kValues, "data"), sums(backend, kBlocks, "sums");
  data.upload(values());
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    LaunchResult r = engine::launch(backend, sum, LaunchConfig{kBlocks, kValues}, options, data.get(), sums.get());
    INFO(describe(r));
    REQUIRE(!r.rejected.refused());
    CHECK(sums.download() == block_sums(values()));
    // Lanes that share data need a __syncwarp() between its write and the reads: still a race.
    if (backend.kind() == engine::BackendKind::cpu) CHECK(count_of(r, FindingKind::shared_race) > 0);
  }
}

BACKEND_TEST("volatile: lanes that leave a loop early leave the others in step among themselves") {
  if (!steps_or_skip(backend)) return;
  auto shift = engine::Kernel<void(int*, int*)>(k::cpu_warp_shift(), k::gpu_warp_shift());
  constexpr int kThreads = 96;
  DeviceArray<int> words(backend, kThreads, "words"), seen(backend, kThreads, "seen");
  // Four rounds by one lane: lane i holds i + 4. Four by two, even lanes only: an even lane
  // holds what the even lane eight further on held, i + 12.
  std::vector<int> expected(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    int lane = t % 32, neighbour = (lane + 1) % 32;
    expected[t] = (neighbour + (neighbour % 2 ? 4 : 12)) % 32;
  }
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    LaunchResult r = engine::launch(backend, shift, LaunchConfig{1, kThreads}, options, words.get(), seen.get());
    INFO(describe(r));
    REQUIRE(r.clean());
    CHECK(seen.download() == expected);
  }
}

BACKEND_TEST("volatile: threads spinning on a lock let its holder go on from a volatile step") {
  if (!steps_or_skip(backend)) return;
  auto count = engine::Kernel<void(int*, int*)>(k::cpu_count_under_lock(), k::gpu_count_under_lock());
  DeviceArray<int> lock(backend, 1, "lock"), counter(backend, 1, "counter");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    lock.upload({0});
    counter.upload({0});
    RunOptions options;
    options.order = order;
    LaunchResult r = engine::launch(backend, count, LaunchConfig{2, 64}, options, lock.get(), counter.get());
    INFO(describe(r));
    REQUIRE(r.clean());
    CHECK(counter.download() == std::vector<int>{128});
  }
}

BACKEND_TEST("volatile: a thread polling an mbarrier lets the lanes at their steps go on to arrive") {
  if (!steps_or_skip(backend)) return;
  auto sum = engine::Kernel<void(int*, int*)>(kh::cpu_warp_sum_then_arrive(), kh::gpu_warp_sum_then_arrive());
  if (backend.limits().compute_capability != 90) {
    test_support::note_skipped("mbarriers need a Hopper GPU (compute capability 9.0)");
    return;
  }
  DeviceArray<int> data(backend, kBlocks * kValues, "data"), sums(backend, 2 * kBlocks, "sums");
  std::vector<int> expected = block_sums(values());
  expected.insert(expected.end(), expected.begin(), expected.end());  // the warp's, then the poller's
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    data.upload(values());
    RunOptions options;
    options.order = order;
    LaunchResult r = engine::launch(backend, sum, LaunchConfig{kBlocks, 64}, options, data.get(), sums.get());
    INFO(describe(r));
    REQUIRE(r.clean());
    CHECK(sums.download() == expected);
  }
}

// Barrier intervals that only read shared memory (passes/read_only_regions.h): the engine settles
// their written words for every reader as they begin (AccessChecks::settle_for_reads), 4-byte and
// wider reads of such words stop at once, and the checks must still find what a check at each
// read finds (read_only_interval_kernels.cu): nothing in a clean row, an unwritten word read
// word by word and as a float4, a race where the interval also writes into the row.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/device_array.h"
#include "engine/kernel.h"
#include "hopper_test_support.h"
#include "read_only_interval_kernels_kernels.h"

using engine::DeviceArray;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;

namespace {

namespace k = kernels::read_only_interval_kernels;

RunOptions in_order(engine::ThreadOrder order) {
  RunOptions o;
  o.order = order;
  return o;
}

int line_of(const char* marker) { return hopper_test::line_of("read_only_interval_kernels.cu", marker); }

// Whether this build's kernels run as block loops, the only model that knows which intervals
// only read; else says so, once, and the counts of settled intervals are not checked.
bool runs_as_loops() {
#if PUZZLES_BLOCK_LOOPS
  return true;
#else
  static const bool noted = (test_support::note_skipped(
                                 "this build has no block-loop pass (Debian package llvm-dev: the LLVM of the build's "
                                 "clang; a g++ build has none): no interval is known to only read"),
                             true);
  return !noted;
#endif
}

// What each thread of sum_row_between_barriers sums when every word is written.
float row_sum(int word_reads, int thread) {
  const int quad = thread / 4 * 4;
  return word_reads * (word_reads + 1) / 2.0f + static_cast<float>(4 * quad + 10);
}

}  // namespace

TEST_CASE("cpu: intervals that only read: a clean row is settled once per block and every sum is right") {
  auto be = test_support::backend_or_skip(engine::BackendKind::cpu);
  auto sum_row = test_support::cpu_only<void(float*, int, int)>(k::cpu_sum_row_between_barriers);
  const int threads = 64, blocks = 3;
  DeviceArray<float> out(*be, threads * blocks, "out");
  std::vector<float> expected;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) expected.push_back(row_sum(threads, t));
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    LaunchResult clean =
        engine::launch(*be, sum_row, LaunchConfig{blocks, threads}, in_order(order), out.get(), threads, threads);
    INFO(hopper_test::describe(clean));
    CHECK(clean.findings.empty());
    CHECK(out.download() == expected);
    // The interval between the two barriers, in each block; the one after the second writes.
    if (runs_as_loops()) CHECK(clean.stats.intervals_settled == static_cast<std::uint64_t>(blocks));
  }
}

TEST_CASE("cpu: intervals that only read: an unwritten word is named at each kind of read, settled words or not") {
  auto be = test_support::backend_or_skip(engine::BackendKind::cpu);
  auto sum_row = test_support::cpu_only<void(float*, int, int)>(k::cpu_sum_row_between_barriers);
  const int threads = 64;
  DeviceArray<float> out(*be, threads, "out");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    // Thread 63 writes nothing, and every other word of the row is settled as the interval
    // begins: each thread's last word read is of word 63, and so is the float4 of threads 60-63.
    // Found at the first read of the word, whichever kind it is (once per word).
    LaunchResult by_word =
        engine::launch(*be, sum_row, LaunchConfig{1, threads}, in_order(order), out.get(), threads - 1, threads);
    INFO(hopper_test::describe(by_word));
    LaunchResult by_quad =
        engine::launch(*be, sum_row, LaunchConfig{1, threads}, in_order(order), out.get(), threads - 1, threads - 4);
    INFO(hopper_test::describe(by_quad));
    for (const LaunchResult* r : {&by_word, &by_quad}) {
      REQUIRE(r->findings.size() == 1);
      const engine::Finding& f = r->findings.front();
      CHECK(f.kind == FindingKind::uninitialized_shared);
      CHECK(f.buffer == "row");
      CHECK(f.index == threads - 1);
      if (runs_as_loops()) CHECK(r->stats.intervals_settled == 1);
    }
    CHECK(by_word.findings.front().at.line == line_of("// word read"));
    CHECK(by_quad.findings.front().at.line == line_of("// float4 read"));
    CHECK(by_quad.findings.front().where.thread.x / 4 == (threads - 1) / 4);
  }
}

TEST_CASE("cpu: intervals that only read: straight-line reads stop at once where every word is settled, and an "
          "unwritten word is still named at its read") {
  auto be = test_support::backend_or_skip(engine::BackendKind::cpu);
  auto eight = test_support::cpu_only<void(float*, int)>(k::cpu_sum_eight_words_between_barriers);
  const int threads = 64, blocks = 2;
  DeviceArray<float> out(*be, threads * blocks, "out");
  std::vector<float> expected;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) {
      float sum = 0.0f;
      for (int j = 0; j < 8; ++j) sum += static_cast<float>((t + 8 * j) % threads + 1);
      expected.push_back(sum);
    }
  const int first = line_of("// unrolled read"), last = line_of("// last unrolled read");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    LaunchResult clean = engine::launch(*be, eight, LaunchConfig{blocks, threads}, in_order(order), out.get(), threads);
    INFO(hopper_test::describe(clean));
    CHECK(clean.findings.empty());
    CHECK(out.download() == expected);
    if (runs_as_loops()) CHECK(clean.stats.intervals_settled == static_cast<std::uint64_t>(blocks));
    // Word 63 unwritten: not every word is settled, so each read looks up its own word.
    LaunchResult unwritten =
        engine::launch(*be, eight, LaunchConfig{1, threads}, in_order(order), out.get(), threads - 1);
    INFO(hopper_test::describe(unwritten));
    REQUIRE(unwritten.findings.size() == 1);
    const engine::Finding& f = unwritten.findings.front();
    CHECK(f.kind == FindingKind::uninitialized_shared);
    CHECK(f.buffer == "row");
    CHECK(f.index == threads - 1);
    CHECK(f.at.line >= first);
    CHECK(f.at.line <= last);
  }
}

TEST_CASE("cpu: intervals that only read: code after the barrier that also writes the row keeps every read's check, "
          "and its race is found") {
  auto be = test_support::backend_or_skip(engine::BackendKind::cpu);
  auto racing = test_support::cpu_only<void(float*)>(k::cpu_sum_row_and_write_neighbour);
  const int threads = 64;
  DeviceArray<float> out(*be, threads, "out");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    LaunchResult race = engine::launch(*be, racing, LaunchConfig{1, threads}, in_order(order), out.get());
    INFO(hopper_test::describe(race));
    REQUIRE(race.total(FindingKind::shared_race) >= 1);
    bool named = false;
    for (const engine::Finding& f : race.findings)
      if (f.kind == FindingKind::shared_race)
        named |= f.at.line == line_of("// neighbour write") || f.other_at.line == line_of("// neighbour write");
    CHECK(named);
    CHECK(race.stats.intervals_settled == 0);
  }
}

// The checks of a loop's reads made before the loop (passes/reads_ahead.h, cpu/reads_ahead.cpp).
// First the engine's answer for a range of reads, against a FastPath block set up by hand: it
// must allow a loop without checks only where every read's callback would return at once.
// Then kernels whose loops read out of bounds, unwritten shared words or words another thread
// writes (loop_read_kernels.cu): the same findings, at the same lines, as a check at each read;
// and the loops that pass count every global load.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "engine/device_array.h"
#include "engine/kernel.h"
#include "fast_path.h"
#include "hopper_test_support.h"
#include "loop_read_kernels_kernels.h"

extern "C" std::int64_t engine_cpu_reads_checked_ahead(std::uintptr_t first, std::intptr_t step, std::uint64_t count,
                                                       std::uint32_t bytes);

using engine::DeviceArray;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;
using engine::cpu::fast_path;
using engine::cpu::FastPath;

namespace {

namespace k = kernels::loop_read_kernels;

constexpr std::int64_t kCheckEachRead = -1;

// This OS thread's FastPath block as a running CUDA thread's, with one device buffer of 64 words
// (slot 1 of an arena) and 16 shared words, all settled for every reader; put back as it was
// when the test ends.
class HandMadeFastPath {
 public:
  static constexpr std::uint64_t kEpochTag = std::uint64_t{7} << 32 | engine::cpu::kAnyReader;
  static constexpr std::uintptr_t kSlot = std::uintptr_t{1} << engine::cpu::kArenaSlotBits;

  HandMadeFastPath() : saved_(fast_path) {
    FastPath f;
    f.me = 1;
    f.arena_base = kArenaBase;
    f.arena_span = 4 * kSlot;
    begin_ = {0, buffer(), 0, 0};
    end_ = {0, buffer() + 256, 0, 0};
    f.buffer_begin = begin_.data();
    f.buffer_end = end_.data();
    settled_.assign(16, kEpochTag);
    f.shared_lo = shared();
    f.shared_span = 64;
    f.settled = settled_.data();
    f.settled_for_all = kEpochTag;
    f.settled_for_warp = engine::cpu::kNeverSettled;
    fast_path = f;
  }
  ~HandMadeFastPath() { fast_path = saved_; }

  // Addresses only: nothing is read at them.
  static std::uintptr_t buffer() { return kArenaBase + kSlot + 0x100; }
  static std::uintptr_t shared() { return std::uintptr_t{0x7000'0000'0000}; }
  std::vector<std::uint64_t>& settled() { return settled_; }

 private:
  static constexpr std::uintptr_t kArenaBase = std::uintptr_t{0x2000'0000'0000};
  FastPath saved_;
  std::vector<std::uintptr_t> begin_, end_;
  std::vector<std::uint64_t> settled_;
};

std::int64_t ahead(std::uintptr_t first, std::intptr_t step, std::uint64_t count, std::uint32_t bytes = 4) {
  return engine_cpu_reads_checked_ahead(first, step, count, bytes);
}

std::unique_ptr<engine::Backend> cpu() { return test_support::backend_or_skip(engine::BackendKind::cpu); }

using test_support::cpu_only;

RunOptions in_order(engine::ThreadOrder order) {
  RunOptions o;
  o.order = order;
  return o;
}

int line_of(const char* marker) { return hopper_test::line_of("loop_read_kernels.cu", marker); }

}  // namespace

TEST_CASE("cpu: reads ahead: reads inside one device buffer, either way, count one global load each") {
  HandMadeFastPath f;
  const std::uintptr_t b = HandMadeFastPath::buffer();
  CHECK(ahead(b, 4, 64) == 64);                            // the whole buffer
  CHECK(ahead(b + 252, -4, 64) == 64);                     // backwards
  CHECK(ahead(b, 4, 65) == kCheckEachRead);                // one past the end
  CHECK(ahead(b + 252, -4, 65) == kCheckEachRead);         // one before the start
  CHECK(ahead(b - 4, 4, 2) == kCheckEachRead);             // starts before it
  CHECK(ahead(b + 254, 4, 1, 2) == 1);                     // the last two bytes
  CHECK(ahead(b + 254, 4, 1) == kCheckEachRead);           // four bytes, two past the end
  CHECK(ahead(b, 0, 1000) == 1000);                        // the same word again and again
  CHECK(ahead(b, 8, 32, 8) == 32);                         // aligned 8-byte reads
  CHECK(ahead(b + 4, 8, 2, 8) == kCheckEachRead);          // misaligned: the full check names it
  CHECK(ahead(b, 24, 2, 16) == kCheckEachRead);            // a 16-byte read at b + 24: misaligned
  CHECK(ahead(b + 6, 4, 3) == 3);                          // 4 bytes need no alignment
}

TEST_CASE("cpu: reads ahead: shared reads pass only where every word read is settled for this reader") {
  HandMadeFastPath f;
  const std::uintptr_t s = HandMadeFastPath::shared();
  CHECK(ahead(s, 4, 16) == 0);                              // every word, counted as no global load
  CHECK(ahead(s + 60, -4, 16) == 0);
  CHECK(ahead(s, 4, 17) == kCheckEachRead);                 // past the shared memory
  CHECK(ahead(s + 2, 4, 2) == kCheckEachRead);              // misaligned
  CHECK(ahead(s, 8, 8, 8) == kCheckEachRead);               // 8 bytes: the callback's full check
  f.settled()[15] = 0;                                      // the last word written since the barrier
  CHECK(ahead(s, 4, 16) == kCheckEachRead);
  CHECK(ahead(s, 8, 8) == 0);                               // every other word: word 15 is not read
  CHECK(ahead(s + 4, 8, 8) == kCheckEachRead);
  f.settled()[15] = engine::cpu::settled_tag(7, engine::cpu::warp_tag(0, 0));
  CHECK(ahead(s, 4, 16) == kCheckEachRead);                 // settled for another warp's readers
  fast_path.settled_for_warp = engine::cpu::settled_tag(7, engine::cpu::warp_tag(0, 0));
  CHECK(ahead(s, 4, 16) == 0);                              // for this thread's warp
}

TEST_CASE("cpu: reads ahead: ranges across kinds of memory, around the address space, and modes with every "
          "access checked") {
  HandMadeFastPath f;
  const std::uintptr_t s = HandMadeFastPath::shared();
  std::vector<float> host(8);
  const auto h = reinterpret_cast<std::uintptr_t>(host.data());
  CHECK(ahead(h, 4, 8) == 0);                               // the program's own memory: nothing to check
  CHECK(ahead(s - 8, 4, 4) == kCheckEachRead);              // from below shared memory into it
  CHECK(ahead(HandMadeFastPath::buffer() - 0x100, 4, 1) == kCheckEachRead);  // in the arena, in no buffer
  CHECK(ahead(~std::uintptr_t{0} - 8, 4, 4) == kCheckEachRead);  // around the address space's end
  CHECK(ahead(8, -4, 4) == kCheckEachRead);
  CHECK(ahead(h, std::intptr_t{1} << 25, 2) == kCheckEachRead);  // strides and counts past the exact range
  CHECK(ahead(h, 4, 0) == kCheckEachRead);
  fast_path.callbacks_only = true;
  CHECK(ahead(h, 4, 8) == kCheckEachRead);
  fast_path.callbacks_only = false;
  fast_path.full_checks_only = true;
  CHECK(ahead(s, 4, 16) == kCheckEachRead);
  fast_path.full_checks_only = false;
  fast_path.me = 0;
  CHECK(ahead(s, 4, 17) == 0);  // not a CUDA thread's code: the callbacks check nothing
}

TEST_CASE("cpu: reads ahead: a loop that reads one past the end of its buffer is named at its read, and a loop "
          "inside it counts every load") {
  auto be = cpu();
  auto sum_rows = cpu_only<void(const float*, float*, int, int)>(k::cpu_sum_rows);
  const int n = 40, rows = 64;
  std::vector<float> values(rows * n);
  std::iota(values.begin(), values.end(), 1.0f);
  DeviceArray<float> a(*be, rows * n, "a");
  a.upload(values);
  DeviceArray<float> out(*be, rows, "out");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    LaunchResult clean = engine::launch(*be, sum_rows, LaunchConfig{1, rows}, in_order(order), a.get(), out.get(), n, n);
    INFO(hopper_test::describe(clean));
    CHECK(clean.findings.empty());
    REQUIRE(clean.stats.loads_counted);
    CHECK(clean.stats.max_global_loads == static_cast<std::uint64_t>(n));
    CHECK(clean.stats.total_global_loads == static_cast<std::uint64_t>(rows * n));
    std::vector<float> sums = out.download();
    for (int t = 0; t < rows; ++t) CHECK(sums[t] == doctest::Approx(n * (t * n + 1) + n * (n - 1) / 2.0f));

    // One read further: every row but the last reads into the next one; the last reads past a.
    LaunchResult past = engine::launch(*be, sum_rows, LaunchConfig{1, rows}, in_order(order), a.get(), out.get(), n, n + 1);
    INFO(hopper_test::describe(past));
    REQUIRE(past.total(FindingKind::out_of_bounds) == 1);
    const engine::Finding& f = *std::find_if(past.findings.begin(), past.findings.end(),
                                             [](const engine::Finding& x) { return x.kind == FindingKind::out_of_bounds; });
    CHECK(f.buffer == "a");
    CHECK(f.index == rows * n);
    CHECK(f.where.thread.x == rows - 1);
    CHECK(f.at.line == line_of("// row read"));
    CHECK(!f.is_write);
  }
}

TEST_CASE("cpu: reads ahead: a loop that steps backwards and reads before its buffer is named at its read") {
  auto be = cpu();
  auto upwards = cpu_only<void(const float*, float*, int, int, int)>(k::cpu_sum_columns_upwards);
  const int n = 32, rows = 16;
  DeviceArray<float> a(*be, rows * n, "a");
  a.upload(std::vector<float>(rows * n, 0.5f));
  DeviceArray<float> out(*be, n, "out");
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    LaunchResult clean =
        engine::launch(*be, upwards, LaunchConfig{1, n}, in_order(order), a.get(), out.get(), n, 0, rows - 1);
    INFO(hopper_test::describe(clean));
    CHECK(clean.findings.empty());
    CHECK(clean.stats.total_global_loads == static_cast<std::uint64_t>(rows * n));
    CHECK(out.download() == std::vector<float>(n, 0.5f * rows));

    LaunchResult before =
        engine::launch(*be, upwards, LaunchConfig{1, n}, in_order(order), a.get(), out.get(), n, -1, rows - 1);
    INFO(hopper_test::describe(before));
    REQUIRE(before.total(FindingKind::out_of_bounds) >= 1);
    for (const engine::Finding& f : before.findings) {
      if (f.kind != FindingKind::out_of_bounds) continue;
      CHECK(f.buffer == "a");
      CHECK(f.index == static_cast<long long>(f.where.thread.x) - n);
      CHECK(f.at.line == line_of("// column read"));
    }
  }
}

TEST_CASE("cpu: reads ahead: a loop over shared words reads an unwritten one, or a word another thread writes "
          "with no barrier between, and each is named as a check at each read names it") {
  auto be = cpu();
  const int threads = 64;
  DeviceArray<float> out(*be, threads, "out");
  auto row = cpu_only<void(float*, int, int)>(k::cpu_sum_shared_row);
  auto even = cpu_only<void(float*, int)>(k::cpu_sum_shared_even_words);
  auto unordered = cpu_only<void(float*, int)>(k::cpu_sum_shared_row_without_barrier);
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    LaunchResult clean = engine::launch(*be, row, LaunchConfig{1, threads}, in_order(order), out.get(), threads, threads);
    INFO(hopper_test::describe(clean));
    CHECK(clean.findings.empty());
    CHECK(out.download() == std::vector<float>(threads, threads * (threads + 1) / 2.0f));

    LaunchResult every_other = engine::launch(*be, even, LaunchConfig{1, threads}, in_order(order), out.get(), threads);
    INFO(hopper_test::describe(every_other));
    CHECK(every_other.findings.empty());
    CHECK(out.download() == std::vector<float>(threads, (threads / 2) * (threads / 2) * 1.0f));

    // Thread 63 writes nothing: every thread's last read is of an unwritten word.
    LaunchResult unwritten =
        engine::launch(*be, row, LaunchConfig{1, threads}, in_order(order), out.get(), threads - 1, threads);
    INFO(hopper_test::describe(unwritten));
    REQUIRE(unwritten.total(FindingKind::uninitialized_shared) >= 1);
    for (const engine::Finding& f : unwritten.findings) {
      CHECK(f.kind == FindingKind::uninitialized_shared);
      CHECK(f.buffer == "row");
      CHECK(f.index == threads - 1);
      CHECK(f.at.line == line_of("// shared row read"));
    }

    LaunchResult race = engine::launch(*be, unordered, LaunchConfig{1, threads}, in_order(order), out.get(), threads);
    INFO(hopper_test::describe(race));
    const engine::Finding* f = nullptr;
    for (const engine::Finding& each : race.findings)
      if (each.kind == FindingKind::shared_race && !f) f = &each;
    REQUIRE(f != nullptr);
    CHECK(f->buffer == "row");
    CHECK((f->at.line == line_of("// unordered read") || f->other_at.line == line_of("// unordered read")));
    // Every word is written by one thread and read by all: one race each, whichever thread runs
    // first. Once a word's race is reported its reads are settled for every reader (nothing
    // looks at them again before a barrier), and that must not hide any other word's race or
    // its unwritten read.
    CHECK(race.total(FindingKind::shared_race) == threads);
    CHECK(race.total(FindingKind::uninitialized_shared) <= threads);
  }
}

// LaunchReport::add keeps, of each kind, the findings_per_kind first in (block, thread, offset,
// write) order, whatever order they come in, and counts them all. Most findings never take its
// lock (a key above the kind's threshold is rejected first): these sequences are built so that
// a wrong key or threshold rejects one that should be kept.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <tuple>
#include <vector>

#include "launch_report.h"

using engine::FindingKind;
using engine::cpu::LaunchReport;
using engine::cpu::RawFinding;

namespace {

using Key = std::tuple<std::uint64_t, std::uint32_t, std::int64_t, int>;

Key key_of(const RawFinding& f) { return {f.block, f.thread, f.byte_offset, f.is_write}; }

// Every (block, thread, offset, write) once, around the edges of the 32-bit block index too.
std::vector<RawFinding> all_findings(FindingKind kind) {
  const std::uint64_t blocks[] = {0, 1, 2, 0xFFFFFFFEull, 0xFFFFFFFFull, 0x100000000ull, 0x100000005ull};
  std::vector<RawFinding> out;
  for (std::uint64_t block : blocks)
    for (std::uint32_t thread : {0u, 1u, 2u, 7u, 0xFFFFFFFFu})
      for (std::int64_t offset : {0, 4})
        for (int write : {0, 1}) {
          RawFinding f{};
          f.kind = kind;
          f.block = block;
          f.thread = thread;
          f.byte_offset = offset;
          f.is_write = static_cast<std::uint8_t>(write);
          out.push_back(f);
        }
  return out;
}

}  // namespace

TEST_CASE("launch report: each kind keeps its first findings in (block, thread) order and counts every one, "
          "in any order of arrival") {
  const unsigned per_kind = 3;
  const FindingKind kinds[] = {FindingKind::shared_race, FindingKind::uninitialized_shared};
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    std::vector<RawFinding> arrivals;
    for (FindingKind kind : kinds) {
      std::vector<RawFinding> of_kind = all_findings(kind);
      std::shuffle(of_kind.begin(), of_kind.end(), rng);
      of_kind.resize(std::uniform_int_distribution<std::size_t>(1, of_kind.size())(rng));
      arrivals.insert(arrivals.end(), of_kind.begin(), of_kind.end());
    }
    std::shuffle(arrivals.begin(), arrivals.end(), rng);
    // Sorted descending now and then: the latest-first arrival that replaces a kept finding each time.
    if (trial % 4 == 1)
      std::sort(arrivals.begin(), arrivals.end(), [](const RawFinding& a, const RawFinding& b) { return b.before(a); });

    auto report = std::make_unique<LaunchReport>();
    report->start_findings(per_kind);
    for (const RawFinding& f : arrivals) report->add(f, std::uniform_int_distribution<unsigned>(0, 3)(rng));

    for (FindingKind kind : kinds) {
      std::vector<Key> expected, kept;
      for (const RawFinding& f : arrivals)
        if (f.kind == kind) expected.push_back(key_of(f));
      CHECK(report->total(kind) == expected.size());
      std::sort(expected.begin(), expected.end());
      expected.resize(std::min<std::size_t>(expected.size(), per_kind));
      for (std::uint32_t i = 0; i < report->kept; ++i)
        if (report->findings[i].kind == kind) kept.push_back(key_of(report->findings[i]));
      std::sort(kept.begin(), kept.end());
      CHECK(kept == expected);
    }
  }
}

#include "launch_report.h"

#include <cstring>
#include <limits>

#include "cuda_thread.h"

namespace engine::cpu {

namespace {

constexpr std::uint64_t kNoKey = std::numeric_limits<std::uint64_t>::max();

// RawFinding::before's first two fields in one word, in the same order; a block index that does
// not fit gets the largest key, which rejects nothing.
std::uint64_t finding_key(const RawFinding& f) {
  if (f.block > std::numeric_limits<std::uint32_t>::max()) return kNoKey;
  return (f.block << 32) | f.thread;
}

}  // namespace

void LaunchReport::start_findings(unsigned per_kind) {
  findings_per_kind = per_kind;
  for (auto& threshold : keep_below_or_at) threshold.store(kNoKey, std::memory_order_relaxed);
}

void LaunchReport::add(const RawFinding& f, unsigned worker) {
  const auto kind = static_cast<std::size_t>(f.kind);
  ++totals[worker].of_kind[kind];
  if (f.kind == FindingKind::shared_race && f.thread / kWarpSize != f.other_thread / kWarpSize)
    ++totals[worker].races_across_warps;
  // A key above the threshold comes after every kept finding of its kind, which is full: most
  // of a kernel's millions of findings end here, without the lock.
  if (finding_key(f) > keep_below_or_at[kind].load(std::memory_order_relaxed)) return;
  while (lock.test_and_set(std::memory_order_acquire)) {
  }
  unsigned same_kind = 0;
  RawFinding* latest = nullptr;  // the kept finding of this kind with the highest key
  for (std::uint32_t i = 0; i < kept; ++i) {
    if (findings[i].kind != f.kind) continue;
    ++same_kind;
    if (!latest || latest->before(findings[i])) latest = &findings[i];
  }
  if (same_kind < findings_per_kind && kept < kMaxKeptFindings) {
    findings[kept++] = f;
    ++same_kind;
    if (!latest || latest->before(f)) latest = &findings[kept - 1];
  } else if (latest && f.before(*latest)) {
    *latest = f;
    latest = nullptr;  // f may not be the highest now: find it again
    for (std::uint32_t i = 0; i < kept; ++i)
      if (findings[i].kind == f.kind && (!latest || latest->before(findings[i]))) latest = &findings[i];
  }
  if (same_kind >= findings_per_kind || kept >= kMaxKeptFindings)
    keep_below_or_at[kind].store(latest ? finding_key(*latest) : 0, std::memory_order_relaxed);
  lock.clear(std::memory_order_release);
}

std::uint64_t LaunchReport::total(FindingKind kind) const {
  std::uint64_t sum = 0;
  for (unsigned w = 0; w < kMaxWorkers; ++w) sum += totals[w].of_kind[static_cast<std::size_t>(kind)];
  return sum;
}

std::uint64_t LaunchReport::races_across_warps() const {
  std::uint64_t sum = 0;
  for (unsigned w = 0; w < kMaxWorkers; ++w) sum += totals[w].races_across_warps;
  return sum;
}

const char* LaunchReport::intern(const char* text) {
  std::size_t length = std::strlen(text) + 1;
  const char* out = "an inline PTX instruction";  // when the pool is full
  while (lock.test_and_set(std::memory_order_acquire)) {
  }
  if (text_used + length <= sizeof text_pool) {
    std::memcpy(text_pool + text_used, text, length);
    out = text_pool + text_used;
    text_used += static_cast<std::uint32_t>(length);
  }
  lock.clear(std::memory_order_release);
  return out;
}

}  // namespace engine::cpu

#include "launch_report.h"

namespace engine::cpu {

void LaunchReport::add(const RawFinding& f) {
  while (lock.test_and_set(std::memory_order_acquire)) {
  }
  ++totals[static_cast<std::size_t>(f.kind)];
  unsigned same_kind = 0;
  RawFinding* latest = nullptr;  // the kept finding of this kind with the highest key
  for (std::uint32_t i = 0; i < kept; ++i) {
    if (findings[i].kind != f.kind) continue;
    ++same_kind;
    if (!latest || latest->before(findings[i])) latest = &findings[i];
  }
  if (same_kind < findings_per_kind && kept < kMaxKeptFindings) {
    findings[kept++] = f;
  } else if (latest && f.before(*latest)) {
    *latest = f;
  }
  lock.clear(std::memory_order_release);
}

}  // namespace engine::cpu

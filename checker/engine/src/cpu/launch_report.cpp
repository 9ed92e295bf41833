#include "launch_report.h"

#include <cstring>

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

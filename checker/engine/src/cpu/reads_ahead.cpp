// The engine's side of the checks that the block-loop pass makes ahead of a loop
// (passes/reads_ahead.h). Before a loop whose reads step through memory by a fixed stride, the
// kernel asks, for each read, whether every access it will make is one that its callback
// (asan_callbacks.cpp) or the inline checks (passes/inline_checks.h) would settle at once
// without changing anything but the thread's count of global loads: then the loop runs without
// a check at each read, and the count grows by the loop's reads here. Anything else, or any
// doubt, runs the loop with every read checked, as before. Keep the two in step: these answers
// are the callback's early returns, for a whole range of addresses at once.
#include <cstdint>

#include "fast_path.h"

namespace {

using engine::cpu::fast_path;
using engine::cpu::FastPath;

// What the kernel does with the answer: the loop with a check at each read.
constexpr std::int64_t kCheckEachRead = -1;

// Whether [lo, hi) and [base, base + span) share a byte.
bool meets(std::uintptr_t lo, std::uintptr_t hi, std::uintptr_t base, std::uintptr_t span) {
  return span != 0 && lo < base + span && base < hi;
}

// Shared memory: 4-byte aligned reads of words settled for this reader (AccessChecks::settled_),
// the only shared reads the callback returns from at once. Words past the dynamic shared memory
// the launch asked for are never settled.
std::int64_t shared_reads(const FastPath& f, std::uintptr_t first, std::intptr_t step, std::uint64_t count,
                          std::uint32_t bytes) {
  if (bytes != 4 || (first & 3) != 0 || (step & 3) != 0) return kCheckEachRead;
  const std::uint64_t* word = f.settled + ((first - f.shared_lo) >> 2);
  const std::intptr_t stride = step / 4;
  const std::uint64_t all = f.settled_for_all, warp = f.settled_for_warp;
  std::uint64_t i = 0;
  // In groups with one branch each: a long row or column costs a fraction of the loop it precedes.
  constexpr std::uint64_t kGroup = 16;
  for (; i + kGroup <= count; i += kGroup, word += kGroup * stride) {
    bool unsettled = false;
    for (std::uint64_t j = 0; j < kGroup; ++j) {
      const std::uint64_t entry = word[static_cast<std::intptr_t>(j) * stride];
      unsettled |= (entry != all) & (entry != warp);
    }
    if (unsettled) return kCheckEachRead;
  }
  for (; i < count; ++i, word += stride)
    if (*word != all && *word != warp) return kCheckEachRead;
  return 0;
}

// Device memory: reads inside one buffer (aligned, from 8 bytes up), each counted as a global load.
std::int64_t global_reads(const FastPath& f, std::uintptr_t lo, std::uintptr_t hi, std::uintptr_t first,
                          std::intptr_t step, std::uint64_t count, std::uint32_t bytes) {
  if (lo - f.arena_base >= f.arena_span || hi - 1 - f.arena_base >= f.arena_span) return kCheckEachRead;
  const std::uintptr_t slot = (lo - f.arena_base) >> engine::cpu::kArenaSlotBits;
  if (((hi - 1 - f.arena_base) >> engine::cpu::kArenaSlotBits) != slot) return kCheckEachRead;
  if (lo < f.buffer_begin[slot] || hi > f.buffer_end[slot]) return kCheckEachRead;
  if (bytes >= 8 && ((first & (bytes - 1)) != 0 || (static_cast<std::uintptr_t>(step) & (bytes - 1)) != 0))
    return kCheckEachRead;
  return static_cast<std::int64_t>(count);
}

}  // namespace

extern "C" {

// The reads of `bytes` each at first, first + step, ..., `count` of them (count >= 1): how many
// global loads they count for the running thread, where no read needs a check of its own; else
// kCheckEachRead.
std::int64_t engine_cpu_reads_checked_ahead(std::uintptr_t first, std::intptr_t step, std::uint64_t count,
                                             std::uint32_t bytes) {
  const FastPath& f = fast_path;
  if (f.me == 0) return 0;  // not a CUDA thread's code (the engine's, the host's): nothing to check
  // Every access logged, or the full way, or through the callbacks (a test compares them).
  if (f.profile != nullptr || f.full_checks_only || f.callbacks_only) return kCheckEachRead;
  // Within these bounds the range's ends below are exact.
  constexpr std::intptr_t kMaxStep = std::intptr_t{1} << 24;
  if (count == 0 || count > (std::uint64_t{1} << 32) || step > kMaxStep || step < -kMaxStep) return kCheckEachRead;
  const std::uintptr_t span = static_cast<std::uintptr_t>(step < 0 ? -step : step) * (count - 1);
  const std::uintptr_t lo = step < 0 ? first - span : first;
  const std::uintptr_t last = step < 0 ? first : first + span;
  const std::uintptr_t hi = last + bytes;
  if (lo > first || last < first || hi < last) return kCheckEachRead;  // around the address space's end
  if (meets(lo, hi, f.shared_lo, f.shared_span)) {
    if (lo - f.shared_lo >= f.shared_span || hi - f.shared_lo > f.shared_span) return kCheckEachRead;
    return shared_reads(f, first, step, count, bytes);
  }
  if (meets(lo, hi, f.arena_base, f.arena_span)) return global_reads(f, lo, hi, first, step, count, bytes);
  return 0;  // neither shared nor device memory: the thread's stack, the program's data
}

// Counts the global loads of a loop whose reads were checked ahead.
void engine_cpu_count_reads_checked_ahead(std::uint64_t reads) {
  if (reads != 0 && fast_path.loads != nullptr) *fast_path.loads += reads;
}

}  // extern "C"

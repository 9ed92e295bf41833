// What the access checks need for their common cases, in one per-OS-thread block, so that the
// common case reads a handful of thread-local words: the engine's callbacks
// (asan_callbacks.cpp) read it, and so does the code the compiler pass puts inline in kernels
// (passes/inline_checks.cpp), which includes this header for the offsets of its fields. So it
// depends on nothing else of the engine.
#pragma once

#include <cstdint>

// The block's symbol name, which kernel code compiled with the pass refers to.
#define ENGINE_FAST_PATH_SYMBOL "engine_cpu_fast_path"
// The engine's functions that check a loop's reads before the loop runs (passes/reads_ahead.h,
// cpu/reads_ahead.cpp), as the pass names them.
#define ENGINE_READS_AHEAD_SYMBOL "engine_cpu_reads_checked_ahead"
#define ENGINE_COUNT_READS_AHEAD_SYMBOL "engine_cpu_count_reads_checked_ahead"

namespace engine::cpu {

class MemoryProfile;

struct FastPath {
  std::uintptr_t shared_lo = 0, shared_span = 0;
  // The dynamic shared storage past what the launch asked for: its accesses take the full check.
  std::uintptr_t dynamic_tail_lo = 0, dynamic_tail_span = 0;
  const void* shadow = nullptr;  // AccessChecks' Word array
  std::uint32_t epoch = 0;
  std::uint16_t me = 0;          // the running CUDA thread + 1; 0: no kernel code runs
  bool full_checks_only = false;  // asynchronous copies in flight: every access goes the full way
  // PUZZLES_CPU_INLINE_CHECKS=off: the inline checks call the callbacks for every access (tests
  // compare the two). Next to full_checks_only: the inline code reads both at once.
  bool callbacks_only = false;
  std::uintptr_t arena_base = 0;
  std::uintptr_t arena_span = 0;
  const std::uintptr_t* buffer_begin = nullptr;
  const std::uintptr_t* buffer_end = nullptr;
  std::uint64_t* loads = nullptr;  // the running thread's global-load count
  std::uintptr_t* writer_site = nullptr;  // AccessChecks' per-word sites of the last write/read
  std::uintptr_t* reader_site = nullptr;
  const std::uint32_t* warp_syncs = nullptr;  // the running thread's warp's __syncwarp count
  std::uint8_t* written = nullptr;  // AccessChecks' per-word bytes written since the block started
  MemoryProfile* profile = nullptr;  // set when accesses are logged for the memory profile
  void* proxy = nullptr;                        // AccessChecks' per-word last generic write (ProxyWrite)
  const std::uint32_t* proxy_fences = nullptr;  // the running thread's fence.proxy.async count
  std::uint64_t* settled = nullptr;  // AccessChecks' per-word settled_tag: reads that change nothing
  // The two entries of `settled` at which a 4-byte read by the running thread stops: any
  // reader's in this epoch, and its warp's at its __syncwarp count; kNeverSettled while no read
  // may stop there (no CUDA thread runs, or accesses go the full way). Derived from the fields
  // above by refresh_settled_tags(), which the engine calls whenever one of them changes.
  std::uint64_t settled_for_all = 0, settled_for_warp = 0;
  // The tag with which every word of shared memory was settled as this epoch began (an epoch that
  // only reads: AccessChecks::settle_for_reads), else 0, which no entry ever is. While it equals
  // settled_for_all, settled_span is shared_span, else 0: an aligned 4-byte read at a shared
  // offset below it stops, which the loads of code that only reads test first
  // (passes/inline_checks.cpp).
  std::uint64_t every_word_settled = 0;
  std::uintptr_t settled_span = 0;
};
extern __thread FastPath fast_path __asm__(ENGINE_FAST_PATH_SYMBOL);

// Warps are 32 consecutive threads, as on a GPU.
inline constexpr unsigned kWarpSize = 32;

// Device buffers live one to a slot of the arena: a slot's index is an address's offset in the
// arena shifted right by this many bits (DeviceArena).
inline constexpr unsigned kArenaSlotBits = 32;

// AccessChecks::settled_'s entries: the epoch, and which readers (a warp's tag, or any reader).
inline constexpr std::uint32_t kAnyReader = 0xFFFFFFFFu;
inline std::uint32_t warp_tag(unsigned warp, std::uint16_t syncwarp_count) { return warp << 16 | syncwarp_count; }
inline std::uint64_t settled_tag(std::uint32_t epoch, std::uint32_t readers) {
  return static_cast<std::uint64_t>(epoch) << 32 | readers;
}

// No entry of settled_ is ever this: epoch 0 never comes (epochs start at 1), and no warp is
// number 0xFFFF.
inline constexpr std::uint64_t kNeverSettled = 0xFFFFFFFEu;

inline void refresh_settled_tags(FastPath& f) {
  if (f.me == 0 || f.full_checks_only || f.callbacks_only || f.profile != nullptr) {
    f.settled_for_all = f.settled_for_warp = kNeverSettled;
    f.settled_span = 0;
    return;
  }
  f.settled_for_all = settled_tag(f.epoch, kAnyReader);
  const auto sync = static_cast<std::uint16_t>(*f.warp_syncs);
  f.settled_for_warp = settled_tag(f.epoch, warp_tag((f.me - 1u) / kWarpSize, sync));
  f.settled_span = f.every_word_settled == f.settled_for_all ? f.shared_span : 0;
}

}  // namespace engine::cpu

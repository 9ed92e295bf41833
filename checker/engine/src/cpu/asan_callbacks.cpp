// The engine's side of the kernels' instrumentation. Kernel code for the CPU backend is
// compiled by clang with -fsanitize=address in its "call a function for every access" mode
// (checker/cmake/KernelTargets.cmake), but linked without AddressSanitizer's runtime: these
// functions are the runtime. So every load and store the compiled kernel makes, and every
// memcpy, memmove and memset the compiler turned its copies into, reaches AccessChecks
// with its address, its size and the return address into the kernel (its source line).
#include <cstring>

#include "worker.h"

namespace {

using engine::cpu::AccessChecks;
using engine::cpu::current_thread;
using engine::cpu::current_worker;
using engine::cpu::fast_path;

// Logs a device-memory access for the memory profile (16 bytes at most a piece: wider
// copies are several instructions on a GPU too).
__attribute__((noinline)) void log_for_profile(std::uintptr_t a, unsigned size, bool write, void* return_address) {
  const engine::cpu::FastPath& f = fast_path;
  bool shared = a - f.shared_lo < f.shared_span;
  if (!shared && a - f.arena_base >= f.arena_span) return;
  auto site = reinterpret_cast<std::uintptr_t>(return_address);
  for (unsigned done = 0; done < size; done += 16)
    f.profile->record(f.me - 1u, site, a + done, size - done < 16 ? size - done : 16, write, shared);
}

__attribute__((noinline)) void check(std::uintptr_t a, unsigned size, bool write, void* return_address, bool shaped) {
  engine::cpu::CudaThread* t = current_thread;
  if (t == nullptr) return;  // host code, or the engine itself
  if (fast_path.profile && !shaped) log_for_profile(a, size, write, return_address);
  current_worker->checks().full_check(a, size, write, reinterpret_cast<engine::cpu::Site>(return_address), *t, shaped);
}

// Where kernels are compiled with the block-loop pass, the commonest early returns below are
// also put inline in front of each access (passes/inline_checks.h), which calls these callbacks
// for the rest, and answered for a loop's whole range of reads at once (reads_ahead.cpp); keep
// the three in step.
//
// The accesses that dominate a matmul kernel, settled without a call: a shared access with
// no other thread's conflicting access to the same word since the last barrier (recorded
// here exactly as the full check records it), and an aligned global access inside its
// buffer. Anything else (a possible race, a word an asynchronous copy will write, an
// access across words, an out-of-bounds or misaligned one, one past the dynamic shared
// memory the launch asked for) takes the full check.
template <unsigned Size, bool Write>
__attribute__((always_inline)) inline void fast_checks(std::uintptr_t a, void* return_address) {
  const engine::cpu::FastPath& f = fast_path;
  if (!f.full_checks_only) {
    std::uintptr_t shared_offset = a - f.shared_lo;
    if (shared_offset < f.shared_span) {
      // Past the dynamic shared memory the launch asked for: out of bounds (the full check).
      if (a + Size - 1 - f.dynamic_tail_lo < f.dynamic_tail_span) return check(a, Size, Write, return_address, true);
      // An aligned 8- or 16-byte read (a float2, a float4 of a tile) of words each settled for
      // this reader: what the full check would do for it is what it would do for each of its
      // words read alone, and each of those would stop at the settled entry below. Words are
      // settled this way at the start of an epoch that only reads (AccessChecks::settle_for_reads).
      if ((Size == 8 || Size == 16) && !Write && (a & (Size - 1)) == 0 && shared_offset + Size <= f.shared_span) {
        const std::uint64_t* settled = f.settled + (shared_offset >> 2);
        const unsigned warp = engine::cpu::SharedReaders::warp_of(f.me);
        const std::uint64_t all = engine::cpu::settled_tag(f.epoch, engine::cpu::kAnyReader);
        const std::uint64_t mine = engine::cpu::settled_tag(f.epoch, engine::cpu::warp_tag(warp, static_cast<std::uint16_t>(*f.warp_syncs)));
        bool each = true;
        for (unsigned k = 0; k < Size / 4; ++k) each &= settled[k] == all || settled[k] == mine;
        if (each) return;
      }
      if (Size == 4 && (a & 3) == 0) {
        std::size_t i = shared_offset >> 2;
        const unsigned warp = engine::cpu::SharedReaders::warp_of(f.me);
        const auto sync = static_cast<std::uint16_t>(*f.warp_syncs);
        if (!Write) {  // see AccessChecks::settled_
          const std::uint64_t settled = f.settled[i];
          if (settled == engine::cpu::settled_tag(f.epoch, engine::cpu::kAnyReader) ||
              settled == engine::cpu::settled_tag(f.epoch, engine::cpu::warp_tag(warp, sync)))
            return;
        }
        auto& w = static_cast<AccessChecks::Word*>(const_cast<void*>(f.shadow))[i];
        if (w.epoch != f.epoch) {
          w = AccessChecks::Word{};
          w.epoch = f.epoch;
        }
        if (w.readers.word_by_bytes) return check(a, Size, Write, return_address, true);
        auto site = reinterpret_cast<std::uintptr_t>(return_address);
        if (!Write) {
          const std::uint8_t written = f.written[i];
          const bool whole = (written & engine::cpu::kAllBytesWritten) == engine::cpu::kAllBytesWritten;
          // Bytes unwritten since the block started, not reported yet: the full check reports them.
          if (!whole && !(written & engine::cpu::kUnwrittenReported)) return check(a, Size, Write, return_address, true);
          if (w.writer == 0 || w.writer == f.me) {
            if (w.readers.first == 0) f.reader_site[i] = site;
            w.readers.note(f.me, sync);
            // No writer, and no unwritten bytes left to report (all written, or their read
            // already reported): settled, when its readers are.
            if (w.writer == 0) {
              if (w.readers.settled_for_all())
                f.settled[i] = engine::cpu::settled_tag(f.epoch, engine::cpu::kAnyReader);
              else if (w.readers.settled_for_warp())  // then this thread is of that warp
                f.settled[i] = engine::cpu::settled_tag(f.epoch, engine::cpu::warp_tag(warp, sync));
            }
            return;
          }
          // Another thread's write whose race this word has already reported since the barrier:
          // all the full check (check_word) would do is note the reader, and no check looks at
          // the readers of a reported word again before the barrier, so the word is settled for
          // every reader. A kernel that lacks a barrier reads every word of its tile this way.
          if (w.readers.word_reported) {
            if (w.readers.first == 0) f.reader_site[i] = site;
            w.readers.note(f.me, sync);
            f.settled[i] = engine::cpu::settled_tag(f.epoch, engine::cpu::kAnyReader);
            return;
          }
        } else if ((w.writer == 0 || w.writer == f.me) && w.readers.unordered_with(f.me, sync) == 0) {
          w.writer = f.me, w.writer_sync = sync, f.writer_site[i] = site;
          f.written[i] |= engine::cpu::kAllBytesWritten;
          f.settled[i] = 0;
          static_cast<AccessChecks::ProxyWrite*>(f.proxy)[i] = AccessChecks::ProxyWrite{*f.proxy_fences, f.me, 0, site};
          return;
        }
      }
    } else if (a - f.arena_base < f.arena_span) {
      std::size_t slot = (a - f.arena_base) >> engine::cpu::DeviceArena::kSlotBits;
      if (a >= f.buffer_begin[slot] && a + Size <= f.buffer_end[slot] && (Size < 8 || (a & (Size - 1)) == 0)) {
        if (!Write) ++*f.loads;
        return;
      }
    } else {
      return;  // not device memory: the thread's stack, the program's data
    }
  }
  check(a, Size, Write, return_address, true);
}

template <unsigned Size, bool Write>
__attribute__((noinline)) void profiled_checks(std::uintptr_t a, void* return_address) {
  log_for_profile(a, Size, Write, return_address);
  fast_checks<Size, Write>(a, return_address);
}

// Every call out of the common path is a tail call (the profile's logging included), so the
// callbacks save no registers: they run once for every load and store of a kernel.
template <unsigned Size, bool Write>
__attribute__((always_inline)) inline void checked(std::uintptr_t a, void* return_address) {
  const engine::cpu::FastPath& f = fast_path;
  if (f.me == 0) return;  // host code, or the engine itself
  if (f.profile) return profiled_checks<Size, Write>(a, return_address);
  fast_checks<Size, Write>(a, return_address);
}

}  // namespace

extern "C" {

// Called by the module constructor that the instrumentation adds: nothing to set up.
void __asan_init() {}
void __asan_version_mismatch_check_v8() {}
void __asan_handle_no_return() {}

#define ENGINE_ACCESS_CALLBACKS(bytes)                                                                      \
  void __asan_load##bytes(std::uintptr_t a) { checked<bytes, false>(a, __builtin_return_address(0)); }         \
  void __asan_store##bytes(std::uintptr_t a) { checked<bytes, true>(a, __builtin_return_address(0)); }         \
  void __asan_load##bytes##_noabort(std::uintptr_t a) { checked<bytes, false>(a, __builtin_return_address(0)); } \
  void __asan_store##bytes##_noabort(std::uintptr_t a) { checked<bytes, true>(a, __builtin_return_address(0)); }
ENGINE_ACCESS_CALLBACKS(1)
ENGINE_ACCESS_CALLBACKS(2)
ENGINE_ACCESS_CALLBACKS(4)
ENGINE_ACCESS_CALLBACKS(8)
ENGINE_ACCESS_CALLBACKS(16)
#undef ENGINE_ACCESS_CALLBACKS

void __asan_loadN(std::uintptr_t a, std::uintptr_t size) {
  check(a, static_cast<unsigned>(size), false, __builtin_return_address(0), false);
}
void __asan_storeN(std::uintptr_t a, std::uintptr_t size) {
  check(a, static_cast<unsigned>(size), true, __builtin_return_address(0), false);
}
void __asan_loadN_noabort(std::uintptr_t a, std::uintptr_t size) {
  check(a, static_cast<unsigned>(size), false, __builtin_return_address(0), false);
}
void __asan_storeN_noabort(std::uintptr_t a, std::uintptr_t size) {
  check(a, static_cast<unsigned>(size), true, __builtin_return_address(0), false);
}

void* __asan_memcpy(void* dst, const void* src, std::size_t size) {
  if (size) {
    check(reinterpret_cast<std::uintptr_t>(src), static_cast<unsigned>(size), false, __builtin_return_address(0), false);
    check(reinterpret_cast<std::uintptr_t>(dst), static_cast<unsigned>(size), true, __builtin_return_address(0), false);
  }
  return std::memcpy(dst, src, size);
}
void* __asan_memmove(void* dst, const void* src, std::size_t size) {
  if (size) {
    check(reinterpret_cast<std::uintptr_t>(src), static_cast<unsigned>(size), false, __builtin_return_address(0), false);
    check(reinterpret_cast<std::uintptr_t>(dst), static_cast<unsigned>(size), true, __builtin_return_address(0), false);
  }
  return std::memmove(dst, src, size);
}
void* __asan_memset(void* dst, int value, std::size_t size) {
  if (size) check(reinterpret_cast<std::uintptr_t>(dst), static_cast<unsigned>(size), true, __builtin_return_address(0), false);
  return std::memset(dst, value, size);
}

}  // extern "C"

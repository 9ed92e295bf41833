// Checks on every load and store of an instrumented kernel (the compiler calls the engine
// before each one, see asan_callbacks.cpp): global accesses must fall inside a buffer and
// are counted per thread; shared accesses are checked for races between barriers and for
// asynchronous copies still in flight; 8- and 16-byte accesses must be aligned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "async_copies.h"
#include "cuda_thread.h"
#include "device_arena.h"
#include "fast_path.h"
#include "grid_plan.h"
#include "memory_profile.h"
#include "shared_readers.h"
#include "zeroed_array.h"

namespace engine::cpu {

class Worker;

// Where an access comes from: a return address into kernel code (looked up in the debug
// information: source_lines.h), or, for accesses the engine makes for a thread (tensor-core fragments, inline
// PTX), a source line: the top bit set (no code address has it), the line in the next 16
// bits, and the low 47 bits of the file's name, a string literal of the program, so that
// the parent process of a launch reads it as the child wrote it.
using Site = std::uintptr_t;
inline constexpr Site kLineSite = Site{1} << 63;
inline constexpr Site kSiteFileMask = (Site{1} << 47) - 1;
inline Site line_site(unsigned line, const char* file) {
  return kLineSite | (Site{line > 0xFFFF ? 0xFFFFu : line} << 47) | (reinterpret_cast<Site>(file) & kSiteFileMask);
}
inline unsigned site_line(Site s) { return static_cast<unsigned>((s >> 47) & 0xFFFF); }
inline const char* site_file(Site s) { return reinterpret_cast<const char*>(s & kSiteFileMask); }

inline constexpr std::uint8_t kAllBytesWritten = 0xF;
inline constexpr std::uint8_t kUnwrittenReported = 0x10;

class AccessChecks {
 public:
  // On the worker's own OS thread: shared-variable addresses are per thread.
  void prepare(const GridPlan& plan);
  void new_block();  // poisons shared memory, as a GPU leaves it uninitialised
  void end_block() {}
  void next_epoch() {
    fast_path.epoch = ++epoch_;
    fast_path.every_word_settled = 0;  // until settle_for_reads says otherwise for this epoch
    refresh_settled_tags(fast_path);
  }
  // At the start of an epoch in which no thread writes shared memory (the block-loop pass's
  // regions that only read, every thread in one): settles, for every reader, each word whose
  // bytes are all written or whose unwritten read was reported. With no write to come before the
  // next barrier, a read of such a word can find nothing and change nothing that a check will
  // look at (its readers matter only to a later write), which is what the fast path's first
  // readers of the word would otherwise note, one callback each. Not while accesses go the full
  // way, through the callbacks, or into the memory profile; nor where shared memory has more
  // than `most_words` words (a scan of all of them would cost more than the epoch's reads save).
  // Returns whether it settled.
  bool settle_for_reads(std::size_t most_words);
  // On the worker's own OS thread, after another worker of its cluster changed these checks
  // (fast_path is per OS thread, and that one's was kept).
  void resume_fast_path() {
    fast_path.epoch = epoch_;
    fast_path.every_word_settled = 0;
    refresh_fast_path();
  }

  // Every load and store of kernel code: keep the common case short.
  // `shaped`: a load or store the kernel wrote with this width (not a memcpy), so 8 and 16
  // bytes must be aligned, as on the GPU.
  void on_access(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t, bool shaped = true) {
    if (a - shared_lo_ < shared_span_) {
      shared_access(a, size, write, site, t, shaped);
    } else if (a - arena_->base() < arena_->span()) {
      if (shaped && (size == 8 || size == 16) && (a & (size - 1))) misaligned(a, size, write, site, t, false);
      if (!arena_->inside_buffer(a, size)) out_of_bounds(a, size, write, site, t);
      if (!write) ++t.global_loads;
      if (write && async_sources_ > 0) source_write(a, size, site, t);
    } else if (!t.accumulators.empty()) {
      // The thread's own stack: its C++ variables that a wgmma still owns.
      accumulator_access(a, size, write, site, t);
    }
    // Anything else is the thread's own stack or the program's data: not device memory.
  }
  // An access the engine makes for a thread (a tensor-core fragment), at a source line.
  void engine_access(std::uintptr_t a, unsigned size, bool write, CudaThread& t, unsigned line, const char* file) {
    on_access(a, size, write, site_of(line, file), t);
  }
  void atomic_access(std::uintptr_t a, unsigned size, Site site, CudaThread& t);

  // Asynchronous copies: checked when issued, marked in flight until waited for.
  void copy_issued(const PendingCopy& c, CudaThread& t);
  void copy_landed(const PendingCopy& c, CudaThread& t);
  void copy_waited(const PendingCopy& c, CudaThread& t);

  // --- The asynchronous units (Hopper): tensor copies, warpgroup MMAs, bulk stores ---------
  // A tensor copy's destination: in flight until it lands; then, until a thread has seen the
  // mbarrier phase that brings it, a read of it is a race.
  // `issuer_here`: false for a copy issued by a thread of another CTA of the cluster, whose
  // knowledge of this CTA's wgmma groups is not tracked.
  void tma_issued(std::uintptr_t a, unsigned size, unsigned barrier_number, std::uint32_t phase, unsigned swizzle_bytes,
                  Site site, CudaThread& issuer, bool issuer_here = true);
  void tma_landed(std::uintptr_t a, unsigned size);
  // A store by a thread of another CTA of the cluster (st.shared::cluster): the bytes are
  // written, by no thread of this block (the cluster barrier or an mbarrier orders them).
  void written_from_other_cta(std::uintptr_t a, unsigned size);
  // wgmma reads shared memory until its group is waited for; writes before that are races.
  void wgmma_reads(std::uintptr_t a, unsigned size, unsigned warpgroup, std::uint32_t group, Site site);
  // A bulk (TMA) store reads its source until its bulk group is waited for.
  void bulk_reads(std::uintptr_t a, unsigned size, unsigned thread, std::uint32_t group, Site site);
  // What an asynchronous unit finds when it reads shared memory for a thread's instruction:
  // unwritten bytes, a copy still in flight, a swizzle other than the one it was written with.
  // Returns false after a finding.
  bool async_read(std::uintptr_t a, unsigned size, unsigned swizzle_bytes, Site site, CudaThread& t);
  bool async_active() const { return !async_.empty(); }
  // The async proxy reads shared memory for a thread's instruction (a tensor store, a wgmma's
  // operands): bytes whose last write was a generic-proxy store of a thread that has executed
  // no fence.proxy.async since are a proxy_fence finding (once per word).
  void proxy_read(std::uintptr_t a, unsigned size, Finding::ProxyReader reader, Site site, CudaThread& t);
  // fence.proxy.async by `t`: its generic writes so far are ordered before the async proxy.
  static void proxy_fence(CudaThread& t) { ++t.proxy_fences; }
  // wgmma.mma_async wrote `t`'s accumulators, the C++ variables at [begin, end), for `group`;
  // wgmma.wait_group retired every group before `retired`.
  void accumulators_issued(CudaThread& t, std::uintptr_t begin, std::uintptr_t end, std::uint32_t group, Site site);
  static void accumulators_retired(CudaThread& t, std::uint32_t retired);
  // A load or store of `t`'s stack that may touch accumulators a wgmma still owns: a
  // wgmma_accumulator finding (once per wgmma).
  void accumulator_access(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t);
  // Global memory a tensor copy reads or writes for a thread: inside a buffer, or an
  // out-of-bounds finding (not counted in the thread's loads: the copy engine made them).
  void async_global_read(std::uintptr_t a, unsigned size, Site site, CudaThread& t) {
    if (a - arena_->base() < arena_->span() && !arena_->inside_buffer(a, size)) out_of_bounds(a, size, false, site, t);
  }
  void async_global_write(std::uintptr_t a, unsigned size, Site site, CudaThread& t) {
    if (a - arena_->base() < arena_->span() && !arena_->inside_buffer(a, size)) out_of_bounds(a, size, true, site, t);
  }

  // True when [a, a + size) lies in one of the kernel's shared variables or its dynamic
  // shared memory (of any size the launch may ask for).
  // The lowest host address of the kernel's shared memory (0 when it has none).
  std::uintptr_t shared_low() const { return shared_lo_; }
  bool in_shared_memory(std::uintptr_t a, unsigned size) const {
    const Region* r = region_of(a);
    return r && a + size <= r->end;
  }
  // The shared variable (index into GridPlan::shared, or -1: dynamic) and byte offset of a
  // shared host address, for findings about it.
  void place_of(std::uintptr_t a, std::int32_t& slot, std::int64_t& byte_offset) const {
    const Region* r = region_of(a);
    slot = r ? r->variable : -1;
    byte_offset = r ? static_cast<std::int64_t>(a - r->begin) : 0;
  }
  static Site site_of(unsigned line, const char* file) { return line_site(line, file); }
  // The slow path of the callbacks: everything, for any access.
  void full_check(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t, bool shaped) {
    on_access(a, size, write, site, t, shaped);
  }

 // What one 4-byte shared word saw since the last barrier (public for the fast path).
  struct Word {
    std::uint32_t epoch = 0;
    std::uint16_t writer = 0;       // thread + 1; 0: none
    std::uint16_t writer_sync = 0;  // the writer's warp's __syncwarp count then
    // Its readers, and its two flags: readers.word_reported (one race finding per word between
    // two barriers) and readers.word_by_bytes (accesses narrower than the word, halves or
    // bytes, were made to it since the barrier: its bytes are tracked one by one in ByteWord).
    SharedReaders readers;
  };
  static_assert(sizeof(Word) == 16, "shadow words are read for every shared access: keep them to a quarter line");
  // The last generic-proxy write of a shared word (any thread's store, st.shared, stmatrix, a
  // copy the compiler made), public for the fast path: its thread and that thread's
  // fence.proxy.async count then. Kept across barriers; in a word that was written in this
  // block it is always this block's (the async proxy's own writes clear it).
  struct ProxyWrite {
    std::uint32_t fences = 0;
    std::uint16_t writer = 0;  // thread + 1; 0: none, or the async proxy wrote it last
    std::uint16_t unused = 0;
    Site site = 0;
  };

 private:
  struct Region {
    std::uintptr_t begin, end;
    std::size_t usable;  // dynamic shared memory: what the launch asked for
    int variable;        // index into GridPlan::shared, or -1 for dynamic shared memory
  };
  // A word whose bytes are used separately (two threads writing the two halves of a word is
  // not a race): each byte's writer and readers, as Word keeps them for whole words.
  struct ByteWord {
    std::uint16_t writer[4] = {}, writer_sync[4] = {};
    SharedReaders readers[4];
    Site writer_site[4] = {}, reader_site[4] = {};
  };
  struct InFlight {  // a word an asynchronous copy will write
    std::uint16_t issuer = 0;  // thread + 1; 0: none
    std::uint16_t reported = 0;
    Site site = 0;             // where the copy was issued (a line site)
  };
  struct SourceRange {
    std::uintptr_t begin, end;
    std::uint32_t issuer;
    Site site;
  };

  const Region* region_of(std::uintptr_t address) const;
  void shared_access(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t, bool shaped);
  void check_range(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t);
  void check_word(std::size_t index, std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t);
  void check_bytes(std::size_t index, unsigned byte_mask, std::uintptr_t a, unsigned size, bool write, Site site,
                   CudaThread& t);
  bool ordered(std::uint16_t other, std::uint16_t other_sync, const CudaThread& t) const;
  [[noreturn]] void out_of_bounds(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t);
  [[noreturn]] void shared_out_of_bounds(const Region& r, std::uintptr_t a, unsigned size, bool write, Site site,
                                         CudaThread& t);
  [[noreturn]] void misaligned(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t, bool shared);
  void report_race(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t, std::uint16_t other,
                   bool other_write, Site other_site);
  void report_unwritten(std::size_t index, std::uintptr_t a, unsigned size, Site site, CudaThread& t);
  void report_in_flight(std::size_t index, std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t);
  void source_write(std::uintptr_t a, unsigned size, Site site, CudaThread& t);
  void fill_site(RawFinding& f, Site site, bool other) const;
  void fill_shared_place(RawFinding& f, std::uintptr_t a, unsigned size) const;

  const GridPlan* plan_ = nullptr;
  const DeviceArena* arena_ = nullptr;
  Worker* worker_ = nullptr;
  std::vector<Region> regions_;
  std::uintptr_t dynamic_begin_ = 0, dynamic_capacity_ = 0, dynamic_usable_ = 0;
  std::uintptr_t shared_lo_ = 0, shared_span_ = 0;
  ZeroedArray<Word> shadow_;
  ZeroedArray<Site> writer_site_, reader_site_;
  ZeroedArray<ProxyWrite> proxy_;
  std::vector<std::uint8_t> proxy_reported_;  // per word, this block: a proxy_fence finding was made
  // Per shared word, since the block started: bit k set once byte k was written (by the
  // kernel, a copy it issued, or the engine for it); kUnwrittenReported once a read of
  // unwritten bytes was reported. A GPU leaves shared memory as the last block left it.
  ZeroedArray<std::uint8_t> written_;
  // Per shared word: whether whole-word reads of it leave every check as they are for the
  // rest of the epoch, so that the fast path stops there without reading the word's shadow
  // (most reads of a matmul's tiles). Either no thread wrote it since the barrier, it has no
  // unwritten bytes left to report (all written, or that read reported), and its readers are
  // settled (SharedReaders): for every reader (settled_tag(epoch, kAnyReader)), or for a
  // warp's readers while its __syncwarp count stays (settled_tag(epoch, warp_tag(warp,
  // count))). Or its race since the barrier is reported: nothing looks at its readers again
  // (for every reader). Whatever else touches the word's shadow (a store, every access the
  // full way, a landed copy) sets it back to 0.
  ZeroedArray<std::uint64_t> settled_;
  void unsettle(std::size_t first, std::size_t last) {
    for (std::size_t i = first; i <= last && i < settled_.size(); ++i) settled_[i] = 0;
  }
  // Per shared word, once an asynchronous unit has touched shared memory in this block.
  struct AsyncTag {
    std::uint16_t tma_barrier = 0;   // the writing tensor copy's mbarrier number + 1; 0: none
    std::uint8_t tma_pending = 0;    // 1 until the copy lands
    std::uint8_t swizzle = 0;        // the copy's swizzle span / 16 (0: none)
    std::uint32_t tma_phase = 0;     // the mbarrier completion that brings it (1 = the first)
    std::uint16_t tma_issuer = 0;    // thread + 1
    std::uint16_t wgmma_warpgroup = 0;  // + 1; 0: no wgmma reads it
    std::uint32_t wgmma_group = 0;
    std::uint16_t bulk_thread = 0;      // + 1; 0: no bulk store reads it
    std::uint32_t bulk_group = 0;
    Site site = 0;                   // where the copy or the store was issued
    Site wgmma_site = 0;             // where the wgmma that reads it was issued
  };
  ZeroedArray<AsyncTag> async_;
  void async_access(std::size_t index, std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t);
  void async_finding(Finding::AsyncUse use, std::uintptr_t a, unsigned size, bool write, Site site,
                                  CudaThread& t, unsigned other_thread, Site other_site, unsigned swizzle_written = 0,
                                  unsigned swizzle_read = 0, bool stop = false);
  std::vector<ByteWord> bytes_;  // made when the first narrow access comes
  ZeroedArray<InFlight> in_flight_;
  std::size_t in_flight_words_ = 0;
  std::vector<SourceRange> sources_;
  std::size_t async_sources_ = 0;
  std::uint32_t epoch_ = 1;
  // A wgmma's accumulators were watched in this block: the thread's stack accesses go the full way.
  bool accumulators_watched_ = false;
  void refresh_fast_path() {
    fast_path.full_checks_only =
        in_flight_words_ > 0 || async_sources_ > 0 || !async_.empty() || accumulators_watched_;
    refresh_settled_tags(fast_path);
  }
  // Something in flight: every access goes the full way until refresh_fast_path() finds none.
  static void require_full_checks() {
    fast_path.full_checks_only = true;
    refresh_settled_tags(fast_path);
  }
};

}  // namespace engine::cpu

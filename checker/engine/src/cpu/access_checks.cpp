#include "access_checks.h"

#include <cstring>

#include "environment_switch.h"
#include "symbol_table.h"
#include "worker.h"

namespace engine::cpu {

__thread FastPath fast_path;

namespace {

// PUZZLES_CPU_INLINE_CHECKS: "off" has the checks that the block-loop pass put inline in kernels
// (passes/inline_checks.h) call the callbacks for every access; "on" (or unset) lets them settle
// the common cases. Tests set it to compare the two.
const bool inline_checks_wanted = environment_switch("PUZZLES_CPU_INLINE_CHECKS", "on", "off");

}  // namespace

namespace {
constexpr unsigned char kSharedPoison = 0xFF;  // reads as NaN in a float
constexpr std::uint16_t id_of(const CudaThread& t) { return static_cast<std::uint16_t>(t.linear + 1); }
}  // namespace

void AccessChecks::prepare(const GridPlan& plan) {
  plan_ = &plan;
  arena_ = &DeviceArena::instance();
  worker_ = current_worker;
  regions_.clear();
  for (std::size_t i = 0; i < plan.shared.size(); ++i) {
    std::uintptr_t begin = SymbolTable::tls_address(plan.shared[i].tls_offset);
    regions_.push_back({begin, begin + plan.shared[i].size, plan.shared[i].size, static_cast<int>(i)});
  }
  if (plan.kernel->dynamic_shared) {
    auto begin = reinterpret_cast<std::uintptr_t>(plan.kernel->dynamic_shared());
    dynamic_begin_ = begin;
    dynamic_capacity_ = plan.kernel->dynamic_shared_capacity;
    dynamic_usable_ = plan.config.dynamic_shared_bytes;
    regions_.push_back({begin, begin + dynamic_capacity_, dynamic_usable_, -1});
  }
  shared_lo_ = shared_span_ = 0;
  if (!regions_.empty()) {
    std::uintptr_t lo = regions_[0].begin, hi = regions_[0].end;
    for (const Region& r : regions_) {
      lo = r.begin < lo ? r.begin : lo;
      hi = r.end > hi ? r.end : hi;
    }
    shared_lo_ = lo & ~std::uintptr_t{3};
    shared_span_ = hi - shared_lo_;
  }
  if (plan.kernel->instrumented && shared_span_ > 0) {
    std::size_t words = shared_span_ / 4 + 1;
    shadow_.assign(words);
    writer_site_.assign(words);
    reader_site_.assign(words);
    written_.assign(words);
    settled_.assign(words);
    in_flight_.assign(words);
    proxy_.assign(words);
  }
  fast_path.shared_lo = shared_lo_;
  const bool tail = plan.kernel->dynamic_shared && dynamic_usable_ < dynamic_capacity_;
  fast_path.dynamic_tail_lo = tail ? dynamic_begin_ + dynamic_usable_ : 0;
  fast_path.dynamic_tail_span = tail ? dynamic_capacity_ - dynamic_usable_ : 0;
  // Without a shadow (a kernel built without instrumentation) nothing calls the callbacks.
  fast_path.shared_span = shadow_.empty() ? 0 : shared_span_;
  fast_path.shadow = shadow_.data();
  fast_path.writer_site = writer_site_.data();
  fast_path.reader_site = reader_site_.data();
  fast_path.written = written_.data();
  fast_path.settled = settled_.data();
  fast_path.proxy = proxy_.data();
  fast_path.epoch = epoch_;
  fast_path.every_word_settled = 0;  // another launch's epoch may have had this one's number
  fast_path.arena_base = arena_->base();
  fast_path.arena_span = arena_->span();
  fast_path.buffer_begin = arena_->buffer_begins();
  fast_path.buffer_end = arena_->buffer_ends();
  fast_path.callbacks_only = !inline_checks_wanted;
  refresh_fast_path();
}

void AccessChecks::new_block() {
  for (const Region& r : regions_) std::memset(reinterpret_cast<void*>(r.begin), kSharedPoison, r.usable);
  std::fill(written_.begin(), written_.end(), 0);
  async_.clear();
  proxy_reported_.clear();
  accumulators_watched_ = false;
  fast_path.epoch = ++epoch_;
  fast_path.every_word_settled = 0;
  if (in_flight_words_) {
    std::fill(in_flight_.begin(), in_flight_.end(), InFlight{});
    in_flight_words_ = 0;
  }
  sources_.clear();
  async_sources_ = 0;
  refresh_fast_path();
}

bool AccessChecks::settle_for_reads(std::size_t most_words) {
  const std::size_t words = settled_.size();
  if (words == 0 || words > most_words) return false;
  if (fast_path.full_checks_only || fast_path.callbacks_only || fast_path.profile != nullptr) return false;
  // The dynamic shared memory past what the launch asked for is never settled (its reads are out
  // of bounds): this path is for kernels without such a tail.
  if (fast_path.dynamic_tail_span != 0) return false;
  const std::uint64_t every_reader = settled_tag(epoch_, kAnyReader);
  std::uint64_t* settled = settled_.data();
  const std::uint8_t* written = written_.data();
  // The words an aligned 4-byte read inside shared memory can reach: the shadow has one more.
  const std::size_t reachable = (shared_span_ - 1) / 4 + 1;
  std::size_t left_unsettled = 0;
  // Without a branch per word, so that the compiler makes it a few words per instruction.
  for (std::size_t i = 0; i < words; ++i) {
    const bool settles = (written[i] & kAllBytesWritten) == kAllBytesWritten || (written[i] & kUnwrittenReported) != 0;
    settled[i] = settles ? every_reader : settled[i];
    left_unsettled += !settles & (i < reachable);
  }
  fast_path.every_word_settled = left_unsettled == 0 ? every_reader : 0;
  refresh_settled_tags(fast_path);  // the epoch's first thread may keep the last one's (Worker::become)
  return true;
}

void AccessChecks::fill_site(RawFinding& f, Site site, bool other) const {
  if (site & kLineSite) {
    (other ? f.other_line : f.line) = site_line(site);
    (other ? f.other_file : f.file) = site_file(site);
  } else {
    (other ? f.other_pc : f.pc) = site;
  }
}

const AccessChecks::Region* AccessChecks::region_of(std::uintptr_t address) const {
  for (const Region& r : regions_)
    if (address >= r.begin && address < r.end) return &r;
  return nullptr;
}

void AccessChecks::fill_shared_place(RawFinding& f, std::uintptr_t a, unsigned size) const {
  const Region* r = region_of(a);
  f.is_shared = 1;
  f.slot = r ? r->variable : -1;
  f.byte_offset = r ? static_cast<std::int64_t>(a - r->begin) : 0;
  f.access_size = size;
}

void AccessChecks::shared_access(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t,
                                 bool shaped) {
  if (shaped && (size == 8 || size == 16) && (a & (size - 1))) misaligned(a, size, write, site, t, true);
  if (a - dynamic_begin_ < dynamic_capacity_ && a + size > dynamic_begin_ + dynamic_usable_) {
    if (const Region* r = region_of(a)) shared_out_of_bounds(*r, a, size, write, site, t);
  }
  if (shadow_.empty()) return;
  check_range(a, size, write, site, t);
}

void AccessChecks::check_range(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t) {
  std::size_t first = (a - shared_lo_) >> 2, last = (a + size - 1 - shared_lo_) >> 2;
  unsettle(first, last);
  if (!async_.empty())
    for (std::size_t i = first; i <= last; ++i) async_access(i, a, size, write, site, t);
  if (write)
    for (std::size_t i = first; i <= last; ++i) proxy_[i] = ProxyWrite{t.proxy_fences, id_of(t), 0, site};
  for (std::size_t i = first; i <= last; ++i) {
    // The bytes of word i this access covers.
    std::uintptr_t word = shared_lo_ + 4 * i;
    std::uintptr_t from = a > word ? a : word, to = a + size < word + 4 ? a + size : word + 4;
    unsigned mask = ((1u << (to - from)) - 1u) << (from - word);
    if (mask == 0xFu && !(shadow_[i].epoch == epoch_ && shadow_[i].readers.word_by_bytes))
      check_word(i, a, size, write, site, t);
    else
      check_bytes(i, mask, a, size, write, site, t);
  }
}

// The same rules as check_word, byte by byte: accesses to different bytes of one word by
// different threads do not conflict.
void AccessChecks::check_bytes(std::size_t i, unsigned mask, std::uintptr_t a, unsigned size, bool write, Site site,
                               CudaThread& t) {
  // An access to a copy still in flight is that finding, and not also a race with its issuer.
  if (in_flight_words_ && in_flight_[i].issuer) return report_in_flight(i, a, size, write, site, t);
  if (bytes_.empty()) bytes_.resize(shadow_.size());
  Word& w = shadow_[i];
  ByteWord& b = bytes_[i];
  const std::uint16_t me = id_of(t);
  if (w.epoch != epoch_) {
    w = Word{};
    w.epoch = epoch_;
  }
  if (!w.readers.word_by_bytes) {
    // What the word saw as a whole so far now holds for each of its bytes.
    w.readers.word_by_bytes = 1;
    SharedReaders readers = w.readers;
    readers.word_reported = readers.word_by_bytes = 0;
    for (int k = 0; k < 4; ++k) {
      b.writer[k] = w.writer, b.writer_sync[k] = w.writer_sync, b.writer_site[k] = writer_site_[i];
      b.readers[k] = readers, b.reader_site[k] = reader_site_[i];
    }
  }
  auto sync = static_cast<std::uint16_t>(worker_->warp_syncs(t.warp));
  if (write) written_[i] |= static_cast<std::uint8_t>(mask);
  else if ((written_[i] & mask) != mask) report_unwritten(i, a, size, site, t);
  for (int k = 0; k < 4; ++k) {
    if (!((mask >> k) & 1u)) continue;
    std::uintptr_t byte_address = shared_lo_ + 4 * i + static_cast<unsigned>(k);
    if (!w.readers.word_reported && b.writer[k] != 0 && b.writer[k] != me && !ordered(b.writer[k], b.writer_sync[k], t)) {
      w.readers.word_reported = 1;
      report_race(byte_address, size, write, site, t, b.writer[k], true, b.writer_site[k]);
    }
    if (write) {
      std::uint16_t other = b.readers[k].unordered_with(me, sync);
      if (!w.readers.word_reported && other != 0) {
        w.readers.word_reported = 1;
        report_race(byte_address, size, true, site, t, other, false, b.reader_site[k]);
      }
      b.writer[k] = me, b.writer_sync[k] = sync, b.writer_site[k] = site;
    } else {
      if (b.readers[k].first == 0) b.reader_site[k] = site;
      b.readers[k].note(me, sync);
    }
  }
}

// Two accesses by threads of one warp are ordered when a __syncwarp() of that warp came
// between them.
bool AccessChecks::ordered(std::uint16_t other, std::uint16_t other_sync, const CudaThread& t) const {
  return SharedReaders::warp_of(other) == t.warp && worker_->warp_syncs(t.warp) != other_sync;
}

void AccessChecks::check_word(std::size_t i, std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t) {
  if (in_flight_words_ && in_flight_[i].issuer) return report_in_flight(i, a, size, write, site, t);
  Word& w = shadow_[i];
  const std::uint16_t me = id_of(t);
  if (w.epoch != epoch_) {
    w = Word{};
    w.epoch = epoch_;
  }
  auto sync = static_cast<std::uint16_t>(worker_->warp_syncs(t.warp));
  if (!write) {
    if ((written_[i] & kAllBytesWritten) != kAllBytesWritten) report_unwritten(i, a, size, site, t);
    if (w.writer != 0 && w.writer != me && !w.readers.word_reported && !ordered(w.writer, w.writer_sync, t)) {
      w.readers.word_reported = 1;  // one finding per word between two barriers
      report_race(a, size, false, site, t, w.writer, true, writer_site_[i]);
    }
    if (w.readers.first == 0) reader_site_[i] = site;
    w.readers.note(me, sync);
    return;
  }
  if (!w.readers.word_reported) {
    if (w.writer != 0 && w.writer != me && !ordered(w.writer, w.writer_sync, t)) {
      w.readers.word_reported = 1;
      report_race(a, size, true, site, t, w.writer, true, writer_site_[i]);
    } else if (std::uint16_t other = w.readers.unordered_with(me, sync)) {
      w.readers.word_reported = 1;
      report_race(a, size, true, site, t, other, false, reader_site_[i]);
    }
  }
  w.writer = me;
  w.writer_sync = sync;
  writer_site_[i] = site;
  written_[i] |= kAllBytesWritten;
}

void AccessChecks::atomic_access(std::uintptr_t a, unsigned size, Site site, CudaThread& t) {
  if (a - shared_lo_ < shared_span_) {
    if ((size == 8 || size == 16) && (a & (size - 1))) misaligned(a, size, true, site, t, true);
    if (a - dynamic_begin_ < dynamic_capacity_ && a + size > dynamic_begin_ + dynamic_usable_)
      if (const Region* r = region_of(a)) shared_out_of_bounds(*r, a, size, true, site, t);
    return;  // atomics never race with each other
  }
  if (a - arena_->base() < arena_->span() && !arena_->inside_buffer(a, size)) out_of_bounds(a, size, true, site, t);
}

void AccessChecks::out_of_bounds(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t) {
  const DeviceArena::Buffer& b = arena_->slot_of(a);
  RawFinding f{};
  f.kind = FindingKind::out_of_bounds;
  f.block = worker_->current_block();
  f.thread = t.linear;
  f.is_write = write;
  f.slot = arena_->slot_index(a);
  f.byte_offset = static_cast<std::int64_t>(a) - static_cast<std::int64_t>(b.begin);
  f.access_size = size;
  fill_site(f, site, false);
  plan_->report->add(f, worker_->index());
  throw ThreadAborted{};  // never let the access happen
}

void AccessChecks::shared_out_of_bounds(const Region& r, std::uintptr_t a, unsigned size, bool write, Site site,
                                        CudaThread& t) {
  RawFinding f{};
  f.kind = FindingKind::shared_out_of_bounds;
  f.block = worker_->current_block();
  f.thread = t.linear;
  f.is_write = write;
  f.is_shared = 1;
  f.slot = r.variable;
  f.byte_offset = static_cast<std::int64_t>(a - r.begin);
  f.access_size = size;
  fill_site(f, site, false);
  plan_->report->add(f, worker_->index());
  throw ThreadAborted{};
}

void AccessChecks::misaligned(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t, bool shared) {
  RawFinding f{};
  f.kind = FindingKind::misaligned;
  f.block = worker_->current_block();
  f.thread = t.linear;
  f.is_write = write;
  if (shared) {
    fill_shared_place(f, a, size);
  } else {
    const DeviceArena::Buffer& b = arena_->slot_of(a);
    f.slot = arena_->slot_index(a);
    f.byte_offset = static_cast<std::int64_t>(a) - static_cast<std::int64_t>(b.begin);
    f.access_size = size;
  }
  fill_site(f, site, false);
  plan_->report->add(f, worker_->index());
  throw ThreadAborted{};  // the GPU stops with "misaligned address"
}

void AccessChecks::report_race(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t,
                               std::uint16_t other, bool other_write, Site other_site) {
  RawFinding f{};
  f.kind = FindingKind::shared_race;
  f.block = worker_->current_block();
  f.thread = t.linear;
  f.is_write = write;
  fill_shared_place(f, size < 4 ? a : a & ~std::uintptr_t{3}, size < 4 ? size : 4);
  fill_site(f, site, false);
  f.other_thread = other - 1u;
  f.other_is_write = other_write;
  fill_site(f, other_site, true);
  plan_->report->add(f, worker_->index());
}

// A read of shared memory that no thread of the block has written since the block started:
// on a GPU it holds what an earlier block left there (here, the poison bytes). Reported once
// per word.
void AccessChecks::report_unwritten(std::size_t i, std::uintptr_t a, unsigned size, Site site, CudaThread& t) {
  if (written_[i] & kUnwrittenReported) return;
  written_[i] |= kUnwrittenReported;
  RawFinding f{};
  f.kind = FindingKind::uninitialized_shared;
  f.block = worker_->current_block();
  f.thread = t.linear;
  fill_shared_place(f, shared_lo_ + i * 4 > a ? shared_lo_ + i * 4 : a, size);
  fill_site(f, site, false);
  plan_->report->add(f, worker_->index());
}

void AccessChecks::report_in_flight(std::size_t i, std::uintptr_t a, unsigned size, bool write, Site site,
                                    CudaThread& t) {
  InFlight& w = in_flight_[i];
  if (w.reported) return;
  w.reported = 1;
  RawFinding f{};
  f.kind = FindingKind::async_copy;
  f.block = worker_->current_block();
  f.thread = t.linear;
  f.is_write = write;
  f.op = write ? "written" : "read";
  fill_shared_place(f, shared_lo_ + i * 4 > a ? shared_lo_ + i * 4 : a, size);
  fill_site(f, site, false);
  f.other_thread = w.issuer - 1u;
  fill_site(f, w.site, true);
  plan_->report->add(f, worker_->index());
}

void AccessChecks::copy_issued(const PendingCopy& c, CudaThread& t) {
  Site site = c.site ? c.site : site_of(c.line, c.file);
  // The source is read now (global memory), the destination written later (shared).
  if (c.size > c.zero_fill) on_access(c.src, static_cast<unsigned>(c.size - c.zero_fill), false, site, t, false);
  if (c.dst - shared_lo_ >= shared_span_) {
    RawFinding f{};
    f.kind = FindingKind::warp_misuse;  // an argument CUDA does not allow
    f.block = worker_->current_block();
    f.thread = t.linear;
    f.op = "__pipeline_memcpy_async";
    f.line = c.line;
    f.file = c.file;
    std::snprintf(f.detail, sizeof f.detail, "its destination is not in shared memory");
    worker_->stop_grid_with(f);
  }
  if (shadow_.empty()) return;
  // The copy may land at any moment from now on: its destination is written now, as far as
  // other threads' earlier accesses are concerned (a warp still reading the stage that this
  // copy refills is a race, even though the bytes arrive later).
  check_range(c.dst, static_cast<unsigned>(c.size), true, site, t);
  for (std::uintptr_t a = c.dst & ~std::uintptr_t{3}; a < c.dst + c.size; a += 4) {
    InFlight& w = in_flight_[(a - shared_lo_) >> 2];
    w.issuer = id_of(t);
    w.site = site;
    w.reported = 0;
    ++in_flight_words_;
  }
  sources_.push_back({c.src, c.src + c.size - c.zero_fill, id_of(t), site});
  ++async_sources_;
  refresh_fast_path();
}

void AccessChecks::copy_landed(const PendingCopy& c, CudaThread&) {
  // The engine's own write: not checked as the kernel's (the wait records it).
  std::memcpy(reinterpret_cast<void*>(c.dst), c.data, c.size - c.zero_fill);
  std::memset(reinterpret_cast<void*>(c.dst + c.size - c.zero_fill), 0, c.zero_fill);
}

void AccessChecks::copy_waited(const PendingCopy& c, CudaThread& t) {
  if (!shadow_.empty()) {
    for (std::uintptr_t a = c.dst & ~std::uintptr_t{3}; a < c.dst + c.size; a += 4) {
      InFlight& w = in_flight_[(a - shared_lo_) >> 2];
      if (w.issuer) --in_flight_words_;
      w = InFlight{};
    }
  }
  // From now on the copy counts as this thread's write: others need a barrier to read it.
  if (!shadow_.empty()) {
    check_range(c.dst, static_cast<unsigned>(c.size), true, c.site ? c.site : site_of(c.line, c.file), t);
  }
  for (std::size_t s = 0; s < sources_.size(); ++s)
    if (sources_[s].issuer == id_of(t) && sources_[s].begin == c.src) {
      sources_.erase(sources_.begin() + static_cast<std::ptrdiff_t>(s));
      --async_sources_;
      break;
    }
  refresh_fast_path();
}

void AccessChecks::source_write(std::uintptr_t a, unsigned size, Site site, CudaThread& t) {
  for (const SourceRange& s : sources_) {
    if (a + size <= s.begin || a >= s.end) continue;
    RawFinding f{};
    f.kind = FindingKind::async_copy;
    f.block = worker_->current_block();
    f.thread = t.linear;
    f.is_write = true;
    f.op = "source written";
    const DeviceArena::Buffer& b = arena_->slot_of(a);
    f.slot = arena_->slot_index(a);
    f.byte_offset = static_cast<std::int64_t>(a) - static_cast<std::int64_t>(b.begin);
    f.access_size = size;
    fill_site(f, site, false);
    f.other_thread = s.issuer - 1u;
    fill_site(f, s.site, true);
    plan_->report->add(f, worker_->index());
    return;
  }
}

// --- The asynchronous units -----------------------------------------------------------------

void AccessChecks::async_finding(Finding::AsyncUse use, std::uintptr_t a, unsigned size, bool write, Site site,
                                 CudaThread& t, unsigned other_thread, Site other_site, unsigned swizzle_written,
                                 unsigned swizzle_read, bool stop) {
  RawFinding f{};
  f.kind = FindingKind::async_proxy;
  f.block = worker_->current_block();
  f.thread = t.linear;
  f.is_write = write;
  f.async_use = static_cast<std::uint32_t>(use);
  f.swizzle_written = swizzle_written;
  f.swizzle_read = swizzle_read;
  fill_shared_place(f, a, size < 4 ? size : 4);
  fill_site(f, site, false);
  f.other_thread = other_thread;
  if (other_site) fill_site(f, other_site, true);
  if (stop) {
    worker_->stop_grid_with(f);  // the data would be garbage from here on
  }
  plan_->report->add(f, worker_->index());  // a race: reported, and the thread goes on
}

// A thread's own load or store of a word an asynchronous unit touches.
void AccessChecks::async_access(std::size_t i, std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t) {
  if (i >= async_.size()) return;
  AsyncTag& tag = async_[i];
  std::uintptr_t word = shared_lo_ + 4 * i;
  std::uintptr_t at = word > a ? word : a;
  // Each finding once per word: the tag that made it is dropped.
  bool unseen_phase = false;
  if (tag.tma_barrier && !tag.tma_pending && !write) {
    const auto& seen = worker_->sync().observed[t.linear];
    unsigned b = tag.tma_barrier - 1u;
    unseen_phase = b >= seen.size() || seen[b] < tag.tma_phase;
  }
  if (tag.tma_pending || unseen_phase) {
    async_finding(Finding::AsyncUse::tma_write_pending, at, size, write, site, t, tag.tma_issuer - 1u, tag.site);
    tag.tma_barrier = 0;
    tag.tma_pending = 0;
  }
  if (write && tag.wgmma_warpgroup &&
      tag.wgmma_group >= worker_->sync().retired_known_to(t.linear, tag.wgmma_warpgroup - 1u)) {
    async_finding(Finding::AsyncUse::wgmma_reading, at, size, write, site, t, (tag.wgmma_warpgroup - 1u) * 128,
                  tag.wgmma_site);
    tag.wgmma_warpgroup = 0;
  }
  if (write && tag.bulk_thread && tag.bulk_group >= worker_->sync().bulk_retired[tag.bulk_thread - 1u]) {
    async_finding(Finding::AsyncUse::bulk_store_reading, at, size, write, site, t, tag.bulk_thread - 1u, tag.site);
    tag.bulk_thread = 0;
  }
  if (write) tag = AsyncTag{};  // a thread's own data from now on
}

void AccessChecks::tma_issued(std::uintptr_t a, unsigned size, unsigned barrier_number, std::uint32_t phase,
                              unsigned swizzle_bytes, Site site, CudaThread& issuer, bool issuer_here) {
  if (shadow_.empty()) return;
  if (async_.empty()) async_.resize(shadow_.size());
  std::size_t first = (a - shared_lo_) >> 2, last = (a + size - 1 - shared_lo_) >> 2;
  for (std::size_t i = first; i <= last && i < async_.size(); ++i) {
    AsyncTag& tag = async_[i];
    std::uintptr_t word = shared_lo_ + 4 * i;
    // The copy may land from now on: an earlier read by a wgmma still in flight, or by a
    // bulk store not waited for, loses its data.
    if (issuer_here && tag.wgmma_warpgroup &&
        tag.wgmma_group >= worker_->sync().retired_known_to(issuer.linear, tag.wgmma_warpgroup - 1u))
      async_finding(Finding::AsyncUse::wgmma_reading, word, 4, true, site, issuer, (tag.wgmma_warpgroup - 1u) * 128,
                    tag.wgmma_site);
    tag = AsyncTag{};
    tag.tma_barrier = static_cast<std::uint16_t>(barrier_number + 1);
    tag.tma_pending = 1;
    tag.swizzle = static_cast<std::uint8_t>(swizzle_bytes / 16);
    tag.tma_phase = phase;
    tag.tma_issuer = static_cast<std::uint16_t>(issuer.linear + 1);
    tag.site = site;
  }
  refresh_fast_path();
  require_full_checks();
}

void AccessChecks::tma_landed(std::uintptr_t a, unsigned size) {
  if (async_.empty()) return;
  std::size_t first = (a - shared_lo_) >> 2, last = (a + size - 1 - shared_lo_) >> 2;
  for (std::size_t i = first; i <= last && i < async_.size(); ++i) {
    async_[i].tma_pending = 0;
    written_[i] |= kAllBytesWritten;
    proxy_[i] = ProxyWrite{};  // the async proxy's own write
    shadow_[i] = Word{};  // no thread wrote it: the mbarrier orders it for those who wait
  }
  unsettle(first, last);
}

void AccessChecks::written_from_other_cta(std::uintptr_t a, unsigned size) {
  if (shadow_.empty()) return;
  std::size_t first = (a - shared_lo_) >> 2, last = (a + size - 1 - shared_lo_) >> 2;
  for (std::size_t i = first; i <= last && i < shadow_.size(); ++i) {
    written_[i] |= kAllBytesWritten;
    shadow_[i] = Word{};
    proxy_[i] = ProxyWrite{};  // another CTA's thread: its fences are not followed here
  }
  unsettle(first, last);
}

void AccessChecks::wgmma_reads(std::uintptr_t a, unsigned size, unsigned warpgroup, std::uint32_t group, Site site) {
  if (shadow_.empty()) return;
  if (async_.empty()) async_.resize(shadow_.size());
  std::size_t first = (a - shared_lo_) >> 2, last = (a + size - 1 - shared_lo_) >> 2;
  for (std::size_t i = first; i <= last && i < async_.size(); ++i) {
    async_[i].wgmma_warpgroup = static_cast<std::uint16_t>(warpgroup + 1);
    async_[i].wgmma_group = group;
    async_[i].wgmma_site = site;
  }
  require_full_checks();
}

void AccessChecks::bulk_reads(std::uintptr_t a, unsigned size, unsigned thread, std::uint32_t group, Site site) {
  if (shadow_.empty()) return;
  if (async_.empty()) async_.resize(shadow_.size());
  std::size_t first = (a - shared_lo_) >> 2, last = (a + size - 1 - shared_lo_) >> 2;
  for (std::size_t i = first; i <= last && i < async_.size(); ++i) {
    async_[i].bulk_thread = static_cast<std::uint16_t>(thread + 1);
    async_[i].bulk_group = group;
    if (!async_[i].tma_barrier) async_[i].site = site;
  }
  require_full_checks();
}

bool AccessChecks::async_read(std::uintptr_t a, unsigned size, unsigned swizzle_bytes, Site site, CudaThread& t) {
  if (shadow_.empty()) return true;
  std::size_t first = (a - shared_lo_) >> 2, last = (a + size - 1 - shared_lo_) >> 2;
  for (std::size_t i = first; i <= last; ++i) {
    std::uintptr_t word = shared_lo_ + 4 * i;
    std::uintptr_t at = word > a ? word : a;
    if (!async_.empty() && i < async_.size()) {
      AsyncTag& tag = async_[i];
      bool unseen_phase = false;
      if (tag.tma_barrier && !tag.tma_pending) {
        const auto& seen = worker_->sync().observed[t.linear];
        unsigned b = tag.tma_barrier - 1u;
        unseen_phase = b >= seen.size() || seen[b] < tag.tma_phase;
      }
      if (tag.tma_pending || unseen_phase) {
        async_finding(Finding::AsyncUse::tma_write_pending, at, size, false, site, t, tag.tma_issuer - 1u, tag.site);
        tag.tma_barrier = 0;
        tag.tma_pending = 0;
      }
      if (tag.tma_barrier && tag.swizzle * 16u != swizzle_bytes)
        async_finding(Finding::AsyncUse::swizzle_mismatch, at, size, false, site, t, tag.tma_issuer - 1u, tag.site,
                      tag.swizzle * 16u, swizzle_bytes, true);
    }
    // Bytes no thread (and no copy) wrote since the block started.
    if ((written_[i] & kAllBytesWritten) != kAllBytesWritten) {
      report_unwritten(i, at, size, site, t);
      return false;
    }
  }
  return true;
}

// --- The async proxy's rules ------------------------------------------------------------------

void AccessChecks::proxy_read(std::uintptr_t a, unsigned size, Finding::ProxyReader reader, Site site,
                              CudaThread& t) {
  if (proxy_.empty()) return;
  std::size_t first = (a - shared_lo_) >> 2, last = (a + size - 1 - shared_lo_) >> 2;
  for (std::size_t i = first; i <= last && i < proxy_.size(); ++i) {
    ProxyWrite& w = proxy_[i];
    if (w.writer == 0 || worker_->thread(w.writer - 1u).proxy_fences != w.fences) continue;
    // Once per word and block: a loop that rewrites the buffer makes the same mistake again.
    if (proxy_reported_.empty()) proxy_reported_.assign(proxy_.size(), 0);
    if (proxy_reported_[i]) continue;
    proxy_reported_[i] = 1;
    RawFinding f{};
    f.kind = FindingKind::proxy_fence;
    f.block = worker_->current_block();
    f.thread = t.linear;
    f.proxy_reader = static_cast<std::uint32_t>(reader);
    std::uintptr_t word = shared_lo_ + 4 * i;
    fill_shared_place(f, word > a ? word : a, size < 4 ? size : 4);
    fill_site(f, site, false);
    f.other_thread = w.writer - 1u;
    f.other_is_write = 1;
    fill_site(f, w.site, true);
    plan_->report->add(f, worker_->index());
  }
}

void AccessChecks::accumulators_issued(CudaThread& t, std::uintptr_t begin, std::uintptr_t end, std::uint32_t group,
                                       Site site) {
  // A chain of wgmmas on the same accumulators (PTX orders those): the newest group owns them.
  for (CudaThread::Accumulators& r : t.accumulators)
    if (r.begin == begin && r.end == end) {
      r.group = group;
      r.site = site;
      return;
    }
  t.accumulators.push_back({begin, end, group, site});
  accumulators_watched_ = true;
  require_full_checks();
}

void AccessChecks::accumulators_retired(CudaThread& t, std::uint32_t retired) {
  auto& list = t.accumulators;
  for (std::size_t i = list.size(); i-- > 0;)
    if (list[i].group < retired) list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
}

// A load or store of kernel code on the thread's stack while wgmmas own some of it: their
// accumulators may not be read or written until a wgmma.wait_group retires their group.
void AccessChecks::accumulator_access(std::uintptr_t a, unsigned size, bool write, Site site, CudaThread& t) {
  if (t.writing_outputs) return;  // the engine writes an asm statement's results back
  for (std::size_t i = 0; i < t.accumulators.size(); ++i) {
    const CudaThread::Accumulators& r = t.accumulators[i];
    if (a + size <= r.begin || a >= r.end) continue;
    RawFinding f{};
    f.kind = FindingKind::wgmma_accumulator;
    f.block = worker_->current_block();
    f.thread = t.linear;
    f.is_write = write;
    f.access_size = size;
    fill_site(f, site, false);
    f.other_thread = t.linear;
    fill_site(f, r.site, true);
    // Once per wgmma: the thread goes on with the values the engine wrote at the issue.
    t.accumulators.erase(t.accumulators.begin() + static_cast<std::ptrdiff_t>(i));
    plan_->report->add(f, worker_->index());
    return;
  }
}

}  // namespace engine::cpu

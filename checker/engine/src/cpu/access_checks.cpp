#include "access_checks.h"

#include <cstring>

#include "device_arena.h"
#include "worker.h"

namespace engine::cpu {
namespace {
constexpr unsigned char kSharedPoison = 0xFF;  // reads as NaN in a float
}  // namespace

void AccessChecks::prepare(const GridPlan& plan) {
  arena_ = &DeviceArena::instance();
  regions_.clear();
  has_dynamic_ = plan.kernel->dynamic_shared != nullptr;
  for (std::size_t i = 0; i < plan.shared.size(); ++i) {
    std::uintptr_t begin = SymbolTable::tls_address(plan.shared[i].tls_offset);
    regions_.push_back({begin, begin + plan.shared[i].size, plan.shared[i].size, static_cast<int>(i)});
  }
  if (plan.kernel->dynamic_shared) {
    auto begin = reinterpret_cast<std::uintptr_t>(plan.kernel->dynamic_shared());
    regions_.push_back({begin, begin + plan.kernel->dynamic_shared_capacity,
                        plan.config.dynamic_shared_bytes, -1});
  }
  if (regions_.empty()) return;
  std::uintptr_t lo = regions_[0].begin, hi = regions_[0].end;
  for (const Region& r : regions_) {
    lo = r.begin < lo ? r.begin : lo;
    hi = r.end > hi ? r.end : hi;
  }
  shared_lo_ = lo & ~std::uintptr_t{3};
  shared_span_ = hi - shared_lo_;
  if (plan.kernel->instrumented) shadow_.assign(shared_span_ / 4 + 1, Word{});
}

void AccessChecks::new_block() {
  for (const Region& r : regions_)
    std::memset(reinterpret_cast<void*>(r.begin), kSharedPoison, r.usable);
  ++epoch_;
}

const AccessChecks::Region* AccessChecks::region_of(std::uintptr_t address) const {
  for (const Region& r : regions_)
    if (address >= r.begin && address < r.end) return &r;
  return nullptr;
}

void AccessChecks::out_of_bounds(std::uintptr_t address, unsigned size, bool write, std::uintptr_t pc,
                                 Worker& worker) {
  const DeviceArena::Buffer& b = arena_->slot_of(address);
  RawFinding f{};
  f.kind = FindingKind::out_of_bounds;
  f.block = worker.current_block();
  f.thread = worker.current().linear;
  f.is_write = write;
  f.slot = arena_->slot_index(address);
  f.byte_offset = static_cast<std::int64_t>(address) - static_cast<std::int64_t>(b.begin);
  f.access_size = size;
  f.pc = pc;
  worker.plan().report->add(f);
  throw ThreadAborted{};  // never let the access happen
}

void AccessChecks::shared_access(std::uintptr_t address, unsigned size, bool write, bool atomic,
                                 std::uintptr_t pc, Worker& worker) {
  if (has_dynamic_) {
    const Region* region = region_of(address);
    if (region && address + size > region->begin + region->usable) {
    RawFinding f{};
    f.kind = FindingKind::shared_out_of_bounds;
    f.block = worker.current_block();
    f.thread = worker.current().linear;
    f.is_write = write;
    f.slot = region->variable;
    f.byte_offset = static_cast<std::int64_t>(address - region->begin);
    f.access_size = size;
    f.pc = pc;
    worker.plan().report->add(f);
    throw ThreadAborted{};
    }
  }
  if (atomic || shadow_.empty()) return;  // atomics never race with each other

  auto tid = static_cast<std::int32_t>(worker.current().linear);
  for (std::uintptr_t a = address & ~std::uintptr_t{3}; a < address + size; a += 4) {
    Word& w = shadow_[(a - shared_lo_) / 4];
    if (w.epoch != epoch_) w = Word{epoch_};
    std::int32_t other = -1;
    bool other_write = false;
    std::uintptr_t other_pc = 0;
    if (w.writer >= 0 && w.writer != tid) {
      other = w.writer, other_write = true, other_pc = w.writer_pc;
    } else if (write && w.reader >= 0 && w.reader != tid) {
      other = w.reader, other_pc = w.reader_pc;
    } else if (write && w.other_reader >= 0 && w.other_reader != tid) {
      other = w.other_reader, other_pc = w.reader_pc;
    }
    if (other >= 0 && !w.reported) {
      w.reported = true;  // one finding per element between two barriers
      if (const Region* region = region_of(a))
        report_race(*region, a, size, write, pc, other, other_write, other_pc, worker);
    }
    if (write) {
      w.writer = tid, w.writer_pc = pc;
    } else if (w.reader < 0) {
      w.reader = tid, w.reader_pc = pc;
    } else if (w.reader != tid && w.other_reader < 0) {
      w.other_reader = tid;
    }
  }
}

void AccessChecks::report_race(const Region& r, std::uintptr_t address, unsigned size, bool write,
                               std::uintptr_t pc, std::int32_t other, bool other_write,
                               std::uintptr_t other_pc, Worker& worker) {
  RawFinding f{};
  f.kind = FindingKind::shared_race;
  f.block = worker.current_block();
  f.thread = worker.current().linear;
  f.is_write = write;
  f.slot = r.variable;
  f.byte_offset = static_cast<std::int64_t>(address - r.begin);
  f.access_size = size < 4 ? size : 4;
  f.pc = pc;
  f.other_thread = static_cast<std::uint32_t>(other);
  f.other_is_write = other_write;
  f.other_pc = other_pc;
  worker.plan().report->add(f);
}

}  // namespace engine::cpu

// --- Entry points called from kernel code. ------------------------------------------------
namespace {
inline void check_access(const void* p, unsigned size, bool write, bool atomic, void* pc) {
  engine::cpu::Worker* w = engine::cpu::current_worker;
  if (w == nullptr || cuda_cpu_current_thread == nullptr) return;
  w->checks().on_access(reinterpret_cast<std::uintptr_t>(p), size, write, atomic,
                        reinterpret_cast<std::uintptr_t>(pc), *w, w->current().global_loads);
}
}  // namespace

#define ENGINE_ACCESS_HOOK(bytes, type)                                             \
  extern "C" void __sanitizer_cov_load##bytes(type* p) {                            \
    check_access(p, bytes, false, false, __builtin_return_address(0));              \
  }                                                                                 \
  extern "C" void __sanitizer_cov_store##bytes(type* p) {                           \
    check_access(p, bytes, true, false, __builtin_return_address(0));               \
  }
ENGINE_ACCESS_HOOK(1, std::uint8_t)
ENGINE_ACCESS_HOOK(2, std::uint16_t)
ENGINE_ACCESS_HOOK(4, std::uint32_t)
ENGINE_ACCESS_HOOK(8, std::uint64_t)
ENGINE_ACCESS_HOOK(16, __int128)

void cuda_cpu::note_atomic(const void* address, unsigned size) {
  check_access(address, size, true, true, __builtin_return_address(0));
}

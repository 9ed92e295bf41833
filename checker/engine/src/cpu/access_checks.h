// Checks on every load and store of an instrumented kernel (clang's SanitizerCoverage
// calls the engine before each one): global accesses must fall inside a buffer and are
// counted per thread; shared accesses are checked for races between barriers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "device_arena.h"
#include "grid_plan.h"

namespace engine::cpu {

class Worker;

class AccessChecks {
 public:
  // On the worker's own OS thread: shared-variable addresses are per thread.
  void prepare(const GridPlan& plan);
  void new_block();  // poisons shared memory, as a GPU leaves it uninitialised
  void next_epoch() { ++epoch_; }

  // Called before every load and store of kernel code: keep it short.
  void on_access(std::uintptr_t address, unsigned size, bool write, bool atomic, std::uintptr_t pc,
                 Worker& worker, std::uint64_t& global_loads) {
    if (arena_->contains(address)) {
      if (arena_->inside_buffer(address, size)) {
        global_loads += write ? 0 : 1;
        return;
      }
      out_of_bounds(address, size, write, pc, worker);
    } else if (address - shared_lo_ < shared_span_) {
      shared_access(address, size, write, atomic, pc, worker);
    }
    // Anything else is the thread's own stack or the program's data: not device memory.
  }

 private:
  struct Region {
    std::uintptr_t begin, end;
    std::size_t usable;  // dynamic shared memory: what the launch asked for
    int variable;        // index into GridPlan::shared, or -1 for dynamic shared memory
  };
  struct Word {  // what happened to one 4-byte shared word since the last barrier
    std::uint32_t epoch = 0;
    std::int32_t writer = -1, reader = -1, other_reader = -1;
    std::uintptr_t writer_pc = 0, reader_pc = 0;
    bool reported = false;
  };

  [[noreturn]] void out_of_bounds(std::uintptr_t address, unsigned size, bool write, std::uintptr_t pc,
                                  Worker& worker);
  const Region* region_of(std::uintptr_t address) const;
  void shared_access(std::uintptr_t address, unsigned size, bool write, bool atomic,
                     std::uintptr_t pc, Worker& worker);
  void report_race(const Region& r, std::uintptr_t address, unsigned size, bool write,
                   std::uintptr_t pc, std::int32_t other, bool other_write,
                   std::uintptr_t other_pc, Worker& worker);

  const DeviceArena* arena_ = nullptr;
  std::vector<Region> regions_;
  bool has_dynamic_ = false;
  std::uintptr_t shared_lo_ = 0, shared_span_ = 0;
  std::vector<Word> shadow_;
  std::uint32_t epoch_ = 1;
};

}  // namespace engine::cpu

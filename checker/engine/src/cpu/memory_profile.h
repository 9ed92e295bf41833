// What the hardware would make of a kernel's memory accesses, per source location: the
// CPU backend logs every access of every thread between two barriers, groups them per warp
// instruction (the i-th access of each lane at the same location) and computes, for shared
// memory, the bank conflicts of each request, and for global memory, the 32-byte sectors it
// touches. docs/dev/profile.md explains the model and how it compares with Nsight Compute.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "engine/findings.h"

namespace engine::cpu {

struct LaunchReport;

class MemoryProfile {
 public:
  struct Entry {
    std::uintptr_t site;  // a code address (or a line site, see access_checks.h)
    std::uintptr_t address;
    std::uint16_t size;
    std::uint8_t write, shared;
  };

  void prepare(unsigned threads);
  void record(unsigned thread, std::uintptr_t site, std::uintptr_t address, unsigned size, bool write, bool shared) {
    std::vector<Entry>& log = logs_[thread];
    if (log.size() < kMaxEntriesPerThread) log.push_back({site, address, static_cast<std::uint16_t>(size), write, shared});
    else truncated_ = true;
  }
  // Groups the logged accesses of every warp into requests; at each barrier and block end.
  void end_phase(unsigned threads);
  // Adds this worker's counts to the launch's report (under its lock).
  void fold_into(LaunchReport& report) const;

  // The hardware's model, exposed for the tests: one warp request's lanes.
  struct Lane {
    bool active = false;
    std::uintptr_t address = 0;
    unsigned size = 0;
  };
  struct SharedCost {
    unsigned wavefronts = 0, ideal = 0;  // as Nsight Compute's l1 shared wavefronts and their ideal
    unsigned worst_ways = 0;             // the worst n-way bank conflict of any phase
  };
  static SharedCost shared_request(const Lane (&lanes)[32], bool write);
  struct GlobalCost {
    unsigned sectors = 0, ideal = 0;  // 32-byte sectors touched, and the fewest the bytes need
  };
  static GlobalCost global_request(const Lane (&lanes)[32]);

 private:
  static constexpr std::size_t kMaxEntriesPerThread = 1 << 16;
  void add_request(const Entry& first, const Lane (&lanes)[32]);

  std::vector<std::vector<Entry>> logs_;
  std::unordered_map<std::uintptr_t, AccessProfile> lines_;  // keyed by site and kind
  bool truncated_ = false;
};

}  // namespace engine::cpu

// "Device" memory for the CPU backend. Each buffer lives alone in a 4 GiB slot of one big
// reserved address range, with no access everywhere around it: an index that runs past a
// buffer lands in its own slot, so the engine can say which buffer and which element,
// and a wild write faults instead of corrupting anything. Buffers are shared mappings, so
// a kernel run in a child process (see isolated_launch.h) writes straight into them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/backend.h"
#include "fast_path.h"

namespace engine::cpu {

// A buffer the arena cannot give, for a limit of its own (a GPU's only limit is its memory): the
// limit as facts, for the runtime to pass on (cuda_cpu::AllocationRefusal), and in words.
class BufferRefused : public Error {
 public:
  enum class Limit { buffer_size, buffer_count, host_memory };
  BufferRefused(Limit limit, std::uint64_t most, const std::string& words) : Error(words), limit(limit), most(most) {}
  Limit limit;
  std::uint64_t most;  // bytes a buffer, buffers at once, or 0 (host memory)
};

class DeviceArena {
 public:
  static constexpr unsigned kSlotBits = kArenaSlotBits;
  // 4096 slots reserve 16 TiB of addresses (a 47-bit address space holds 128 TiB): programs keep
  // a buffer per row, per object or per layer, and a GPU holds as many as fit its memory.
  static constexpr std::size_t kSlots = 4096;
  static constexpr std::uintptr_t kSlotSize = std::uintptr_t{1} << kSlotBits;
  static constexpr unsigned char kCanaryByte = 0xFE;  // -1.7e38 as a float: obviously garbage

  struct Buffer {
    std::uintptr_t begin = 0, end = 0;  // what the program asked for
    std::uintptr_t map_begin = 0, map_end = 0;  // whole pages mapped around it
    std::size_t element_size = 4;
    std::string name;
    bool live = false;
  };

  static DeviceArena& instance();

  void* allocate(std::size_t bytes, std::size_t element_size, const std::string& name);
  void release(void* p);

  bool contains(std::uintptr_t address) const { return address - base_ < span(); }
  // The bytes of the live buffers, as the program asked for them.
  std::uint64_t live_bytes() const;
  std::uintptr_t base() const { return base_; }
  std::uintptr_t span() const { return slot_count_ * kSlotSize; }
  const std::uintptr_t* buffer_begins() const { return begin_; }
  const std::uintptr_t* buffer_ends() const { return end_; }
  // The buffer whose slot holds `address` (live or not); the arena must contain it.
  const Buffer& slot_of(std::uintptr_t address) const {
    return slots_[(address - base_) >> kSlotBits];
  }
  int slot_index(std::uintptr_t address) const {
    return static_cast<int>((address - base_) >> kSlotBits);
  }
  const Buffer& slot(int index) const { return slots_[index]; }
  // The hot path of the access checks: is [address, address + size) inside a live buffer?
  bool inside_buffer(std::uintptr_t address, unsigned size) const {
    std::size_t i = (address - base_) >> kSlotBits;
    return address >= begin_[i] && address + size <= end_[i];
  }

  // The mapped bytes around each live buffer that are not part of it hold canaries; a
  // write there is out of bounds. Returns the first damaged address of each buffer.
  struct Damage {
    int slot;
    std::uintptr_t address;
  };
  std::vector<Damage> damaged_canaries() const;

 private:
  DeviceArena();
  std::uintptr_t base_ = 0;
  std::size_t slot_count_ = 0;  // reserved: kSlots, or fewer (see the constructor)
  Buffer slots_[kSlots];
  std::uintptr_t begin_[kSlots] = {}, end_[kSlots] = {};  // 0, 0 for a free slot
};

}  // namespace engine::cpu

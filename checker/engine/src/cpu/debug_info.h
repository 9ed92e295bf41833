// The program's own debug information (DWARF, read with libdw), opened once per process:
// the CPU backend turns code addresses into source lines with it, and reads the kernels'
// __shared__ variables from it.
#pragma once

#include <elfutils/libdw.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "engine/findings.h"

namespace engine::cpu {

class DebugInfo {
 public:
  static DebugInfo& self();

  // libdw's handle on /proc/self/exe, or null when the program has no debug information.
  // libdw handles are not shared between threads: callers hold lock() while they use it.
  Dwarf* dwarf() { return dwarf_; }
  std::mutex& lock() { return lock_; }

  // The compile unit whose code holds this file address, or false. Clang writes no
  // .debug_aranges index (what dwarf_addrdie reads), so the units' ranges are read once.
  bool unit_at(std::uint64_t file_address, Dwarf_Die* unit);

  // The source frames of a file address, innermost first, as `addr2line -i` prints them: the
  // line of the instruction, then the call site of each inlined function around it. Frames
  // with no line (line 0) are left out. Remembered per address. Takes lock() itself.
  std::vector<SourceLocation> frames_at(std::uint64_t file_address);

 private:
  DebugInfo();
  ~DebugInfo();
  DebugInfo(const DebugInfo&) = delete;
  DebugInfo& operator=(const DebugInfo&) = delete;
  void read_unit_ranges();

  int fd_ = -1;
  Dwarf* dwarf_ = nullptr;
  std::mutex lock_;
  bool ranges_read_ = false;
  // [low, high) of each unit's code, sorted by low, with the unit's DIE offset.
  struct Range {
    std::uint64_t low, high;
    Dwarf_Off unit;
  };
  std::vector<Range> ranges_;
  std::map<std::uint64_t, std::vector<SourceLocation>> frames_;
};

}  // namespace engine::cpu

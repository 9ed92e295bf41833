// --profile on the CPU backend, for kernels that use Hopper's asynchronous units: the tensor
// copies (TMA) per line and mbarrier, with the bytes each use of a stage received, and the
// warpgroup MMAs (wgmma) per warpgroup and line. From the engine's profile of one launch
// (engine::TensorCopyProfile, engine::WarpgroupMmaProfile).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/output.h"
#include "engine/findings.h"
#include "kernel_run.h"

namespace checker {

// One row per kernel line (where the copy's wrapper was called), kind of copy and mbarrier;
// the code addresses of an unrolled line merged.
struct TensorCopyRow {
  int line = 0;
  bool approximate = false;
  bool store = false, multicast = false;
  std::string barrier;  // loads: the mbarrier's shared element
  std::uint64_t copies = 0, bytes = 0;
  // Loads: the mbarrier phases the bytes went to. Unrolled copies of one line fill the same
  // phases, so merged lines keep the most of any one.
  std::uint64_t phases = 0;
};
std::vector<TensorCopyRow> tensor_copy_rows(const engine::LaunchResult& profiled);

// One row per warpgroup, kernel line and instruction (an MMA's shape, a wait_group's depth).
struct WarpgroupMmaRow {
  unsigned warpgroup = 0;
  int line = 0;
  bool approximate = false;
  engine::WarpgroupMmaProfile::Op op = engine::WarpgroupMmaProfile::Op::mma;
  unsigned n = 0;
  std::uint64_t instructions = 0, flops = 0;
};
std::vector<WarpgroupMmaRow> warpgroup_mma_rows(const engine::LaunchResult& profiled);

// "m64n128k16", "commit_group", "wait_group 1".
std::string instruction_words(const WarpgroupMmaRow& row);

// The two tables, after the memory profile; nothing for a kernel that used neither unit.
void print_async_profile(const CpuMeasure& measure, const std::string& source, const Style& style);

}  // namespace checker

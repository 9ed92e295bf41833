// --profile: how efficiently a kernel uses memory, per source line, in Nsight Compute's terms.
// On the CPU backend from the engine's memory profile (every warp request of one launch);
// on the GPU from Nsight Compute itself, per kernel, when it is installed.
#pragma once

#include <string>
#include <vector>

#include "checker/output.h"
#include "checker/puzzle.h"
#include "kernel_run.h"

namespace checker {

// The text of line `line` of a source file's `lines`, trimmed to fit a table's last column.
std::string source_line(const std::vector<std::string>& lines, int line);
std::vector<std::string> read_lines(const std::string& path);
// 1234567 as "1,234,567".
std::string count_words(double v);

// One row per source line and kind of access (shared or global, load or store), costliest first.
struct ProfileRow {
  int line = 0;
  bool approximate = false;
  bool shared = false, write = false;
  unsigned access_size = 0;
  std::uint64_t requests = 0;
  double average_ways = 0;  // shared: the average of each request's worst n-way conflict
  unsigned worst_ways = 0;
  double wavefront_ratio = 0;   // shared: wavefronts over the fewest possible
  double sectors_per_request = 0, ideal_sectors_per_request = 0;  // global
  std::uint64_t excess = 0;     // wavefronts or sectors beyond the fewest: the cost
};
std::vector<ProfileRow> profile_rows(const engine::LaunchResult& profiled);

// Prints the table for one kernel (its name given when the puzzle has several), with the code
// of each line read from `source` when it can be.
void print_memory_profile(const std::string& kernel, const CpuMeasure& measure, const std::string& source,
                          const PuzzleSpec& spec, const Style& style);

// Runs this checker again under Nsight Compute (`program`, with `args`), for one launch of each
// kernel at `dims`, and prints the GPU's counters. Says so, and returns, when ncu is missing or
// cannot read the counters.
void print_gpu_profile(const PuzzleSpec& spec, const Dims& dims, const std::string& program,
                       const std::vector<std::string>& args, const Style& style);

}  // namespace checker

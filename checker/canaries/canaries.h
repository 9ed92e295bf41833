// The canaries' results as data: which check each canary exercises, what it measured and
// whether the check showed. run_canaries() launches them (run_canaries.cpp), the verdict
// turns the results into JSON and, when a check is lost, the one message the student reads
// (canary_verdict.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace canaries {

struct Result {
  std::string name;      // the kernel, without its "canary_" prefix: "shared_race"
  // "finding", "finding_naming_thread" (only findings that name the thread count),
  // "bank_conflict_ways" or "global_loads_per_thread"
  std::string measures;
  std::string kind;  // the findings: the engine::FindingKind expected ("shared_race")
  bool instrumented = true;  // seen through the compiler's instrumentation (false: the engine sees it alone)
  std::uint64_t expected_at_least = 1;
  std::uint64_t observed = 0;  // findings of that kind, the worst n-way conflict, the busiest thread's loads
  std::string error;           // the launch could not run at all (an engine error), else empty
  bool found() const { return error.empty() && observed >= expected_at_least; }
};

std::vector<Result> run_canaries();

struct Compiler {
  std::string id;       // CMake's: "Clang", "GNU"
  std::string version;  // "19.1.7"
  std::string path;     // "/usr/bin/clang++"
};

struct Build {
  Compiler compiler;
  std::vector<std::string> kernel_flags;  // kernel_cpu_flags(), as the canaries were compiled
  std::string directory;                  // the build tree, as the student names it: "build/cpu-only"
};

}  // namespace canaries

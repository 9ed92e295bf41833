// Findings in words a student understands on day one: what happened, where, and the
// likely fix. At most a few instances of each kind, then a count.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/matrices.h"
#include "checker/output.h"
#include "checker/puzzle.h"
#include "engine/findings.h"

namespace checker {

// shared_shapes: the kernel's __shared__ array dimensions (see shared_shapes.h).
std::vector<std::string> explain_findings(const engine::LaunchResult& result, const PuzzleSpec& spec, const Dims& d,
                                          const std::map<std::string, std::vector<long>>& shared_shapes,
                                          const Style& style);
std::string explain_unwritten(const Comparison& c, const PuzzleSpec& spec, const Style& style);
std::string explain_wrong(const Comparison& c, const Reference& ref, const std::vector<float>& out,
                          const PuzzleSpec& spec, const Style& style);
std::string explain_budget(const engine::LaunchStats& stats, std::uint64_t budget, const PuzzleSpec& spec,
                           const Dims& d, const Style& style);

// "line 23 of p04_tiled.cu", or "" when unknown.
std::string where_in_source(const engine::SourceLocation& at);

}  // namespace checker

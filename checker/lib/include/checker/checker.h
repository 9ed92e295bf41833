// The whole checker of a puzzle: each puzzle's executable is one call to run_puzzle.
#pragma once

#include <string>
#include <vector>

#include "checker/options.h"
#include "checker/puzzle.h"
#include "engine/kernel_image.h"

namespace checker {

// One image per kernel that the spec names, in the spec's order.
using KernelImages = std::vector<const engine::KernelImage*>;

// Returns the exit status: 0 all cases passed, 1 one failed, 2 usage or environment error.
int run_puzzle(const std::string& puzzle_id, const KernelImages& cpu, const KernelImages& gpu, int argc,
               char** argv);

// --sanitize: runs this checker again under compute-sanitizer and summarises its findings.
int run_under_sanitizer(const PuzzleSpec& spec, const Options& options, const std::string& program);

}  // namespace checker

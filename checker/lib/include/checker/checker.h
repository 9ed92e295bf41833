// The whole checker of a puzzle: each puzzle's executable is one call to run_puzzle.
#pragma once

#include <string>

#include "checker/options.h"
#include "checker/puzzle.h"
#include "engine/kernel_image.h"

namespace checker {

// Returns the exit status: 0 all cases passed, 1 one failed, 2 usage or environment error.
int run_puzzle(const std::string& puzzle_id, const engine::KernelImage& cpu, const engine::KernelImage& gpu,
               int argc, char** argv);

// --sanitize: runs this checker again under compute-sanitizer and summarises its findings.
int run_under_sanitizer(const PuzzleSpec& spec, const Options& options, const std::string& program);

}  // namespace checker

// What the generated main of a puzzle's checker calls (checker/cmake/checker_main.cpp.in).
// Declarations only, with no standard container: a build compiles about ninety such mains
// (every puzzle, solution and broken kernel), and with checker.h each took a second.
#pragma once

#include <initializer_list>

namespace engine {
struct KernelImage;
}  // namespace engine

namespace checker {

// A constant of the puzzle's spec with the value a tuning variant's kernel file gives it
// (checker/run tune; none otherwise).
struct ConstantOverride {
  const char* name;
  long long value;
};

// Applies the overrides, then runs the puzzle's checker (run_puzzle, checker.h) on the kernel
// images; returns the process's exit status.
int puzzle_main(const char* puzzle_id, std::initializer_list<ConstantOverride> constants,
                std::initializer_list<const engine::KernelImage*> cpu,
                std::initializer_list<const engine::KernelImage*> gpu, int argc, char** argv);

}  // namespace checker

// A two-way setting that tests give the CPU backend through its environment
// (PUZZLES_CPU_EXECUTION_MODEL, PUZZLES_CPU_INLINE_CHECKS).
#pragma once

namespace engine::cpu {

// True when `name` is unset, empty or `usual`; false when it is `other`. Any other value stops
// the program with status 2 and a line that names both: read it once, at program start, before
// a launch's child process could take the stop for a crash.
bool environment_switch(const char* name, const char* usual, const char* other);

}  // namespace engine::cpu

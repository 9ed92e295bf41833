// Runs a whole grid on this process's cores. Called in the child process of a launch.
#pragma once

#include "grid_plan.h"

namespace engine::cpu {

// Exit status of the child when a signal handler caught a crash.
inline constexpr int kCrashExitStatus = 86;

// The cores this process may run on (its affinity mask): one worker each.
unsigned usable_cores();

// Returns the child's exit status: 0 when the grid ran (findings are in the report).
int run_grid(const GridPlan& plan);

}  // namespace engine::cpu

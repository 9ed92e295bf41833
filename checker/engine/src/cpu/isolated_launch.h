// Runs a CPU-backend grid in a child process. The parent stays single-threaded and safe:
// a kernel that crashes, loops forever or scribbles over memory takes down only the child,
// and the parent still reports what happened, within the time limit.
#pragma once

#include "engine/findings.h"
#include "grid_plan.h"

namespace engine::cpu {

LaunchResult launch_isolated(GridPlan& plan);

}  // namespace engine::cpu

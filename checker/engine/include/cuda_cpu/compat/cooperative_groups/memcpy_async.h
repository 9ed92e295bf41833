// <cooperative_groups/memcpy_async.h> for the CPU backend: cooperative_groups.h says what of it the
// CPU backend has, and what it refuses by name.
#pragma once

#include "../cooperative_groups.h"

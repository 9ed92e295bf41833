// <surface_types.h> for the CPU backend: surface objects' types. The CPU backend does not
// model surfaces (cuda_cpu/texture_types.h says what happens instead).
#pragma once
#define __SURFACE_TYPES_H__

#include "driver_types.h"
#include "cuda_cpu/texture_types.h"

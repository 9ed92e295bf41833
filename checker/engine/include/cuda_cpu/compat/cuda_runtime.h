// <cuda_runtime.h> for the CPU backend: the device-side names (from the engine's own
// headers) and the part of the runtime API that a kernel file's helper code uses.
#pragma once

#include "cuda_cpu/device_functions.h"
#include "cuda_cpu/runtime_api.h"
#include "cuda_cpu/vector_types.h"
#include "cuda_cpu/warp_functions.h"

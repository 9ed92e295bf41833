// <cuda_runtime.h> for the CPU backend: the device-side names (from the engine's own
// headers) and the part of the runtime API that a kernel file's helper code uses.
#pragma once

// The standard headers that nvcc's own <cuda_runtime.h> brings into every .cu file, so that
// a kernel that compiles with nvcc without including them compiles here too (and one that
// needs more must include it, as with nvcc). Not <functional>: nvcc adds it only under
// --extended-lambda, and it would double the text every kernel build compiles.
#include <cmath>
#include <cstdarg>
#include <cstdlib>
#include <ctype.h>
#include <math.h>
#include <new>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <utility>

#include "cuda_cpu/device_functions.h"
#include "cuda_cpu/runtime_api.h"
#include "cuda_cpu/vector_types.h"
#include "cuda_cpu/warp_functions.h"

// <cuda_runtime.h> for the CPU backend, laid out as CUDA's: the runtime API and its types
// (cuda_runtime_api.h, which defines CUDART_VERSION), the make_ functions of the vector types
// and copy descriptors, the built-in variables, and the device-side names (from the engine's
// own headers). Programs and helper headers test its guard, __CUDA_RUNTIME_H__.
#ifndef CUDA_CPU_COMPAT_CUDA_RUNTIME_H_
#define CUDA_CPU_COMPAT_CUDA_RUNTIME_H_
#define __CUDA_RUNTIME_H__

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

#include "host_defines.h"
#include "builtin_types.h"
#include "library_types.h"
#include "channel_descriptor.h"
#include "cuda_runtime_api.h"
#include "driver_functions.h"
#include "vector_functions.h"
#include "device_launch_parameters.h"

#include "cuda_cpu/device_functions.h"
#include "cuda_cpu/rounding_intrinsics.h"
#include "cuda_cpu/warp_functions.h"

#endif  // CUDA_CPU_COMPAT_CUDA_RUNTIME_H_

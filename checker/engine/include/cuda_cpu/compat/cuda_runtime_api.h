// <cuda_runtime_api.h> for the CPU backend.
#pragma once

#include "cuda_cpu/runtime_api.h"

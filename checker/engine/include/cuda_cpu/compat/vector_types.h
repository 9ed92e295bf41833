// <vector_types.h> for the CPU backend.
#pragma once

#include "cuda_cpu/vector_types.h"

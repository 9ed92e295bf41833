// <device_launch_parameters.h> for the CPU backend: threadIdx and friends are built in.
#pragma once

#include "cuda_cpu/runtime_hooks.h"

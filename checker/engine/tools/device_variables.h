// __device__ and __managed__ variables of a whole program (checker/cmake/program_cpu.cpp.in
// spells the keywords __cuda_cpu_device__ and __cuda_cpu_managed__ so that they reach this
// step). A variable that kernels may write goes into the section cuda_cpu_device_vars, which
// the engine carries back from each launch's child process (src/cpu/device_globals.h); a
// function, a const variable or a __shared__ one keeps nothing of the keyword.
#pragma once

#include <string>

void place_device_variables(std::string& text);

// <device_types.h> for the CPU backend.
#ifndef CUDA_CPU_COMPAT_DEVICE_TYPES_H_
#define CUDA_CPU_COMPAT_DEVICE_TYPES_H_
#define __DEVICE_TYPES_H__

#include "host_defines.h"

enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };

#endif  // CUDA_CPU_COMPAT_DEVICE_TYPES_H_

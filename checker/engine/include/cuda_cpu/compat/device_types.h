// <device_types.h> for the CPU backend.
#pragma once
#define __DEVICE_TYPES_H__

#include "host_defines.h"

enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };

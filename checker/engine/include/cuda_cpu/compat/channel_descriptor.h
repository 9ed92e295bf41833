// <channel_descriptor.h> for the CPU backend: cudaCreateChannelDesc (cuda_cpu/runtime_api.h).
#pragma once
#define __CHANNEL_DESCRIPTOR_H__

#include "cuda_runtime_api.h"

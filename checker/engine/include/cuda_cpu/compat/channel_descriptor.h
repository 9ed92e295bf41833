// <channel_descriptor.h> for the CPU backend: cudaCreateChannelDesc (cuda_cpu/runtime_api.h).
#ifndef CUDA_CPU_COMPAT_CHANNEL_DESCRIPTOR_H_
#define CUDA_CPU_COMPAT_CHANNEL_DESCRIPTOR_H_
#define __CHANNEL_DESCRIPTOR_H__

#include "cuda_runtime_api.h"

#endif  // CUDA_CPU_COMPAT_CHANNEL_DESCRIPTOR_H_

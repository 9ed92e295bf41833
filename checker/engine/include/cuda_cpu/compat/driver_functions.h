// <driver_functions.h> for the CPU backend: the make_ functions of the copy descriptors.
#ifndef CUDA_CPU_COMPAT_DRIVER_FUNCTIONS_H_
#define CUDA_CPU_COMPAT_DRIVER_FUNCTIONS_H_
#define __DRIVER_FUNCTIONS_H__

#include <cstddef>

#include "builtin_types.h"

inline cudaPitchedPtr make_cudaPitchedPtr(void* d, std::size_t p, std::size_t xsz, std::size_t ysz) {
  return cudaPitchedPtr{d, p, xsz, ysz};
}
inline cudaPos make_cudaPos(std::size_t x, std::size_t y, std::size_t z) { return cudaPos{x, y, z}; }
inline cudaExtent make_cudaExtent(std::size_t w, std::size_t h, std::size_t d) { return cudaExtent{w, h, d}; }

#endif  // CUDA_CPU_COMPAT_DRIVER_FUNCTIONS_H_

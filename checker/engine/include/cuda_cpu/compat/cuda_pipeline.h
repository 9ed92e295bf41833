// <cuda_pipeline.h> for the CPU backend: asynchronous copies from global to shared memory.
// The engine lands each copy at some point between its issue and the wait that covers it
// (a different point in each thread order), and reports any access to the destination, or
// write to the source, before that wait.
#ifndef CUDA_CPU_COMPAT_CUDA_PIPELINE_H_
#define CUDA_CPU_COMPAT_CUDA_PIPELINE_H_

#include <cstddef>

#include "cuda_cpu/runtime_hooks.h"

inline void __pipeline_memcpy_async(void* dst_shared, const void* src_global, std::size_t size_and_align,
                                    std::size_t zfill = 0, unsigned line = __builtin_LINE(),
                                    const char* file = __builtin_FILE()) {
  cuda_cpu::pipeline_memcpy_async(dst_shared, src_global, size_and_align, zfill, line, file);
}
inline void __pipeline_commit(unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  cuda_cpu::pipeline_commit(line, file);
}
inline void __pipeline_wait_prior(std::size_t prior, unsigned line = __builtin_LINE(),
                                  const char* file = __builtin_FILE()) {
  cuda_cpu::pipeline_wait_prior(prior, line, file);
}

#endif  // CUDA_CPU_COMPAT_CUDA_PIPELINE_H_

// Asynchronous copies (cuda_pipeline.h) of one CUDA thread: issued, grouped by commits,
// and landed in shared memory at some point before the wait that covers them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace engine::cpu {

struct PendingCopy {
  std::uintptr_t dst = 0, src = 0;
  std::size_t size = 0, zero_fill = 0;
  unsigned char data[16] = {};  // the source bytes, read when the copy was issued
  std::uint32_t group = 0;      // its commit group; kOpenGroup until committed
  std::uint32_t line = 0;
  const char* file = "";
  std::uintptr_t site = 0;  // where it was issued as a code address (inline PTX), or 0: the line
  bool landed = false;
};

struct PendingCopies {
  static constexpr std::uint32_t kOpenGroup = ~0u;
  std::vector<PendingCopy> copies;  // in issue order, until waited for
  std::uint32_t committed = 0;      // groups committed so far
  void reset() {
    copies.clear();
    committed = 0;
  }
};

// Issues one asynchronous copy for the current thread (__pipeline_memcpy_async, cp.async):
// `op` names the call in findings about its arguments.
// `site`: the issuing code's address when known (inline PTX), for findings with its call chain.
void issue_async_copy(void* dst, const void* src, std::size_t size, std::size_t zero_fill, unsigned line,
                      const char* file, const char* op, std::uintptr_t site = 0);

}  // namespace engine::cpu

// The machine's memory page size, for guard pages and mappings: 4 KiB on x86-64, but 4, 16
// or 64 KiB on aarch64 (Linux on Apple Silicon uses 16 KiB), so it is asked, not assumed.
#pragma once

#include <unistd.h>

#include <cstddef>

namespace engine::cpu {

inline std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace engine::cpu

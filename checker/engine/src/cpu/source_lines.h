// Turns code addresses into "file:line" with binutils' addr2line, when it is installed.
// Kernels are compiled with line tables for this.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "engine/findings.h"

namespace engine::cpu {

// Return addresses of calls (what the load/store hooks see), looked up at address - 1.
std::map<std::uintptr_t, SourceLocation> source_lines(const std::vector<std::uintptr_t>& return_addresses);

}  // namespace engine::cpu

// Turns code addresses into "file:line" from the program's own debug information (libdw, in
// this process: a finding's lines cost microseconds, not a process per launch). Kernels are
// compiled with line tables for this.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/findings.h"

namespace engine::cpu {

// Return addresses of calls (what the access callbacks see), looked up at address - 1.
// Where the compiler inlined code (an engine header's float4 copy, a __device__ helper),
// the line reported is the innermost one in `kernel_source`, or else the innermost one
// outside the engine's own files: the line the student wrote.
std::map<std::uintptr_t, SourceLocation> source_lines(const std::vector<std::uintptr_t>& return_addresses,
                                                      const std::string& kernel_source);

}  // namespace engine::cpu

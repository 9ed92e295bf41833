// A kernel's __shared__ variables, read from the program's own debug information (DWARF),
// which the compiler wrote for each kernel: names as the kernel spells them (also inside
// templates), where they live (a TLS offset: __shared__ is thread_local here, see
// kernel_shim.h), their sizes (what ptxas would count against the 48 KiB), and the array
// dimensions, so findings can say a_tile[3][4].
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace engine::cpu {

struct SharedVariable {
  std::string name;          // "a_tile"
  std::size_t tls_offset;    // within this thread's TLS block
  std::size_t size;          // bytes
  std::size_t element_size;  // bytes of one element (16 for a float4 array)
  std::vector<long> dims;    // {16, 16} for float a_tile[16][16]; empty for a scalar
};

// The variables of the kernel at this code address; throws engine::Error when the program
// has no debug information for it. symbols_only: every TLS offset from the symbol table, as
// where the compiler writes no TLS location (aarch64), so that a test can compare both ways.
std::vector<SharedVariable> shared_variables_of(const void* kernel, bool symbols_only = false);

}  // namespace engine::cpu

// The dimensions of a kernel's __shared__ arrays, read from its source, so that findings
// can say "a_tile[0][1]" rather than "element 1 of a_tile".
#pragma once

#include <map>
#include <string>
#include <vector>

namespace checker {

// name -> dimensions, for declarations like `__shared__ float a_tile[TILE][TILE];` whose
// sizes are numbers or `constexpr int NAME = number;` constants of the same file.
std::map<std::string, std::vector<long>> read_shared_shapes(const std::string& source_path);

// "a_tile[0][1]" when the shape is known and matches, else "a_tile (element 1)".
std::string shared_element(const std::string& name, long long flat_index,
                           const std::map<std::string, std::vector<long>>& shapes);

}  // namespace checker

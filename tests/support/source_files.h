// Reading the project's own files in tests: the spec-derived lists and the corpus.
#pragma once

#include <string>
#include <vector>

namespace test_support {

std::string read_file(const std::string& path);  // empty when it cannot be read
// The names (not paths) of the files in a folder of the source tree, sorted.
std::vector<std::string> files_in(const std::string& folder);

}  // namespace test_support

// Reading the project's own files in tests: the spec-derived lists and the corpus.
#pragma once

#include <string>
#include <vector>

namespace test_support {

std::string read_file(const std::string& path);  // empty when it cannot be read

// A student handout (checker/run handout) has no solutions/ and no broken-kernel corpus; it
// says so with a HANDOUT file at its root. Tests that need them skip, saying why.
bool is_handout();
// Notes the skip and returns true in a handout.
bool skip_in_handout();
// The names (not paths) of the files in a folder of the source tree, sorted.
std::vector<std::string> files_in(const std::string& folder);

}  // namespace test_support

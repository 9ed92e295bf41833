// The broken-kernel corpus (tests/broken, see its README), read from each file's trailer:
// the checker's options and the text that its output must hold.
#pragma once

#include <string>
#include <vector>

namespace test_support {

struct CorpusEntry {
  std::string name;  // file name without .cu
  std::vector<std::string> args;
  std::vector<std::string> says;
  bool needs_instrumentation = false;
  bool cpu_only = false;  // "// Build: CPU backend only": nvcc refuses it, so no GPU image
};

// Every entry, in file-name order. `folder`: tests/broken/ with its trailing slash.
std::vector<CorpusEntry> read_corpus(const std::string& folder);

}  // namespace test_support

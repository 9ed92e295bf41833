#include "broken_corpus.h"

#include <sstream>

#include "source_files.h"

namespace test_support {
namespace {

CorpusEntry read_entry(const std::string& folder, const std::string& file) {
  CorpusEntry e;
  e.name = file.substr(0, file.size() - 3);
  std::istringstream in(read_file(folder + file));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("// Checker: ", 0) == 0) {
      std::istringstream words(line.substr(12));
      for (std::string w; words >> w;)
        if (w != "(no" && w != "options)") e.args.push_back(w);
    } else if (line.rfind("// Expect: ", 0) == 0) {
      e.says.push_back(line.substr(11));
    } else if (line.rfind("// Needs: instrumented kernels", 0) == 0) {
      e.needs_instrumentation = true;
    } else if (line.rfind("// Build: CPU backend only", 0) == 0) {
      e.cpu_only = true;
    }
  }
  return e;
}

}  // namespace

std::vector<CorpusEntry> read_corpus(const std::string& folder) {
  std::vector<CorpusEntry> entries;
  for (const std::string& f : files_in(folder))
    if (f.size() > 3 && f.compare(f.size() - 3, 3, ".cu") == 0) entries.push_back(read_entry(folder, f));
  return entries;
}

}  // namespace test_support

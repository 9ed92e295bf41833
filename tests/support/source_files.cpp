#include "source_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backend_fixture.h"

namespace test_support {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> files_in(const std::string& folder) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error))
    if (entry.is_regular_file()) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool is_handout() {
  std::error_code error;
  return std::filesystem::exists(std::string(SOURCE_DIR) + "/HANDOUT", error);
}

bool skip_in_handout() {
  if (!is_handout()) return false;
  note_skipped("a student handout has no solutions/ and no broken-kernel corpus (HANDOUT)");
  return true;
}

}  // namespace test_support

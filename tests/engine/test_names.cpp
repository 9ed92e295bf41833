// CTest splits the test names doctest_discover_tests finds at ';' (a CMake list separator),
// so a test whose name holds one is registered as fragments that never run. This keeps ';'
// out of every test name in the sources of the doctest programs.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

TEST_CASE("no doctest test name contains a semicolon, which CTest would split") {
  const std::regex test_name(R"re((TEST_CASE|BACKEND_TEST|SUBCASE)\s*\(((\s*"([^"\\]|\\.)*")+))re");
  const std::regex piece(R"re("(([^"\\]|\\.)*)")re");
  std::vector<std::string> offending;
  std::size_t names = 0;
  for (const char* folder : {"engine", "checkers"}) {
    const std::filesystem::path dir = std::filesystem::path(TEST_SOURCE_DIR) / folder;
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".cpp") continue;
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      const std::string source = text.str();
      for (auto m = std::sregex_iterator(source.begin(), source.end(), test_name); m != std::sregex_iterator(); ++m) {
        std::string name;
        const std::string literals = (*m)[2];
        for (auto p = std::sregex_iterator(literals.begin(), literals.end(), piece); p != std::sregex_iterator(); ++p)
          name += (*p)[1];
        ++names;
        if (name.find(';') != std::string::npos) offending.push_back(entry.path().filename().string() + ": " + name);
      }
    }
  }
  CHECK(names > 100);
  std::string list;
  for (const std::string& name : offending) list += "\n  " + name;
  INFO("names with ';':" << list);
  CHECK(offending.empty());
}

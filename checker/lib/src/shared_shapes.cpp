#include "checker/shared_shapes.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace checker {

std::map<std::string, std::vector<long>> read_shared_shapes(const std::string& source_path) {
  std::map<std::string, std::vector<long>> shapes;
  std::ifstream in(source_path);
  if (!in) return shapes;
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();

  std::map<std::string, long> constants;
  static const std::regex constant(R"((?:constexpr|const)\s+(?:int|unsigned|long|size_t)\s+(\w+)\s*=\s*(\d+)\s*;)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), constant); it != std::sregex_iterator(); ++it)
    constants[(*it)[1]] = std::stol((*it)[2]);

  static const std::regex declaration(R"(__shared__\s+[\w:\s]+?\s(\w+)\s*((?:\[\s*\w+\s*\])+)\s*;)");
  static const std::regex dimension(R"(\[\s*(\w+)\s*\])");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), declaration); it != std::sregex_iterator(); ++it) {
    std::string dims_text = (*it)[2];
    std::vector<long> dims;
    for (auto d = std::sregex_iterator(dims_text.begin(), dims_text.end(), dimension); d != std::sregex_iterator();
         ++d) {
      std::string token = (*d)[1];
      if (std::isdigit(static_cast<unsigned char>(token[0])))
        dims.push_back(std::stol(token));
      else if (constants.count(token))
        dims.push_back(constants[token]);
      else {
        dims.clear();
        break;
      }
    }
    if (!dims.empty()) shapes[(*it)[1]] = dims;
  }
  return shapes;
}

std::string shared_element(const std::string& name, long long flat_index,
                           const std::map<std::string, std::vector<long>>& shapes) {
  auto it = shapes.find(name);
  if (it != shapes.end() && it->second.size() > 1 && flat_index >= 0) {
    long long total = 1;
    for (long d : it->second) total *= d;
    if (flat_index < total) {
      std::string s;
      long long rest = flat_index;
      for (std::size_t i = it->second.size(); i-- > 0;) {
        s = "[" + std::to_string(rest % it->second[i]) + "]" + s;
        rest /= it->second[i];
      }
      return name + s;
    }
  }
  if (it != shapes.end() && it->second.size() == 1) return name + "[" + std::to_string(flat_index) + "]";
  return name + " (element " + std::to_string(flat_index) + ")";
}

}  // namespace checker

#include "engine/ncu_csv.h"

#include <cstdlib>
#include <sstream>

namespace engine {
namespace {

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) fields.push_back(field), field.clear();
    else if (c != '\r') field += c;
  }
  fields.push_back(field);
  return fields;
}

}  // namespace

double NcuLaunch::value(const std::string& metric) const {
  auto it = metrics.find(metric);
  return it == metrics.end() ? -1 : it->second;
}

std::string NcuLaunch::function() const {
  std::string s = kernel.substr(0, kernel.find_first_of("(<"));
  auto space = s.rfind(' ');
  return space == std::string::npos ? s : s.substr(space + 1);
}

std::vector<NcuLaunch> read_ncu_csv(const std::string& text) {
  std::vector<NcuLaunch> launches;
  std::istringstream in(text);
  std::vector<std::string> header;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("\"ID\"", 0) == 0) {
      header = csv_fields(line);
      continue;
    }
    if (header.empty() || line.empty() || line[0] != '"') continue;
    std::vector<std::string> f = csv_fields(line);
    std::string id, kernel, metric, value;
    for (std::size_t i = 0; i < header.size() && i < f.size(); ++i) {
      if (header[i] == "ID") id = f[i];
      if (header[i] == "Kernel Name") kernel = f[i];
      if (header[i] == "Metric Name") metric = f[i];
      if (header[i] == "Metric Value") value = f[i];
    }
    std::string digits;
    for (char c : value)
      if (c != ',') digits += c;
    if (kernel.empty() || metric.empty() || digits.empty()) continue;
    if (launches.empty() || launches.back().id != id) launches.push_back(NcuLaunch{id, kernel, {}});
    launches.back().metrics[metric] = std::atof(digits.c_str());
  }
  return launches;
}

const NcuLaunch* find_launch(const std::vector<NcuLaunch>& launches, const std::string& name) {
  for (const NcuLaunch& l : launches)
    if (l.function() == name) return &l;
  return nullptr;
}

}  // namespace engine

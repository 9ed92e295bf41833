#include "checker/output.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace checker {

Style Style::for_stdout() {
  const char* no_color = std::getenv("NO_COLOR");
  bool wanted = isatty(STDOUT_FILENO) && (no_color == nullptr || *no_color == '\0');
  return Style(wanted);
}

std::string format_value(double v) {
  if (std::isnan(v)) return "nan";
  char buf[64];
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == std::floor(v) && std::fabs(v) < 1e7)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string format_tenths(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

template <typename T>
static std::string list_of(const std::vector<T>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) s += ", ";
    s += format_value(static_cast<double>(values[i]));
  }
  return s + "]";
}

std::string format_list(const std::vector<float>& values) { return list_of(values); }
std::string format_list(const std::vector<double>& values) { return list_of(values); }

std::string element_name(long long index, long cols) {
  if (cols <= 0) return "";
  long long n = cols;
  long long row = index >= 0 ? index / n : -((-index + n - 1) / n);
  long long col = index - row * n;
  return "(row " + std::to_string(row) + ", col " + std::to_string(col) + ")";
}

}  // namespace checker

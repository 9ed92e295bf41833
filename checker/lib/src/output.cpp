#include "checker/output.h"

#include <unistd.h>

#include <algorithm>
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

std::vector<std::string> matrix_map(const Comparison& c, const Style& style, int max_width) {
  long rows = c.dims.m, cols = c.dims.n;
  long longest = rows > cols ? rows : cols;
  long cell = (longest + max_width - 1) / max_width;
  long cell_rows = (rows + cell - 1) / cell, cell_cols = (cols + cell - 1) / cell;
  std::vector<std::string> lines;
  for (long cr = 0; cr < cell_rows; ++cr) {
    char label[32];
    std::snprintf(label, sizeof label, "%6ld ", cr * cell);
    std::string line = style.dim(label);
    for (long cc = 0; cc < cell_cols; ++cc) {
      char mark = '.';
      for (long r = cr * cell; r < std::min(rows, (cr + 1) * cell); ++r)
        for (long col = cc * cell; col < std::min(cols, (cc + 1) * cell); ++col) {
          char m = c.marks[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(col)];
          if (m == '?') mark = '?';
          else if (m == 'X' && mark != '?') mark = 'X';
        }
      line += mark == '.' ? style.green(".") : mark == 'X' ? style.red("X") : style.yellow("?");
    }
    lines.push_back(line);
  }
  return lines;
}

std::string element_name(long long index, long cols) {
  if (cols <= 0) return "";
  long long n = cols;
  long long row = index >= 0 ? index / n : -((-index + n - 1) / n);
  long long col = index - row * n;
  return "(row " + std::to_string(row) + ", col " + std::to_string(col) + ")";
}

}  // namespace checker

#include "checker/value_window.h"

#include <algorithm>
#include <cstdio>

namespace checker {
namespace {

// Before the first bad element: this many rows and columns, when the matrix has them. Two
// columns of right values show where the mistake starts.
constexpr long kRowsBefore = 2, kColsBefore = 2;

long start_of(long at, long before, long span, long size) {
  return std::max(0L, std::min(at - before, size - span));
}

std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

}  // namespace

WindowSpan window_around(const Dims& dims, std::size_t element, long max_rows, long max_cols) {
  WindowSpan w;
  const long row = static_cast<long>(element / static_cast<std::size_t>(dims.n));
  const long col = static_cast<long>(element % static_cast<std::size_t>(dims.n));
  w.rows = std::min(max_rows, dims.m);
  w.cols = std::min(max_cols, dims.n);
  w.row0 = start_of(row, kRowsBefore, w.rows, dims.m);
  w.col0 = start_of(col, kColsBefore, w.cols, dims.n);
  return w;
}

std::vector<std::string> render_window(const Comparison& c, const Reference& ref, const std::vector<float>& out,
                                       const std::string& output_name, const Style& st) {
  auto first_bad = std::find_if(c.marks.begin(), c.marks.end(), [](char m) { return m != '.'; });
  if (first_bad == c.marks.end()) return {};
  const std::size_t bad = static_cast<std::size_t>(first_bad - c.marks.begin());
  const WindowSpan w = window_around(c.dims, bad, 6, 8);
  const std::size_t n = static_cast<std::size_t>(c.dims.n);

  // One width for every cell: the longest value or column heading, then a column for the
  // mark after a wrong value.
  std::size_t width = 0;
  for (long col = w.col0; col < w.col0 + w.cols; ++col) width = std::max(width, ("col " + std::to_string(col)).size());
  for (long r = w.row0; r < w.row0 + w.rows; ++r)
    for (long col = w.col0; col < w.col0 + w.cols; ++col) {
      std::size_t i = static_cast<std::size_t>(r) * n + static_cast<std::size_t>(col);
      width = std::max({width, format_value(ref.value[i]).size(), format_value(out[i]).size()});
    }
  width += 1;
  const std::string expected_label = "expected", actual_label = output_name;
  const std::size_t name_width = std::max(expected_label.size(), actual_label.size());
  const std::string last_row = "row " + std::to_string(w.row0 + w.rows - 1);
  const std::size_t row_width = last_row.size();

  std::string first = element_name(static_cast<long long>(bad), c.dims.n);
  std::string what = w.rows == c.dims.m && w.cols == c.dims.n
                         ? "All of " + output_name + " ("
                         : output_name + " around " + first + ", its first element that is not right (";
  std::vector<std::string> lines{what + "expected above " + output_name + "; * wrong, ? never written):"};
  std::string header(row_width + 2 + name_width + 1, ' ');
  for (long col = w.col0; col < w.col0 + w.cols; ++col)
    header += " " + pad_left("col " + std::to_string(col), width - 1) + " ";
  header.erase(header.find_last_not_of(' ') + 1);
  lines.push_back(st.dim(header));
  for (long r = w.row0; r < w.row0 + w.rows; ++r) {
    std::string expected = pad_right("row " + std::to_string(r), row_width) + "  " + pad_right(expected_label, name_width) + " ";
    std::string actual = std::string(row_width + 2, ' ') + pad_right(actual_label, name_width) + " ";
    for (long col = w.col0; col < w.col0 + w.cols; ++col) {
      std::size_t i = static_cast<std::size_t>(r) * n + static_cast<std::size_t>(col);
      // Numbers right-aligned in width - 1, then the mark's column.
      expected += " " + pad_left(format_value(ref.value[i]), width - 1) + " ";
      char mark = c.marks[i];
      std::string cell = mark == '?' ? pad_left("?", width - 1) + " "
                                     : pad_left(format_value(out[i]), width - 1) + (mark == 'X' ? "*" : " ");
      actual += " " + (mark == 'X' ? st.red(cell) : mark == '?' ? st.yellow(cell) : cell);
    }
    expected.erase(expected.find_last_not_of(' ') + 1);
    lines.push_back(expected);
    lines.push_back(st.colour() ? actual : actual.erase(actual.find_last_not_of(' ') + 1));
  }
  return lines;
}

}  // namespace checker

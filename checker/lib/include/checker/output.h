// How checkers print: colour on a terminal (none for pipes or with NO_COLOR), and values.
// Large outputs are shown by value_window.h and tile_map.h.
#pragma once

#include <string>
#include <vector>

namespace checker {

class Style {
 public:
  static Style for_stdout();  // colour only when stdout is a terminal and NO_COLOR is unset
  explicit Style(bool colour) : colour_(colour) {}

  std::string bold(const std::string& s) const { return wrap("1", s); }
  std::string red(const std::string& s) const { return wrap("31", s); }
  std::string green(const std::string& s) const { return wrap("32", s); }
  std::string yellow(const std::string& s) const { return wrap("33", s); }
  std::string dim(const std::string& s) const { return wrap("2", s); }
  bool colour() const { return colour_; }

 private:
  std::string wrap(const char* code, const std::string& s) const {
    return colour_ ? "\033[" + std::string(code) + "m" + s + "\033[0m" : s;
  }
  bool colour_;
};

// "1.0", "-0.3217", "nan": whole numbers keep one decimal, the rest 4 significant digits.
std::string format_value(double v);
// "2.5", "12.0": one decimal, for ratios, averages and percentages.
std::string format_tenths(double v);
// "[1.0, 3.0, 3.0, 13.0]"
std::string format_list(const std::vector<float>& values);
std::string format_list(const std::vector<double>& values);

// "(row 2, col 1)" for an element of a row-major matrix with `cols` columns.
std::string element_name(long long index, long cols);

}  // namespace checker

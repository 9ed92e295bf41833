// The values of a large output around its first element that is not right: expected and
// actual, row by row, with row and column numbers, so a student sees the numbers themselves
// without a screenful of matrix.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "checker/matrices.h"
#include "checker/output.h"

namespace checker {

struct WindowSpan {
  long row0 = 0, rows = 0;  // first row and how many
  long col0 = 0, cols = 0;  // first column and how many
};

// At most max_rows x max_cols elements, inside the matrix, with `element` (a row-major
// index) in it and, where there is room, a little of what comes before it.
WindowSpan window_around(const Dims& dims, std::size_t element, long max_rows = 6, long max_cols = 8);

// The window around the first element that is wrong or never written (in row-major order):
// a heading, a line of column numbers, then per row the expected values and the output's,
// a wrong value followed by '*', one never written shown as '?'. Empty when all is right.
std::vector<std::string> render_window(const Comparison& c, const Reference& ref, const std::vector<float>& out,
                                       const std::string& output_name, const Style& style);

}  // namespace checker

// --bench's results as a table for people and as CSV rows for checker/run bench.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/puzzle.h"

namespace checker {

struct BenchRow {
  Dims dims;
  std::string implementation;  // "matmul_tiled", "cuBLAS SGEMM"
  bool cublas = false;
  double milliseconds = 0;     // median of the timed launches
  double percent_of_baseline = 0;  // of the puzzle's cuBLAS baseline at the same shape

  double tflops() const;
};

// "4096 x 4096 x 4096"
std::string shape_words(const Dims& d);

// Column heads, then one line per row; a shape is written on its first row only.
std::vector<std::string> bench_table(const std::vector<BenchRow>& rows, const std::string& baseline_name);

// The CSV file's header line, and one line per row (fields quoted where they need it).
std::string bench_csv_header();
std::string bench_csv_line(const PuzzleSpec& spec, const BenchRow& row, const std::string& baseline_name,
                           const std::string& device, int launches);

}  // namespace checker

#include "checker/bench_table.h"

#include <algorithm>
#include <cstdio>

namespace checker {
namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

double BenchRow::tflops() const {
  return milliseconds > 0 ? 2.0 * static_cast<double>(dims.multiply_adds()) / (milliseconds * 1e9) : 0.0;
}

std::string shape_words(const Dims& d) {
  return std::to_string(d.m) + " x " + std::to_string(d.n) + " x " + std::to_string(d.k);
}

std::vector<std::string> bench_table(const std::vector<BenchRow>& rows, const std::string& baseline_name) {
  std::size_t shape_width = std::string("m x n x k").size(), name_width = std::string("kernel").size();
  for (const BenchRow& r : rows) {
    shape_width = std::max(shape_width, shape_words(r.dims).size());
    name_width = std::max(name_width, r.implementation.size());
  }
  std::string percent_head = "% of " + baseline_name;
  char line[256];
  std::vector<std::string> out;
  std::snprintf(line, sizeof line, "%-*s  %-*s %10s %9s %*s", static_cast<int>(shape_width), "m x n x k",
                static_cast<int>(name_width), "kernel", "ms", "TFLOP/s", static_cast<int>(percent_head.size()),
                percent_head.c_str());
  out.push_back(line);
  const Dims* previous = nullptr;
  for (const BenchRow& r : rows) {
    std::string shape = previous && *previous == r.dims ? "" : shape_words(r.dims);
    previous = &r.dims;
    std::snprintf(line, sizeof line, "%-*s  %-*s %10s %9s %*s", static_cast<int>(shape_width), shape.c_str(),
                  static_cast<int>(name_width), r.implementation.c_str(), fixed(r.milliseconds, 3).c_str(),
                  fixed(r.tflops(), 2).c_str(), static_cast<int>(percent_head.size()),
                  fixed(r.percent_of_baseline, 1).c_str());
    out.push_back(line);
  }
  return out;
}

std::string bench_csv_header() {
  return "puzzle,implementation,cublas,m,n,k,milliseconds,tflops,percent_of_baseline,baseline,device,launches";
}

std::string bench_csv_line(const PuzzleSpec& spec, const BenchRow& row, const std::string& baseline_name,
                           const std::string& device, int launches) {
  return csv_field(spec.id) + "," + csv_field(row.implementation) + "," + (row.cublas ? "1" : "0") + "," +
         std::to_string(row.dims.m) + "," + std::to_string(row.dims.n) + "," + std::to_string(row.dims.k) + "," +
         fixed(row.milliseconds, 4) + "," + fixed(row.tflops(), 3) + "," + fixed(row.percent_of_baseline, 2) + "," +
         csv_field(baseline_name) + "," + csv_field(device) + "," + std::to_string(launches);
}

}  // namespace checker

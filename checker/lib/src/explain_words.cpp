#include "explain_words.h"

#include "checker/explain.h"

namespace checker::words {

std::string shared_element(const engine::Finding& f) {
  long long total = 1;
  for (long d : f.dims) total *= d > 0 ? d : 1;
  bool whole = !f.dims.empty() && f.dims[0] > 0;
  if (whole && f.index >= 0 && f.index < total) {
    std::string s;
    long long rest = f.index;
    for (std::size_t i = f.dims.size(); i-- > 0;) {
      s = "[" + std::to_string(rest % f.dims[i]) + "]" + s;
      rest /= f.dims[i];
    }
    return f.buffer + s;
  }
  return f.buffer + " (element " + std::to_string(f.index) + ")";
}

std::string element(const engine::Finding& f) { return f.buffer + "[" + std::to_string(f.index) + "]"; }

std::string at_line(const engine::SourceLocation& at) {
  std::string w = where_in_source(at);
  if (w.empty()) return "";
  return at.approximate ? " " + w : " at " + w;  // "near line 23", "at line 23"
}

std::string plural(std::uint64_t count, const std::string& one, const std::string& many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string thread_list(const std::vector<engine::Dim3>& sample, std::uint64_t count) {
  std::string s;
  for (std::size_t i = 0; i < sample.size(); ++i) s += (i ? ", " : "") + sample[i].index_str();
  if (count > sample.size()) s += " and " + std::to_string(count - sample.size()) + " more";
  return s;
}

}  // namespace checker::words

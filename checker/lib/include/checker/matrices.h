// Inputs, the double-precision reference, and the comparison of a kernel's output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "checker/puzzle.h"

namespace checker {

// What the checker writes into the output before every launch: a NaN with a payload of
// its own, so "never written" is told apart from a NaN that the kernel computed.
float unwritten_marker();
bool is_unwritten(float v);

struct Inputs {
  int n = 0;
  std::vector<float> a, b;  // for single_aat, b is the transpose of a
};

// Small integers 0, 1, 2, ... so that every expected value can be checked by hand.
Inputs worked_inputs(KernelShape shape, int n);
// Uniform in [-1, 1), from a portable generator: the same seed gives the same matrices
// on every machine.
Inputs random_inputs(KernelShape shape, int n, std::uint64_t seed);

struct Reference {
  int n = 0;
  std::vector<double> value;
  std::vector<double> tolerance;  // what float32 rounding over n terms can explain
};
Reference reference_product(const Inputs& in);

struct Comparison {
  int n = 0;
  std::size_t wrong = 0;      // a value, but not the right one (NaN included)
  std::size_t unwritten = 0;  // still the marker
  std::vector<std::size_t> first_wrong;      // up to 5 indices
  std::vector<std::size_t> first_unwritten;  // up to 5 indices
  std::vector<char> marks;  // per element: '.' right, 'X' wrong, '?' never written
  bool ok() const { return wrong == 0 && unwritten == 0; }
};
Comparison compare(const std::vector<float>& out, const Reference& ref);

}  // namespace checker

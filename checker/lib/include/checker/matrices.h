// Inputs, the double-precision reference, and the comparison of a kernel's output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "checker/puzzle.h"

namespace checker {

// What the checker writes into the output before every launch (unless the kernel reads c,
// for beta): a NaN with a payload of its own, so "never written" is told apart from a NaN
// that the kernel computed.
float unwritten_marker();
bool same_bits(float x, float y);

// One case's inputs. Half-precision inputs hold values already rounded to half, so the
// reference sees exactly what the kernel gets.
struct Problem {
  Dims dims;
  std::vector<float> a;     // m × k, row-major
  std::vector<float> b;     // k × n, row-major
  std::vector<float> c_in;  // m × n: what c holds before the launch
  float alpha = 1, beta = 0;
};

// Small integers 0, 1, 2, ... so that every expected value can be checked by hand.
Problem worked_problem(const PuzzleSpec& spec, const Dims& d);
// Uniform in [-1, 1), from a portable generator: the same seed gives the same matrices on
// every machine.
Problem random_problem(const PuzzleSpec& spec, const Dims& d, std::uint64_t seed);

// IEEE half bits of a value that is already a half (round_to_half's output).
std::uint16_t half_bits(float v);
float round_to_half(float v);

struct Reference {
  Dims dims;
  std::vector<double> value;      // m × n
  std::vector<double> tolerance;  // what float32 rounding over k terms can explain
};
Reference reference_result(const PuzzleSpec& spec, const Problem& p);

struct Comparison {
  Dims dims;  // c is dims.m × dims.n
  std::size_t wrong = 0;      // a value, but not the right one (NaN included)
  std::size_t unwritten = 0;  // still what the checker put there before the launch
  std::vector<std::size_t> first_wrong;      // up to 5 indices
  std::vector<std::size_t> first_unwritten;  // up to 5 indices
  std::vector<char> marks;  // per element: '.' right, 'X' wrong, '?' never written
  bool ok() const { return wrong == 0 && unwritten == 0; }
};
// `before`: c as uploaded before the launch; an element with the same bits was not written
// (unless that happens to be the right value).
Comparison compare(const std::vector<float>& out, const std::vector<float>& before, const Reference& ref);

}  // namespace checker

// The reference product that every case is checked against. It is split across the host's
// cores for large cases; each row must still come out exactly as a plain loop computes it.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "checker/matrices.h"
#include "checker/puzzle.h"

namespace {

// c = relu(a · b) in double, row by row, in the same order as the reference: i, then k, then j.
std::vector<double> plain_relu_product(const checker::Problem& p) {
  const std::size_t m = p.dims.m, n = p.dims.n, k = p.dims.k;
  std::vector<double> c(m * n, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t kk = 0; kk < k; ++kk)
      for (std::size_t j = 0; j < n; ++j) c[i * n + j] += double(p.a[i * k + kk]) * p.b[kk * n + j];
  for (double& v : c) v = v > 0 ? v : 0.0;
  return c;
}

void check_same_as_plain_loop(const checker::Dims& d) {
  const checker::PuzzleSpec& spec = checker::find_puzzle("p06_register_tiling");  // c = relu(a · b), any m, n, k
  REQUIRE(spec.epilogue == checker::Epilogue::relu);
  checker::Problem p = checker::random_problem(spec, d, 7);
  checker::Reference ref = checker::reference_result(spec, p);
  std::vector<double> expected = plain_relu_product(p);
  REQUIRE(ref.value.size() == expected.size());
  std::size_t differing = 0, zero_tolerance = 0, positive = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    differing += std::memcmp(&ref.value[i], &expected[i], sizeof(double)) != 0;
    zero_tolerance += !(ref.tolerance[i] > 0);
    positive += expected[i] > 0;
  }
  CHECK(differing == 0);
  CHECK(zero_tolerance == 0);
  CHECK(positive > expected.size() / 4);  // random signs: about half the sums survive relu
}

}  // namespace

TEST_CASE("the reference product of a large case, split across cores, equals a plain loop bit for bit") {
  check_same_as_plain_loop(checker::Dims{301, 257, 203});  // 15.7 million multiply-adds: split
}

TEST_CASE("the reference product of a small case equals a plain loop bit for bit") {
  check_same_as_plain_loop(checker::Dims{33, 65, 17});
}

#include "checker/matrices.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace checker {
namespace {

constexpr std::uint32_t kUnwrittenBits = 0x7FC0DEADu;

// splitmix64: tiny, portable, and good enough for test matrices.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float uniform() {  // [-1, 1), 24 random bits
    return static_cast<float>(next() >> 40) * (2.0f / 16777216.0f) - 1.0f;
  }
};

void fill_b(KernelShape shape, Inputs& in) {
  std::size_t n = static_cast<std::size_t>(in.n);
  if (shape == KernelShape::single_aat) {
    in.b.resize(n * n);
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < n; ++c) in.b[r * n + c] = in.a[c * n + r];
  }
}

}  // namespace

float unwritten_marker() {
  float f;
  std::memcpy(&f, &kUnwrittenBits, sizeof f);
  return f;
}

bool is_unwritten(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits == kUnwrittenBits;
}

Inputs worked_inputs(KernelShape shape, int n) {
  Inputs in;
  in.n = n;
  std::size_t count = static_cast<std::size_t>(n) * n;
  in.a.resize(count);
  for (std::size_t i = 0; i < count; ++i) in.a[i] = static_cast<float>(i);
  if (shape == KernelShape::matmul) {
    in.b.resize(count);  // 1, 2, 3, ...: not a itself, so swapping a and b shows
    for (std::size_t i = 0; i < count; ++i) in.b[i] = static_cast<float>(count - i);
  }
  fill_b(shape, in);
  return in;
}

Inputs random_inputs(KernelShape shape, int n, std::uint64_t seed) {
  Inputs in;
  in.n = n;
  std::size_t count = static_cast<std::size_t>(n) * n;
  SplitMix64 rng{seed * 1000003ull + static_cast<std::uint64_t>(n)};
  in.a.resize(count);
  for (float& v : in.a) v = rng.uniform();
  if (shape == KernelShape::matmul) {
    in.b.resize(count);
    for (float& v : in.b) v = rng.uniform();
  }
  fill_b(shape, in);
  return in;
}

Reference reference_product(const Inputs& in) {
  std::size_t n = static_cast<std::size_t>(in.n);
  Reference ref;
  ref.n = in.n;
  ref.value.assign(n * n, 0.0);
  std::vector<double> magnitude(n * n, 0.0);
  // i-k-j order: the inner loop walks rows of b and c contiguously.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      double aik = in.a[i * n + k];
      const float* brow = &in.b[k * n];
      double* crow = &ref.value[i * n];
      double* mrow = &magnitude[i * n];
      for (std::size_t j = 0; j < n; ++j) {
        double p = aik * brow[j];
        crow[j] += p;
        mrow[j] += std::fabs(p);
      }
    }
  // A float32 sum of n products is off by at most about n·2⁻²⁴·Σ|a·b| (each rounding
  // adds at most 2⁻²⁴ of the running magnitude); twice that leaves room for any order.
  const double u = std::ldexp(1.0, -24);
  ref.tolerance.resize(n * n);
  for (std::size_t i = 0; i < n * n; ++i)
    ref.tolerance[i] = 2.0 * (static_cast<double>(n) + 1.0) * u * magnitude[i] +
                       std::numeric_limits<float>::min();
  return ref;
}

Comparison compare(const std::vector<float>& out, const Reference& ref) {
  Comparison c;
  c.n = ref.n;
  c.marks.resize(out.size(), '.');
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (is_unwritten(out[i])) {
      c.marks[i] = '?';
      if (c.first_unwritten.size() < 5) c.first_unwritten.push_back(i);
      ++c.unwritten;
    } else if (!(std::fabs(static_cast<double>(out[i]) - ref.value[i]) <= ref.tolerance[i])) {
      c.marks[i] = 'X';
      if (c.first_wrong.size() < 5) c.first_wrong.push_back(i);
      ++c.wrong;
    }
  }
  return c;
}

}  // namespace checker

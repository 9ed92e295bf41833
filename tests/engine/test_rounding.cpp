// CUDA's directed-rounding intrinsics on the CPU backend (cuda_cpu/rounding_intrinsics.h): the
// fast path (the nearest result and the sign of its exact error) must give, bit for bit, what
// the machine gives when it computes in that rounding mode, for every kind of operand.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cuda_cpu/rounding_intrinsics.h"

namespace {

using cuda_cpu::Rounding;

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <typename T>
T from_bits(Bits<T> bits) {
  T x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

template <typename T>
bool same(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Operands of every kind: special values, values at the fast path's edges, random bit
// patterns (subnormals, infinities and NaNs among them) and random values of moderate size
// (where sums cancel and many results are exact).
template <typename T>
std::vector<T> operands(std::mt19937_64& random) {
  using limits = std::numeric_limits<T>;
  const T edge = std::ldexp(limits::min(), 2 * limits::digits + 2);
  std::vector<T> values = {T(0),        T(1),          T(2),           T(3),          T(10),
                           T(1) / 3,    T(0.1),        limits::min(),  limits::denorm_min(),
                           limits::max(), limits::infinity(), limits::quiet_NaN(), limits::epsilon(),
                           edge,        std::nextafter(edge, T(0)), std::nextafter(edge, limits::infinity()),
                           std::sqrt(limits::max()), std::sqrt(limits::min())};
  const std::size_t specials = values.size();
  for (std::size_t i = 0; i < specials; ++i) values.push_back(-values[i]);
  for (int i = 0; i < 3000; ++i) values.push_back(from_bits<T>(static_cast<Bits<T>>(random())));
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-30, 30), sign(0, 1);
  for (int i = 0; i < 3000; ++i) {
    T x = static_cast<T>(std::ldexp(mantissa(random), exponent(random)));
    values.push_back(sign(random) ? -x : x);
  }
  return values;
}

template <typename T>
std::string exact(T x) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", static_cast<double>(x));
  return text;
}

const char* name_of(Rounding direction) {
  return direction == Rounding::down ? "down" : direction == Rounding::up ? "up" : "toward zero";
}

template <typename T>
void check_every_operation() {
  std::mt19937_64 random(20261130);
  const std::vector<T> values = operands<T>(random);
  std::uniform_int_distribution<std::size_t> pick(0, values.size() - 1);
  unsigned mismatches = 0;
  std::string first;
  auto expect = [&](const char* what, Rounding direction, T a, T b, T fast, T machine) {
    if (same(fast, machine)) return;
    if (mismatches++ == 0)
      first = std::string(what) + " rounded " + name_of(direction) + " of " + exact(a) + " and " + exact(b) + ": " +
              exact(fast) + ", the machine " + exact(machine);
  };
  for (Rounding direction : {Rounding::down, Rounding::up, Rounding::toward_zero}) {
    for (int i = 0; i < 200000; ++i) {
      // Half the pairs close to each other (sums that cancel, quotients near 1).
      const T a = values[pick(random)];
      const T b = i % 2 ? values[pick(random)] : -std::nextafter(a, std::numeric_limits<T>::infinity());
      expect("sum", direction, a, b, cuda_cpu::add_rounded(direction, a, b),
             cuda_cpu::rounded_under_mode(direction, a, b, [](T x, T y) { return x + y; }));
      expect("product", direction, a, b, cuda_cpu::mul_rounded(direction, a, b),
             cuda_cpu::rounded_under_mode(direction, a, b, [](T x, T y) { return x * y; }));
      expect("quotient", direction, a, b, cuda_cpu::div_rounded(direction, a, b),
             cuda_cpu::rounded_under_mode(direction, a, b, [](T x, T y) { return x / y; }));
      expect("square root", direction, a, T(0), cuda_cpu::sqrt_rounded(direction, a),
             cuda_cpu::rounded_under_mode(direction, a, T(0), [](T x, T) { return std::sqrt(x); }));
    }
  }
  INFO(first);
  CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("directed rounding (__fadd_rd, __dmul_ru, __fsqrt_rz, ...) gives the machine's bits in each rounding mode") {
  SUBCASE("float") { check_every_operation<float>(); }
  SUBCASE("double") { check_every_operation<double>(); }
}

TEST_CASE("CUDA's names for directed rounding round in their direction") {
  CHECK(__fadd_rd(1.0f, 1e-10f) == 1.0f);
  CHECK(__fadd_ru(1.0f, 1e-10f) == std::nextafter(1.0f, 2.0f));
  CHECK(__fsub_rz(-1.0f, 1e-10f) == -1.0f);
  CHECK(__fsub_rd(-1.0f, 1e-10f) == std::nextafter(-1.0f, -2.0f));
  CHECK(__ddiv_rd(1.0, 3.0) < __ddiv_ru(1.0, 3.0));
  CHECK(__drcp_rz(3.0) == __ddiv_rd(1.0, 3.0));
  CHECK(__dsqrt_ru(2.0) == std::nextafter(__dsqrt_rd(2.0), 3.0));
  CHECK(__dmul_rd(0.1, 0.1) < __dmul_ru(0.1, 0.1));
  CHECK(__fmul_ru(3.0f, 1.0f / 3.0f) >= 1.0f);
}

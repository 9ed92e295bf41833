// CUDA's arithmetic intrinsics with a rounding mode in their name (__fadd_rd, __dmul_ru,
// __fsqrt_rz, ...), for the CPU backend: each rounds once, in the direction asked, as the GPU
// does (interval arithmetic relies on it). The _rn forms are in device_functions.h.
//
// How: the operation in the default rounding (to nearest), then its exact error, whose sign
// says whether the directed result is that one or its neighbour: TwoSum for sums, an fma for
// products, quotients' remainders and square roots' (each exact where the operands and result
// are finite and away from underflow, which the fast path checks). Everything else (zeros,
// infinities, NaNs, tiny or overflowing results, and builds with -ffast-math, which may
// reassociate TwoSum away) runs the operation under the C library's rounding mode of the same
// name: exact too, and about thirty times slower, which programs that call these in every
// step of a loop would feel. tests/engine/test_rounding.cpp compares the two, bit for bit.
#ifndef CUDA_CPU_ROUNDING_INTRINSICS_H_
#define CUDA_CPU_ROUNDING_INTRINSICS_H_

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace cuda_cpu {

enum class Rounding { down, up, toward_zero };

// The operation under the rounding mode of the C library. The operands and the result pass
// through volatile variables, so that the operation is neither folded at compile time nor
// moved across the rounding-mode changes.
template <typename T, typename Op>
inline T rounded_under_mode(Rounding direction, T a, T b, Op op) {
  const int mode = direction == Rounding::down ? FE_DOWNWARD : direction == Rounding::up ? FE_UPWARD : FE_TOWARDZERO;
  const int saved = std::fegetround();
  std::fesetround(mode);
  volatile T x = a, y = b;
  volatile T result = op(static_cast<T>(x), static_cast<T>(y));
  std::fesetround(saved);
  return result;
}

namespace rounding_detail {

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

// The neighbour of a finite, nonzero x, one step further from zero or one step nearer.
template <typename T>
inline T step(T x, bool away_from_zero) {
  Bits<T> bits;
  std::memcpy(&bits, &x, sizeof x);
  bits = away_from_zero ? bits + 1 : bits - 1;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// The result rounded in `direction`, from r, the nearest, and the sign of the exact error
// (exact - r). r is finite and nonzero.
template <typename T>
inline T direct(T r, int error_sign, Rounding direction) {
  if (error_sign == 0) return r;
  const bool below = error_sign < 0;  // the exact result is below r
  switch (direction) {
    case Rounding::down:
      return below ? step(r, r < 0) : r;
    case Rounding::up:
      return below ? r : step(r, r > 0);
    case Rounding::toward_zero:
      return (r > 0) == below ? step(r, false) : r;
  }
  return r;
}

template <typename T>
inline int sign_of(T x) {
  return (x > 0) - (x < 0);
}

// Magnitudes from which the error terms below are exact: their lowest bits lie at most
// 2 * digits below the result's, and stay above the smallest subnormal.
template <typename T>
inline bool clear_of_underflow(T x) {
  return std::fabs(x) >= std::ldexp(std::numeric_limits<T>::min(), 2 * std::numeric_limits<T>::digits + 2);
}

template <typename T>
inline bool usable(T x) {
#if defined(__FAST_MATH__)
  (void)x;
  return false;
#else
  return std::isfinite(x) && x != 0;
#endif
}

}  // namespace rounding_detail

template <typename T>
inline T add_rounded(Rounding direction, T a, T b) {
  using namespace rounding_detail;
  const T sum = a + b;
  if (usable(sum) && std::isfinite(a) && std::isfinite(b)) {
    const T b_part = sum - a;  // TwoSum: sum + error == a + b exactly
    const T error = (a - (sum - b_part)) + (b - b_part);
    if (std::isfinite(error)) return direct(sum, sign_of(error), direction);
  }
  return rounded_under_mode(direction, a, b, [](T x, T y) { return x + y; });
}

template <typename T>
inline T mul_rounded(Rounding direction, T a, T b) {
  using namespace rounding_detail;
  const T product = a * b;
  if (usable(product) && clear_of_underflow(product))
    return direct(product, sign_of(std::fma(a, b, -product)), direction);
  return rounded_under_mode(direction, a, b, [](T x, T y) { return x * y; });
}

template <typename T>
inline T div_rounded(Rounding direction, T a, T b) {
  using namespace rounding_detail;
  const T quotient = a / b;
  if (usable(quotient) && clear_of_underflow(quotient) && usable(a) && clear_of_underflow(a) && usable(b)) {
    // a - quotient * b, exact: positive when the quotient is too small for b > 0.
    const T remainder = std::fma(-quotient, b, a);
    return direct(quotient, sign_of(remainder) * sign_of(b), direction);
  }
  return rounded_under_mode(direction, a, b, [](T x, T y) { return x / y; });
}

template <typename T>
inline T sqrt_rounded(Rounding direction, T a) {
  using namespace rounding_detail;
  const T root = std::sqrt(a);
  if (usable(root) && a > 0 && clear_of_underflow(a)) return direct(root, sign_of(std::fma(-root, root, a)), direction);
  return rounded_under_mode(direction, a, T(0), [](T x, T) { return std::sqrt(x); });
}

}  // namespace cuda_cpu

#define CUDA_CPU_ROUNDED(suffix, direction)                                                              \
  inline float __fadd_##suffix(float a, float b) { return cuda_cpu::add_rounded(direction, a, b); }           \
  inline float __fsub_##suffix(float a, float b) { return cuda_cpu::add_rounded(direction, a, -b); }          \
  inline float __fmul_##suffix(float a, float b) { return cuda_cpu::mul_rounded(direction, a, b); }           \
  inline float __fdiv_##suffix(float a, float b) { return cuda_cpu::div_rounded(direction, a, b); }           \
  inline float __frcp_##suffix(float a) { return cuda_cpu::div_rounded(direction, 1.0f, a); }                 \
  inline float __fsqrt_##suffix(float a) { return cuda_cpu::sqrt_rounded(direction, a); }                     \
  inline double __dadd_##suffix(double a, double b) { return cuda_cpu::add_rounded(direction, a, b); }        \
  inline double __dsub_##suffix(double a, double b) { return cuda_cpu::add_rounded(direction, a, -b); }       \
  inline double __dmul_##suffix(double a, double b) { return cuda_cpu::mul_rounded(direction, a, b); }        \
  inline double __ddiv_##suffix(double a, double b) { return cuda_cpu::div_rounded(direction, a, b); }        \
  inline double __drcp_##suffix(double a) { return cuda_cpu::div_rounded(direction, 1.0, a); }                \
  inline double __dsqrt_##suffix(double a) { return cuda_cpu::sqrt_rounded(direction, a); }
CUDA_CPU_ROUNDED(rd, cuda_cpu::Rounding::down)
CUDA_CPU_ROUNDED(ru, cuda_cpu::Rounding::up)
CUDA_CPU_ROUNDED(rz, cuda_cpu::Rounding::toward_zero)
#undef CUDA_CPU_ROUNDED

#endif  // CUDA_CPU_ROUNDING_INTRINSICS_H_

#include "tensor_math.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace engine::cpu::tensor {
namespace {

float from_bits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
std::uint32_t to_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

constexpr std::uint32_t kCanonicalNaN = 0x7FFFFFFFu;  // what the tensor cores give for NaN

// Rounds an exact double to float toward zero (the double holds at most 53 bits, so this is
// exact when the value is itself a float).
float round_toward_zero(double v) {
  float f = static_cast<float>(v);  // to nearest
  if (std::isinf(f) && !std::isinf(v)) return std::copysign(std::numeric_limits<float>::max(), static_cast<float>(v));
  if (std::fabs(static_cast<double>(f)) > std::fabs(v)) f = std::nextafter(f, 0.0f);
  return f;
}

}  // namespace

float half_to_float(std::uint16_t h) {
  std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  std::uint32_t exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
  if (exponent == 0x1F) return from_bits(sign | 0x7F800000u | (mantissa << 13));
  if (exponent == 0) {
    // Zero or subnormal: mantissa · 2^-24, exact in float.
    float v = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -v : v;
  }
  return from_bits(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float bf16_to_float(std::uint16_t b) { return from_bits(std::uint32_t(b) << 16); }

float tf32_to_float(std::uint32_t bits) {
  if ((bits & 0x7F800000u) == 0x7F800000u) return from_bits(bits);  // inf and NaN keep their class
  return from_bits(bits & 0xFFFFE000u);
}

std::uint16_t float_to_half_rn(float value) {
  std::uint32_t x = to_bits(value);
  std::uint32_t sign = (x >> 16) & 0x8000u;
  std::uint32_t abs = x & 0x7FFFFFFFu;
  if (abs > 0x7F800000u) return 0x7FFF;  // NaN: CUDA's canonical half NaN
  if (abs >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds to infinity
  if (abs < 0x38800000u) {
    // Subnormal half (or zero): the value in units of 2^-24, rounded to nearest even.
    float scaled = from_bits(abs) * 16777216.0f;  // exact: a power of two
    float r = std::nearbyint(scaled);
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(r));
  }
  std::uint32_t mantissa = abs & 0x7FFFFFu;
  std::uint32_t exponent = (abs >> 23) - 112;
  std::uint32_t h = (exponent << 10) | (mantissa >> 13);
  std::uint32_t rest = mantissa & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

std::uint16_t float_to_bf16_rn(float value) {
  std::uint32_t x = to_bits(value);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FFF;
  std::uint32_t rounding = 0x7FFFu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>((x + rounding) >> 16);
}

std::uint32_t float_to_tf32_rna(float value) {
  std::uint32_t x = to_bits(value);
  if ((x & 0x7F800000u) == 0x7F800000u) return x;  // inf, NaN
  return (x + 0x1000u) & 0xFFFFE000u;              // to nearest, ties away from zero
}

namespace {

constexpr int kKeptBits = 25;  // below the largest exponent: measured, see the header

int hardware_exponent(double v, int min_exponent) { return std::max(std::ilogb(v), min_exponent); }

enum class Special { none, nan, infinite };

// IEEE's answer where an input is NaN or infinite: the sum is then that, whatever the rest.
Special special_sum(const float* a, const float* b, unsigned k, float c, double& infinity) {
  double plain = c;
  bool nan = std::isnan(c);
  for (unsigned i = 0; i < k; ++i) {
    double p = static_cast<double>(a[i]) * static_cast<double>(b[i]);
    nan |= std::isnan(p);
    plain += p;
  }
  if (nan || std::isnan(plain)) return Special::nan;
  if (std::isinf(plain)) {
    infinity = plain;
    return Special::infinite;
  }
  return Special::none;
}

// The cut terms' exact sum (see the header).
double truncated_sum(const float* a, const float* b, unsigned k, float c, int input_min_exponent,
                     int c_min_exponent) {
  double terms[65];
  int exponents[65];
  unsigned n = 0;
  if (c != 0) {
    terms[n] = c;
    exponents[n++] = hardware_exponent(c, c_min_exponent);
  }
  for (unsigned i = 0; i < k; ++i) {
    if (a[i] == 0 || b[i] == 0) continue;
    terms[n] = static_cast<double>(a[i]) * static_cast<double>(b[i]);
    exponents[n++] = hardware_exponent(a[i], input_min_exponent) + hardware_exponent(b[i], input_min_exponent);
  }
  if (n == 0) return 0;
  int largest = *std::max_element(exponents, exponents + n);
  double unit = std::ldexp(1.0, largest - kKeptBits);
  double sum = 0;
  for (unsigned i = 0; i < n; ++i) sum += std::trunc(terms[i] / unit) * unit;  // exact: see the header
  return sum;
}

// As in IEEE addition, a zero sum is -0 only when every term is -0.
bool all_negative_zeros(const float* a, const float* b, unsigned k, float c) {
  if (!(c == 0 && std::signbit(c))) return false;
  for (unsigned i = 0; i < k; ++i) {
    float p = a[i] * b[i];
    if (!(p == 0 && std::signbit(p))) return false;
  }
  return true;
}

}  // namespace

float dot_to_float(const float* a, const float* b, unsigned k, float c, int input_min_exponent) {
  double infinity = 0;
  switch (special_sum(a, b, k, c, infinity)) {
    case Special::nan: return from_bits(kCanonicalNaN);
    case Special::infinite: return static_cast<float>(infinity);
    case Special::none: break;
  }
  double sum = truncated_sum(a, b, k, c, input_min_exponent, -126);
  if (sum == 0) return all_negative_zeros(a, b, k, c) ? -0.0f : 0.0f;
  return round_toward_zero(sum);
}

std::uint16_t dot_to_half(const float* a, const float* b, unsigned k, float c, int input_min_exponent,
                          int c_min_exponent) {
  double infinity = 0;
  switch (special_sum(a, b, k, c, infinity)) {
    case Special::nan: return 0x7FFF;
    case Special::infinite: return infinity > 0 ? 0x7C00 : 0xFC00;
    case Special::none: break;
  }
  double sum = truncated_sum(a, b, k, c, input_min_exponent, c_min_exponent);
  if (sum == 0) return all_negative_zeros(a, b, k, c) ? 0x8000 : 0x0000;
  // Straight to half, to nearest even: the sum's bits below a half's are all still there.
  double magnitude = std::fabs(sum);
  double unit = std::ldexp(1.0, std::max(std::ilogb(magnitude), -14) - 10);
  double q = magnitude / unit, whole = std::floor(q);
  if (q - whole > 0.5 || (q - whole == 0.5 && std::fmod(whole, 2.0) == 1.0)) whole += 1;
  double rounded = whole * unit;
  if (rounded >= 65536.0) return sum < 0 ? 0xFC00 : 0x7C00;
  std::uint16_t h = float_to_half_rn(static_cast<float>(rounded));  // exact: `rounded` is a half
  return sum < 0 ? static_cast<std::uint16_t>(h | 0x8000u) : h;
}

}  // namespace engine::cpu::tensor

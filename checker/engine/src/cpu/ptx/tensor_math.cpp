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

SumModel sum_model_for(unsigned input_bits, unsigned k) {
  (void)input_bits;
  SumModel m;
  m.group = static_cast<int>(k);
  m.fraction_bits = 24;
  m.round_to_nearest = false;
  return m;
}

float dot(const float* a, const float* b, unsigned k, float c, const SumModel& model) {
  // NaN and infinities first, as IEEE arithmetic would have them.
  double plain = c;
  bool nan = std::isnan(c);
  for (unsigned i = 0; i < k; ++i) {
    double p = static_cast<double>(a[i]) * static_cast<double>(b[i]);
    nan |= std::isnan(p);
    plain += p;
  }
  if (nan || std::isnan(plain)) return from_bits(kCanonicalNaN);
  if (std::isinf(plain)) return static_cast<float>(plain);

  float acc = c;
  for (unsigned first = 0; first < k; first += static_cast<unsigned>(model.group)) {
    unsigned last = first + static_cast<unsigned>(model.group) < k ? first + static_cast<unsigned>(model.group) : k;
    double terms[33];
    unsigned n = 0;
    terms[n++] = acc;
    for (unsigned i = first; i < last; ++i) terms[n++] = static_cast<double>(a[i]) * static_cast<double>(b[i]);
    int emax = std::numeric_limits<int>::min();
    for (unsigned i = 0; i < n; ++i)
      if (terms[i] != 0) emax = std::max(emax, std::ilogb(terms[i]));
    if (emax == std::numeric_limits<int>::min()) {
      acc = acc + 0.0f;  // every term is zero: keep the sign rules of IEEE addition
      continue;
    }
    // Each term cut toward zero to a multiple of 2^(emax - fraction_bits); the sum is exact.
    double ulp = std::ldexp(1.0, emax - model.fraction_bits);
    double sum = 0;
    for (unsigned i = 0; i < n; ++i) sum += std::trunc(terms[i] / ulp) * ulp;
    acc = model.round_to_nearest ? static_cast<float>(sum) : round_toward_zero(sum);
  }
  return acc;
}

}  // namespace engine::cpu::tensor

// <cuda_bf16.h> for the CPU backend: CUDA's bfloat16 types and intrinsics, written from
// scratch in portable C++17, giving the same bits as the GPU.
//
// Kernel sources say `#include <cuda_bf16.h>`; nvcc finds CUDA's own header, the CPU build
// finds this one (compat/ is on its include path). As CUDA's does, it includes
// <cuda_fp16.h>; host code that uploads bf16 buffers may include it too.
//
// Names, parameter types and C++ behaviour (implicit conversions from float, double and the
// integers; an explicit one from __half; operators computed with the intrinsics) follow
// CUDA's cuda_bf16.h. Not here: the transcendental and square-root functions (GPU
// approximations), atomics and cache-hinted loads.
//
// Numerics (the rules of cuda_fp16.h, for a format with 8 exponent and 7 fraction bits):
// - Every rounding is done once, on integers. Subnormals are kept, never flushed.
// - Conversions from float, double and the integers round in the mode named (_rn, _rz,
//   _rd, _ru); add, sub, mul, fma and div are correctly rounded to nearest even. Sums whose
//   terms lie far apart are rounded from an exact sum with a sticky bit, never through a
//   double (which is not exact for every sum of two bfloat16s).
// - A NaN result is the canonical 0x7FFF (CUDART_NAN_BF16): arithmetic, __hneg, __habs,
//   float -> bf16. double -> bf16 keeps the NaN's sign and top payload bits (quieted), as
//   the GPU does for double -> half. bf16 -> float is exact, NaN payloads included (the GPU
//   moves the bits).
// - __hmax/__hmin return the other input when one is NaN, 0x7FFF when both are, and put -0
//   below +0; the _nan forms return 0x7FFF for any NaN input. _sat clamps to [+0, 1] (NaN to
//   +0), _relu clamps negatives to +0 (NaN stays 0x7FFF).
// - bf16 -> integer rounds in the mode named, saturates, and gives 0 for NaN
//   (0x8000000000000000 for the 64-bit types).
// - __hdiv: the GPU divides in float with div.approx.f32 and rounds that to bf16, which is
//   the correctly rounded quotient wherever the quotient is a normal bf16 (its error, two
//   float ulps, is far below the distance of any quotient of two bfloat16s from a rounding
//   boundary); here it is always the correctly rounded quotient.
// Caveat for kernels, as with halves: ptxas may fuse `a * b + c` (operators, __hmul and
// __hadd) into one fma on the GPU; __hfma, or __hmul_rn and __hadd_rn, are never fused.
#ifndef CUDA_CPU_COMPAT_CUDA_BF16_H_
#define CUDA_CPU_COMPAT_CUDA_BF16_H_

#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "cuda_fp16.h"

// ---------------------------------------------------------------------------------------
// Bit-level arithmetic on the 16-bit patterns.
namespace cuda_cpu {
namespace bf16_detail {

enum class Round { nearest_even, toward_zero, down, up };
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

constexpr std::uint16_t kCanonicalNaN = 0x7FFF;
constexpr std::uint16_t kInfinity = 0x7F80;
constexpr std::uint16_t kMaxFinite = 0x7F7F;
constexpr std::uint16_t kOne = 0x3F80;

inline bool is_nan(std::uint16_t h) { return (h & 0x7FFFu) > kInfinity; }
inline bool is_inf(std::uint16_t h) { return (h & 0x7FFFu) == kInfinity; }
inline bool is_zero(std::uint16_t h) { return (h & 0x7FFFu) == 0; }
inline bool sign_of(std::uint16_t h) { return (h & 0x8000u) != 0; }

inline int highest_bit(std::uint64_t v) { return 63 - __builtin_clzll(v); }  // v != 0

inline std::uint16_t overflow(bool negative, Round mode) {
  const bool to_infinity = mode == Round::nearest_even || (mode == Round::up && !negative) ||
                           (mode == Round::down && negative);
  return static_cast<std::uint16_t>((negative ? 0x8000u : 0u) | (to_infinity ? kInfinity : kMaxFinite));
}

// Rounds the exact value (-1)^negative * (sig + f) * 2^exp to bf16, where 0 <= f < 1 and f
// is nonzero exactly when `sticky`. Requires sig != 0.
inline std::uint16_t round_to_bf16(bool negative, std::uint64_t sig, int exp, bool sticky, Round mode) {
  const std::uint16_t sign = negative ? 0x8000u : 0u;
  const int e = highest_bit(sig) + exp;  // the value lies in [2^e, 2^(e+1))
  if (e > 127) return overflow(negative, mode);
  const int binade = e < -126 ? -126 : e;  // subnormals share the ulp of the lowest binade
  const int shift = (binade - 7) - exp;    // bits of sig below the bf16's ulp
  std::uint64_t q;
  bool half_bit, below;
  if (shift <= 0) {
    q = sig << -shift;  // exact: q < 2^8
    half_bit = false;
    below = sticky;
  } else if (shift > 64) {
    q = 0;
    half_bit = false;
    below = true;
  } else {
    q = shift == 64 ? 0 : sig >> shift;
    half_bit = ((sig >> (shift - 1)) & 1u) != 0;
    const std::uint64_t rest = shift == 1 ? 0 : sig & ((std::uint64_t{1} << (shift - 1)) - 1);
    below = sticky || rest != 0;
  }
  bool up = false;
  switch (mode) {
    case Round::nearest_even: up = half_bit && (below || (q & 1u) != 0); break;
    case Round::toward_zero: up = false; break;
    case Round::down: up = negative && (half_bit || below); break;
    case Round::up: up = !negative && (half_bit || below); break;
  }
  q += up ? 1u : 0u;
  // Normal: q in [2^7, 2^8] and the hidden bit carries into the exponent field; subnormal:
  // the field is 0 and q <= 2^7.
  const std::uint64_t bits = (static_cast<std::uint64_t>(binade + 126) << 7) + q;
  if (bits >= kInfinity) return overflow(negative, mode);
  return static_cast<std::uint16_t>(sign | bits);
}

// The same from a 128-bit significand: its low bits fold into the sticky bit.
inline std::uint16_t round_wide(bool negative, u128 sig, int exp, bool sticky, Round mode) {
  while ((sig >> 64) != 0) {
    sticky = sticky || (sig & 1u) != 0;
    sig >>= 1;
    ++exp;
  }
  return round_to_bf16(negative, static_cast<std::uint64_t>(sig), exp, sticky, mode);
}

// A finite bf16 as sig * 2^exp (sig < 2^8).
struct Unpacked {
  bool negative;
  std::uint64_t sig;
  int exp;
};
inline Unpacked unpack(std::uint16_t h) {
  const unsigned field = (h >> 7) & 0xFFu;
  const unsigned mantissa = h & 0x7Fu;
  if (field == 0) return {sign_of(h), mantissa, -133};
  return {sign_of(h), mantissa | 0x80u, static_cast<int>(field) - 134};
}

// --- Conversions ------------------------------------------------------------------------
inline std::uint16_t from_float(float f, Round mode) {
  const std::uint32_t u = fp16_detail::float_bits(f);
  const bool negative = (u >> 31) != 0;
  const std::uint32_t field = (u >> 23) & 0xFFu;
  const std::uint32_t mantissa = u & 0x7FFFFFu;
  if (field == 0xFF) {
    if (mantissa != 0) return kCanonicalNaN;
    return static_cast<std::uint16_t>((negative ? 0x8000u : 0u) | kInfinity);
  }
  if (field == 0 && mantissa == 0) return negative ? 0x8000u : 0u;
  const std::uint64_t sig = field == 0 ? mantissa : (mantissa | 0x800000u);
  const int exp = (field == 0 ? 1 : static_cast<int>(field)) - 150;
  return round_to_bf16(negative, sig, exp, false, mode);
}

inline std::uint16_t from_double(double d, Round mode) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  const bool negative = (u >> 63) != 0;
  const std::uint64_t field = (u >> 52) & 0x7FFu;
  const std::uint64_t mantissa = u & 0xFFFFFFFFFFFFFull;
  if (field == 0x7FF) {  // a NaN keeps its sign and top payload bits, made quiet
    const std::uint64_t payload = mantissa != 0 ? (0x40u | (mantissa >> 45)) : 0u;
    return static_cast<std::uint16_t>((negative ? 0x8000u : 0u) | kInfinity | payload);
  }
  if (field == 0 && mantissa == 0) return negative ? 0x8000u : 0u;
  const std::uint64_t sig = field == 0 ? mantissa : (mantissa | 0x10000000000000ull);
  const int exp = (field == 0 ? 1 : static_cast<int>(field)) - 1075;
  return round_to_bf16(negative, sig, exp, false, mode);
}

template <typename I>
inline std::uint16_t from_any_integer(I i, Round mode) {
  bool negative = false;
  std::uint64_t magnitude;
  if constexpr (std::is_signed<I>::value) {
    negative = i < 0;
    magnitude = negative ? 0 - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i);
  } else {
    magnitude = static_cast<std::uint64_t>(i);
  }
  if (magnitude == 0) return 0;  // integers have no -0
  return round_to_bf16(negative, magnitude, 0, false, mode);
}

// Exact: a bf16 is the top half of a float.
inline float to_float(std::uint16_t h) { return fp16_detail::bits_float(static_cast<std::uint32_t>(h) << 16); }

// A finite bf16 rounded to an integer, as a sign and a magnitude; magnitudes of 2^64 or
// more come back as 2^64 (every caller saturates them).
inline i128 to_integer(std::uint16_t h, Round mode) {
  const Unpacked v = unpack(h);
  if (v.sig == 0) return 0;
  u128 q;
  if (v.exp >= 0) {
    q = highest_bit(v.sig) + v.exp >= 64 ? (u128{1} << 64) : (static_cast<u128>(v.sig) << v.exp);
  } else {
    const int shift = -v.exp;  // 1..133
    if (shift > 64) {
      q = 0;
      const bool up = (mode == Round::down && v.negative) || (mode == Round::up && !v.negative);
      q = up ? 1 : 0;  // |value| < 2^-56: only a directed rounding away from zero gives 1
    } else {
      q = shift == 64 ? 0 : v.sig >> shift;
      const bool half_bit = ((v.sig >> (shift - 1)) & 1u) != 0;
      const bool below = shift > 1 && (v.sig & ((std::uint64_t{1} << (shift - 1)) - 1)) != 0;
      bool up = false;
      switch (mode) {
        case Round::nearest_even: up = half_bit && (below || (q & 1u) != 0); break;
        case Round::toward_zero: up = false; break;
        case Round::down: up = v.negative && (half_bit || below); break;
        case Round::up: up = !v.negative && (half_bit || below); break;
      }
      q += up ? 1u : 0u;
    }
  }
  return v.negative ? -static_cast<i128>(q) : static_cast<i128>(q);
}

template <typename I>
inline I to_integer_saturated(std::uint16_t h, Round mode, I nan_value) {
  if (is_nan(h)) return nan_value;
  constexpr I lo = std::numeric_limits<I>::min();
  constexpr I hi = std::numeric_limits<I>::max();
  if (is_inf(h)) return sign_of(h) ? lo : hi;
  const i128 v = to_integer(h, mode);
  if (v < static_cast<i128>(lo)) return lo;
  if (v > static_cast<i128>(hi)) return hi;
  return static_cast<I>(v);
}

inline std::uint16_t round_to_integral(std::uint16_t h, Round mode) {
  if (is_nan(h)) return kCanonicalNaN;
  if (is_inf(h) || is_zero(h)) return h;
  const Unpacked v = unpack(h);
  if (v.exp >= 0) return h;  // every bf16 of 2^7 or more is an integer
  const i128 r = to_integer(h, mode);
  if (r == 0) return h & 0x8000u;  // keeps the sign: trunc(-0.5) is -0
  const auto magnitude = static_cast<std::uint64_t>(r < 0 ? -r : r);
  return static_cast<std::uint16_t>((h & 0x8000u) | from_any_integer(magnitude, Round::nearest_even));
}

// bf16 <-> half, both rounded once to nearest even.
inline std::uint16_t from_half(std::uint16_t h) {
  if (fp16_detail::is_nan(h)) return kCanonicalNaN;
  if (fp16_detail::is_inf(h)) return static_cast<std::uint16_t>((h & 0x8000u) | kInfinity);
  if (fp16_detail::is_zero(h)) return h & 0x8000u;
  const fp16_detail::Unpacked v = fp16_detail::unpack(h);
  return round_to_bf16(v.negative, v.sig, v.exp, false, Round::nearest_even);
}
inline std::uint16_t to_half(std::uint16_t b) {
  if (is_nan(b)) return fp16_detail::kCanonicalNaN;
  if (is_inf(b)) return static_cast<std::uint16_t>((b & 0x8000u) | fp16_detail::kInfinity);
  if (is_zero(b)) return b & 0x8000u;
  const Unpacked v = unpack(b);
  return fp16_detail::round_to_half(v.negative, v.sig, v.exp, false, fp16_detail::Round::nearest_even);
}

// --- Arithmetic -------------------------------------------------------------------------
// The exact sum of two nonzero terms (-1)^n1 s1 2^e1 + (-1)^n2 s2 2^e2 (s < 2^20), rounded
// once. Where one term lies wholly below the other's last kept bit, it only decides the
// direction of the rounding: it becomes a sticky bit.
inline std::uint16_t add_terms(bool n1, std::uint64_t s1, int e1, bool n2, std::uint64_t s2, int e2, Round mode) {
  if (highest_bit(s1) + e1 < highest_bit(s2) + e2) {
    std::swap(n1, n2);
    std::swap(s1, s2);
    std::swap(e1, e2);
  }
  const int widen = 62 - highest_bit(s1);  // term 1 with its top bit at bit 62
  if (highest_bit(s2) + e2 < e1 - widen) {  // term 2 < one unit of the widened term 1
    const std::uint64_t wide = s1 << widen;
    return round_to_bf16(n1, n1 == n2 ? wide : wide - 1, e1 - widen, true, mode);
  }
  const int exp = e1 < e2 ? e1 : e2;  // exact alignment: < 2^110
  const u128 v1 = static_cast<u128>(s1) << (e1 - exp);
  const u128 v2 = static_cast<u128>(s2) << (e2 - exp);
  if (n1 == n2) return round_wide(n1, v1 + v2, exp, false, mode);
  if (v1 == v2) return mode == Round::down ? 0x8000u : 0u;
  return v1 > v2 ? round_wide(n1, v1 - v2, exp, false, mode) : round_wide(n2, v2 - v1, exp, false, mode);
}

inline std::uint16_t add(std::uint16_t a, std::uint16_t b) {
  if (is_nan(a) || is_nan(b)) return kCanonicalNaN;
  if (is_inf(a) || is_inf(b)) {
    if (is_inf(a) && is_inf(b) && sign_of(a) != sign_of(b)) return kCanonicalNaN;
    return is_inf(a) ? a : b;
  }
  if (is_zero(a) && is_zero(b)) return (a & b & 0x8000u);  // -0 only for -0 + -0
  if (is_zero(a)) return b;
  if (is_zero(b)) return a;
  const Unpacked x = unpack(a), y = unpack(b);
  return add_terms(x.negative, x.sig, x.exp, y.negative, y.sig, y.exp, Round::nearest_even);
}
inline std::uint16_t subtract(std::uint16_t a, std::uint16_t b) { return add(a, static_cast<std::uint16_t>(b ^ 0x8000u)); }

inline std::uint16_t negate(std::uint16_t a) {
  return is_nan(a) ? kCanonicalNaN : static_cast<std::uint16_t>(a ^ 0x8000u);
}
inline std::uint16_t absolute(std::uint16_t a) {
  return is_nan(a) ? kCanonicalNaN : static_cast<std::uint16_t>(a & 0x7FFFu);
}

inline std::uint16_t multiply(std::uint16_t a, std::uint16_t b) {
  if (is_nan(a) || is_nan(b)) return kCanonicalNaN;
  const bool negative = sign_of(a) != sign_of(b);
  const std::uint16_t sign = negative ? 0x8000u : 0u;
  if (is_inf(a) || is_inf(b)) {
    if (is_zero(a) || is_zero(b)) return kCanonicalNaN;
    return static_cast<std::uint16_t>(sign | kInfinity);
  }
  if (is_zero(a) || is_zero(b)) return sign;
  const Unpacked x = unpack(a), y = unpack(b);
  return round_to_bf16(negative, x.sig * y.sig, x.exp + y.exp, false, Round::nearest_even);
}

inline std::uint16_t fma(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  if (is_nan(a) || is_nan(b) || is_nan(c)) return kCanonicalNaN;
  const bool product_negative = sign_of(a) != sign_of(b);
  if (is_inf(a) || is_inf(b)) {
    if (is_zero(a) || is_zero(b)) return kCanonicalNaN;
    if (is_inf(c) && sign_of(c) != product_negative) return kCanonicalNaN;
    return static_cast<std::uint16_t>((product_negative ? 0x8000u : 0u) | kInfinity);
  }
  if (is_inf(c)) return c;
  if (is_zero(a) || is_zero(b)) {
    if (is_zero(c)) return (product_negative && sign_of(c)) ? 0x8000u : 0u;
    return c;
  }
  const Unpacked x = unpack(a), y = unpack(b);
  if (is_zero(c)) return round_to_bf16(product_negative, x.sig * y.sig, x.exp + y.exp, false, Round::nearest_even);
  const Unpacked z = unpack(c);
  return add_terms(product_negative, x.sig * y.sig, x.exp + y.exp, z.negative, z.sig, z.exp, Round::nearest_even);
}

inline std::uint16_t divide(std::uint16_t a, std::uint16_t b) {
  if (is_nan(a) || is_nan(b)) return kCanonicalNaN;
  const bool negative = sign_of(a) != sign_of(b);
  const std::uint16_t sign = negative ? 0x8000u : 0u;
  if (is_inf(a)) return is_inf(b) ? kCanonicalNaN : static_cast<std::uint16_t>(sign | kInfinity);
  if (is_inf(b)) return sign;
  if (is_zero(b)) return is_zero(a) ? kCanonicalNaN : static_cast<std::uint16_t>(sign | kInfinity);
  if (is_zero(a)) return sign;
  const Unpacked x = unpack(a), y = unpack(b);
  const std::uint64_t numerator = x.sig << 55;  // the quotient keeps >= 47 significant bits
  return round_to_bf16(negative, numerator / y.sig, x.exp - y.exp - 55, numerator % y.sig != 0,
                       Round::nearest_even);
}

inline std::uint16_t saturate(std::uint16_t h) {
  if (is_nan(h) || sign_of(h)) return 0;
  return h > kOne ? kOne : h;
}
inline std::uint16_t relu(std::uint16_t h) {
  if (is_nan(h)) return kCanonicalNaN;
  return sign_of(h) ? 0 : h;
}

// Ordered comparisons of the values (NaNs are handled by the callers); a bf16 is a float.
inline bool less(std::uint16_t a, std::uint16_t b) { return to_float(a) < to_float(b); }
inline bool equal(std::uint16_t a, std::uint16_t b) { return to_float(a) == to_float(b); }

inline std::uint16_t maximum(std::uint16_t a, std::uint16_t b, bool nan_wins) {
  if (is_nan(a) || is_nan(b)) {
    if (nan_wins || (is_nan(a) && is_nan(b))) return kCanonicalNaN;
    return is_nan(a) ? b : a;
  }
  if (less(a, b)) return b;
  if (less(b, a)) return a;
  return sign_of(a) ? b : a;  // equal: +0 above -0
}
inline std::uint16_t minimum(std::uint16_t a, std::uint16_t b, bool nan_wins) {
  if (is_nan(a) || is_nan(b)) {
    if (nan_wins || (is_nan(a) && is_nan(b))) return kCanonicalNaN;
    return is_nan(a) ? b : a;
  }
  if (less(a, b)) return a;
  if (less(b, a)) return b;
  return sign_of(a) ? a : b;  // equal: -0 below +0
}

}  // namespace bf16_detail
}  // namespace cuda_cpu

// ---------------------------------------------------------------------------------------
// The types.
struct alignas(2) __nv_bfloat16_raw {
  unsigned short x;
};
struct alignas(4) __nv_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

struct alignas(2) __nv_bfloat16 {
 protected:
  unsigned short __x;

 public:
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw& hr) : __x(hr.x) {}
  __nv_bfloat16& operator=(const __nv_bfloat16_raw& hr) {
    __x = hr.x;
    return *this;
  }
  operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }

#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
  explicit __nv_bfloat16(const __half f)
      : __x(cuda_cpu::bf16_detail::from_half(static_cast<__half_raw>(f).x)) {}
  __nv_bfloat16(const float f) : __x(cuda_cpu::bf16_detail::from_float(f, cuda_cpu::bf16_detail::Round::nearest_even)) {}
  __nv_bfloat16(const double f)
      : __x(cuda_cpu::bf16_detail::from_double(f, cuda_cpu::bf16_detail::Round::nearest_even)) {}
  operator float() const { return cuda_cpu::bf16_detail::to_float(__x); }
  __nv_bfloat16& operator=(const float f) { return *this = __nv_bfloat16(f); }
  __nv_bfloat16& operator=(const double f) { return *this = __nv_bfloat16(f); }

  __nv_bfloat16(const short val) : __nv_bfloat16(static_cast<long long>(val)) {}
  __nv_bfloat16(const unsigned short val) : __nv_bfloat16(static_cast<unsigned long long>(val)) {}
  __nv_bfloat16(const int val) : __nv_bfloat16(static_cast<long long>(val)) {}
  __nv_bfloat16(const unsigned int val) : __nv_bfloat16(static_cast<unsigned long long>(val)) {}
  __nv_bfloat16(const long val) : __nv_bfloat16(static_cast<long long>(val)) {}
  __nv_bfloat16(const unsigned long val) : __nv_bfloat16(static_cast<unsigned long long>(val)) {}
  __nv_bfloat16(const long long val)
      : __x(cuda_cpu::bf16_detail::from_any_integer(val, cuda_cpu::bf16_detail::Round::nearest_even)) {}
  __nv_bfloat16(const unsigned long long val)
      : __x(cuda_cpu::bf16_detail::from_any_integer(val, cuda_cpu::bf16_detail::Round::nearest_even)) {}

  operator signed char() const { return to<signed char>(0); }
  operator unsigned char() const { return to<unsigned char>(0); }
  operator char() const {
    return std::is_signed<char>::value ? static_cast<char>(to<signed char>(0))
                                       : static_cast<char>(to<unsigned char>(0));
  }
  operator short() const { return to<short>(0); }
  operator unsigned short() const { return to<unsigned short>(0); }
  operator int() const { return to<int>(0); }
  operator unsigned int() const { return to<unsigned int>(0); }
  operator long() const {
    return static_cast<long>(sizeof(long) == sizeof(long long) ? to<long long>(LLONG_MIN) : to<int>(0));
  }
  operator unsigned long() const {
    return static_cast<unsigned long>(sizeof(long) == sizeof(long long)
                                          ? to<unsigned long long>(0x8000000000000000ull)
                                          : to<unsigned int>(0));
  }
  operator long long() const { return to<long long>(LLONG_MIN); }
  operator unsigned long long() const { return to<unsigned long long>(0x8000000000000000ull); }
  __nv_bfloat16& operator=(const short val) { return *this = __nv_bfloat16(val); }
  __nv_bfloat16& operator=(const unsigned short val) { return *this = __nv_bfloat16(val); }
  __nv_bfloat16& operator=(const int val) { return *this = __nv_bfloat16(val); }
  __nv_bfloat16& operator=(const unsigned int val) { return *this = __nv_bfloat16(val); }
  __nv_bfloat16& operator=(const long long val) { return *this = __nv_bfloat16(val); }
  __nv_bfloat16& operator=(const unsigned long long val) { return *this = __nv_bfloat16(val); }
  constexpr operator bool() const { return (__x & 0x7FFFu) != 0; }

 private:
  template <typename I>
  I to(I nan_value) const {
    return cuda_cpu::bf16_detail::to_integer_saturated<I>(__x, cuda_cpu::bf16_detail::Round::toward_zero, nan_value);
  }
#endif  // !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
};

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x;
  __nv_bfloat16 y;

  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b) : x(a), y(b) {}
  __nv_bfloat162(const __nv_bfloat162_raw& h2r) : x(__nv_bfloat16_raw{h2r.x}), y(__nv_bfloat16_raw{h2r.y}) {}
  __nv_bfloat162& operator=(const __nv_bfloat162_raw& h2r) {
    x = __nv_bfloat16_raw{h2r.x};
    y = __nv_bfloat16_raw{h2r.y};
    return *this;
  }
  operator __nv_bfloat162_raw() const {
    return __nv_bfloat162_raw{static_cast<__nv_bfloat16_raw>(x).x, static_cast<__nv_bfloat16_raw>(y).x};
  }
};

static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat16) == 2, "__nv_bfloat16 is 2 bytes, aligned to 2");
static_assert(sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4, "__nv_bfloat162 is 4 bytes, aligned to 4");
static_assert(std::is_trivially_copyable<__nv_bfloat16>::value, "__nv_bfloat16 must be trivially copyable");
static_assert(std::is_trivially_copyable<__nv_bfloat162>::value, "__nv_bfloat162 must be trivially copyable");

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
typedef __nv_bfloat16_raw nv_bfloat16_raw;
typedef __nv_bfloat162_raw nv_bfloat162_raw;

// CUDA's half <- bfloat16 conversion, declared (explicit) in cuda_fp16.h: one rounding.
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
inline __half::__half(const __nv_bfloat16 f)
    : __x(cuda_cpu::bf16_detail::to_half(static_cast<__nv_bfloat16_raw>(f).x)) {}
#endif

// ---------------------------------------------------------------------------------------
// Bits in and out.
namespace cuda_cpu {
namespace bf16_detail {
inline std::uint16_t bits(const __nv_bfloat16 h) { return static_cast<__nv_bfloat16_raw>(h).x; }
inline __nv_bfloat16 make(std::uint16_t b) { return __nv_bfloat16(__nv_bfloat16_raw{b}); }
inline __nv_bfloat162 make2(std::uint16_t lo, std::uint16_t hi) { return __nv_bfloat162(make(lo), make(hi)); }
}  // namespace bf16_detail
}  // namespace cuda_cpu

inline short int __bfloat16_as_short(const __nv_bfloat16 h) { return static_cast<short>(cuda_cpu::bf16_detail::bits(h)); }
inline unsigned short int __bfloat16_as_ushort(const __nv_bfloat16 h) { return cuda_cpu::bf16_detail::bits(h); }
inline __nv_bfloat16 __short_as_bfloat16(const short int i) {
  return cuda_cpu::bf16_detail::make(static_cast<std::uint16_t>(i));
}
inline __nv_bfloat16 __ushort_as_bfloat16(const unsigned short int i) { return cuda_cpu::bf16_detail::make(i); }

#if !defined(CUDART_INF_BF16)
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
#endif

// ---------------------------------------------------------------------------------------
// Conversions.
#define CUDA_CPU_BF16_BITS(h) cuda_cpu::bf16_detail::bits(h)
#define CUDA_CPU_BF16_MAKE(b) cuda_cpu::bf16_detail::make(b)
#define CUDA_CPU_BF16_RN cuda_cpu::bf16_detail::Round::nearest_even
#define CUDA_CPU_BF16_RZ cuda_cpu::bf16_detail::Round::toward_zero
#define CUDA_CPU_BF16_RD cuda_cpu::bf16_detail::Round::down
#define CUDA_CPU_BF16_RU cuda_cpu::bf16_detail::Round::up

inline __nv_bfloat16 __float2bfloat16(const float a) {
  return CUDA_CPU_BF16_MAKE(cuda_cpu::bf16_detail::from_float(a, CUDA_CPU_BF16_RN));
}
inline __nv_bfloat16 __float2bfloat16_rn(const float a) { return __float2bfloat16(a); }
inline __nv_bfloat16 __float2bfloat16_rz(const float a) {
  return CUDA_CPU_BF16_MAKE(cuda_cpu::bf16_detail::from_float(a, CUDA_CPU_BF16_RZ));
}
inline __nv_bfloat16 __float2bfloat16_rd(const float a) {
  return CUDA_CPU_BF16_MAKE(cuda_cpu::bf16_detail::from_float(a, CUDA_CPU_BF16_RD));
}
inline __nv_bfloat16 __float2bfloat16_ru(const float a) {
  return CUDA_CPU_BF16_MAKE(cuda_cpu::bf16_detail::from_float(a, CUDA_CPU_BF16_RU));
}
inline __nv_bfloat16 __double2bfloat16(const double a) {
  return CUDA_CPU_BF16_MAKE(cuda_cpu::bf16_detail::from_double(a, CUDA_CPU_BF16_RN));
}
inline float __bfloat162float(const __nv_bfloat16 a) { return cuda_cpu::bf16_detail::to_float(CUDA_CPU_BF16_BITS(a)); }

inline __nv_bfloat162 __float2bfloat162_rn(const float a) {
  return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(a));
}
inline __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b) {
  return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
inline __nv_bfloat162 __float22bfloat162_rn(const float2 a) { return __floats2bfloat162_rn(a.x, a.y); }
inline float2 __bfloat1622float2(const __nv_bfloat162 a) {
  return float2{__bfloat162float(a.x), __bfloat162float(a.y)};
}
inline float __low2float(const __nv_bfloat162 a) { return __bfloat162float(a.x); }
inline float __high2float(const __nv_bfloat162 a) { return __bfloat162float(a.y); }

inline __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y) { return __nv_bfloat162(x, y); }
inline __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a) { return a.x; }
inline __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a) { return a.y; }
inline __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
inline __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a) { return __nv_bfloat162(a, a); }
inline __nv_bfloat162 __lowhigh2highlow(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.x); }
inline __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) {
  return __nv_bfloat162(a.x, b.x);
}
inline __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}
inline __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
inline __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }

// bf16 -> integer: NaN gives 0 (64-bit types: 0x8000000000000000), out of range saturates.
#define CUDA_CPU_BF16_TO_INT(name, T, mode, nan_value)                                                           \
  inline T name(const __nv_bfloat16 h) {                                                                         \
    return cuda_cpu::bf16_detail::to_integer_saturated<T>(CUDA_CPU_BF16_BITS(h), mode, static_cast<T>(nan_value)); \
  }
#define CUDA_CPU_BF16_TO_INT_ALL(stem, T, nan_value)                          \
  CUDA_CPU_BF16_TO_INT(__bfloat162##stem##_rn, T, CUDA_CPU_BF16_RN, nan_value) \
  CUDA_CPU_BF16_TO_INT(__bfloat162##stem##_rz, T, CUDA_CPU_BF16_RZ, nan_value) \
  CUDA_CPU_BF16_TO_INT(__bfloat162##stem##_rd, T, CUDA_CPU_BF16_RD, nan_value) \
  CUDA_CPU_BF16_TO_INT(__bfloat162##stem##_ru, T, CUDA_CPU_BF16_RU, nan_value)
CUDA_CPU_BF16_TO_INT_ALL(int, int, 0)
CUDA_CPU_BF16_TO_INT_ALL(uint, unsigned int, 0)
CUDA_CPU_BF16_TO_INT_ALL(short, short, 0)
CUDA_CPU_BF16_TO_INT_ALL(ushort, unsigned short, 0)
CUDA_CPU_BF16_TO_INT_ALL(ll, long long, 0x8000000000000000ull)
CUDA_CPU_BF16_TO_INT_ALL(ull, unsigned long long, 0x8000000000000000ull)
CUDA_CPU_BF16_TO_INT(__bfloat162char_rz, signed char, CUDA_CPU_BF16_RZ, 0)
CUDA_CPU_BF16_TO_INT(__bfloat162uchar_rz, unsigned char, CUDA_CPU_BF16_RZ, 0)
#undef CUDA_CPU_BF16_TO_INT_ALL
#undef CUDA_CPU_BF16_TO_INT

// integer -> bf16.
#define CUDA_CPU_BF16_FROM_INT(name, T, mode) \
  inline __nv_bfloat16 name(const T i) { return CUDA_CPU_BF16_MAKE(cuda_cpu::bf16_detail::from_any_integer<T>(i, mode)); }
#define CUDA_CPU_BF16_FROM_INT_ALL(stem, T)                          \
  CUDA_CPU_BF16_FROM_INT(__##stem##2bfloat16_rn, T, CUDA_CPU_BF16_RN) \
  CUDA_CPU_BF16_FROM_INT(__##stem##2bfloat16_rz, T, CUDA_CPU_BF16_RZ) \
  CUDA_CPU_BF16_FROM_INT(__##stem##2bfloat16_rd, T, CUDA_CPU_BF16_RD) \
  CUDA_CPU_BF16_FROM_INT(__##stem##2bfloat16_ru, T, CUDA_CPU_BF16_RU)
CUDA_CPU_BF16_FROM_INT_ALL(int, int)
CUDA_CPU_BF16_FROM_INT_ALL(uint, unsigned int)
CUDA_CPU_BF16_FROM_INT_ALL(short, short)
CUDA_CPU_BF16_FROM_INT_ALL(ushort, unsigned short)
CUDA_CPU_BF16_FROM_INT_ALL(ll, long long)
CUDA_CPU_BF16_FROM_INT_ALL(ull, unsigned long long)
#undef CUDA_CPU_BF16_FROM_INT_ALL
#undef CUDA_CPU_BF16_FROM_INT

// ---------------------------------------------------------------------------------------
// Arithmetic on __nv_bfloat16.
#define CUDA_CPU_BF16_UNARY(name, expr)              \
  inline __nv_bfloat16 name(const __nv_bfloat16 a) { \
    const std::uint16_t x = CUDA_CPU_BF16_BITS(a);   \
    return CUDA_CPU_BF16_MAKE(expr);                 \
  }
#define CUDA_CPU_BF16_BINARY(name, expr)                                        \
  inline __nv_bfloat16 name(const __nv_bfloat16 a, const __nv_bfloat16 b) {     \
    const std::uint16_t x = CUDA_CPU_BF16_BITS(a), y = CUDA_CPU_BF16_BITS(b);   \
    return CUDA_CPU_BF16_MAKE(expr);                                            \
  }
#define CUDA_CPU_BF16_TERNARY(name, expr)                                                             \
  inline __nv_bfloat16 name(const __nv_bfloat16 a, const __nv_bfloat16 b, const __nv_bfloat16 c) {    \
    const std::uint16_t x = CUDA_CPU_BF16_BITS(a), y = CUDA_CPU_BF16_BITS(b), z = CUDA_CPU_BF16_BITS(c); \
    return CUDA_CPU_BF16_MAKE(expr);                                                                  \
  }

CUDA_CPU_BF16_BINARY(__hadd, cuda_cpu::bf16_detail::add(x, y))
CUDA_CPU_BF16_BINARY(__hsub, cuda_cpu::bf16_detail::subtract(x, y))
CUDA_CPU_BF16_BINARY(__hmul, cuda_cpu::bf16_detail::multiply(x, y))
CUDA_CPU_BF16_BINARY(__hadd_rn, cuda_cpu::bf16_detail::add(x, y))
CUDA_CPU_BF16_BINARY(__hsub_rn, cuda_cpu::bf16_detail::subtract(x, y))
CUDA_CPU_BF16_BINARY(__hmul_rn, cuda_cpu::bf16_detail::multiply(x, y))
CUDA_CPU_BF16_BINARY(__hdiv, cuda_cpu::bf16_detail::divide(x, y))
CUDA_CPU_BF16_BINARY(__hadd_sat, cuda_cpu::bf16_detail::saturate(cuda_cpu::bf16_detail::add(x, y)))
CUDA_CPU_BF16_BINARY(__hsub_sat, cuda_cpu::bf16_detail::saturate(cuda_cpu::bf16_detail::subtract(x, y)))
CUDA_CPU_BF16_BINARY(__hmul_sat, cuda_cpu::bf16_detail::saturate(cuda_cpu::bf16_detail::multiply(x, y)))
CUDA_CPU_BF16_TERNARY(__hfma, cuda_cpu::bf16_detail::fma(x, y, z))
CUDA_CPU_BF16_TERNARY(__hfma_sat, cuda_cpu::bf16_detail::saturate(cuda_cpu::bf16_detail::fma(x, y, z)))
CUDA_CPU_BF16_TERNARY(__hfma_relu, cuda_cpu::bf16_detail::relu(cuda_cpu::bf16_detail::fma(x, y, z)))
CUDA_CPU_BF16_UNARY(__hneg, cuda_cpu::bf16_detail::negate(x))
CUDA_CPU_BF16_UNARY(__habs, cuda_cpu::bf16_detail::absolute(x))
CUDA_CPU_BF16_BINARY(__hmax, cuda_cpu::bf16_detail::maximum(x, y, false))
CUDA_CPU_BF16_BINARY(__hmin, cuda_cpu::bf16_detail::minimum(x, y, false))
CUDA_CPU_BF16_BINARY(__hmax_nan, cuda_cpu::bf16_detail::maximum(x, y, true))
CUDA_CPU_BF16_BINARY(__hmin_nan, cuda_cpu::bf16_detail::minimum(x, y, true))
CUDA_CPU_BF16_UNARY(htrunc, cuda_cpu::bf16_detail::round_to_integral(x, CUDA_CPU_BF16_RZ))
CUDA_CPU_BF16_UNARY(hceil, cuda_cpu::bf16_detail::round_to_integral(x, CUDA_CPU_BF16_RU))
CUDA_CPU_BF16_UNARY(hfloor, cuda_cpu::bf16_detail::round_to_integral(x, CUDA_CPU_BF16_RD))
CUDA_CPU_BF16_UNARY(hrint, cuda_cpu::bf16_detail::round_to_integral(x, CUDA_CPU_BF16_RN))

// Comparisons. Ordered ones are false, unordered ones (…u) true, when an input is NaN.
#define CUDA_CPU_BF16_COMPARE(name, unordered_result, expr)                                           \
  inline bool name(const __nv_bfloat16 a, const __nv_bfloat16 b) {                                    \
    const std::uint16_t x = CUDA_CPU_BF16_BITS(a), y = CUDA_CPU_BF16_BITS(b);                         \
    if (cuda_cpu::bf16_detail::is_nan(x) || cuda_cpu::bf16_detail::is_nan(y)) return unordered_result; \
    return expr;                                                                                      \
  }
#define CUDA_CPU_BF16_COMPARE_PAIR(stem, expr)  \
  CUDA_CPU_BF16_COMPARE(__h##stem, false, expr) \
  CUDA_CPU_BF16_COMPARE(__h##stem##u, true, expr)
CUDA_CPU_BF16_COMPARE_PAIR(eq, cuda_cpu::bf16_detail::equal(x, y))
CUDA_CPU_BF16_COMPARE_PAIR(ne, !cuda_cpu::bf16_detail::equal(x, y))
CUDA_CPU_BF16_COMPARE_PAIR(lt, cuda_cpu::bf16_detail::less(x, y))
CUDA_CPU_BF16_COMPARE_PAIR(le, !cuda_cpu::bf16_detail::less(y, x))
CUDA_CPU_BF16_COMPARE_PAIR(gt, cuda_cpu::bf16_detail::less(y, x))
CUDA_CPU_BF16_COMPARE_PAIR(ge, !cuda_cpu::bf16_detail::less(x, y))
#undef CUDA_CPU_BF16_COMPARE_PAIR
#undef CUDA_CPU_BF16_COMPARE

inline bool __hisnan(const __nv_bfloat16 a) { return cuda_cpu::bf16_detail::is_nan(CUDA_CPU_BF16_BITS(a)); }
inline int __hisinf(const __nv_bfloat16 a) {
  const std::uint16_t x = CUDA_CPU_BF16_BITS(a);
  if (!cuda_cpu::bf16_detail::is_inf(x)) return 0;
  return cuda_cpu::bf16_detail::sign_of(x) ? -1 : 1;
}

// ---------------------------------------------------------------------------------------
// __nv_bfloat162: each operation lane by lane (x is the low half, y the high half).
#define CUDA_CPU_BF16_LANES1(name, f) \
  inline __nv_bfloat162 name(const __nv_bfloat162 a) { return __nv_bfloat162(f(a.x), f(a.y)); }
#define CUDA_CPU_BF16_LANES2(name, f)                                        \
  inline __nv_bfloat162 name(const __nv_bfloat162 a, const __nv_bfloat162 b) { \
    return __nv_bfloat162(f(a.x, b.x), f(a.y, b.y));                         \
  }
#define CUDA_CPU_BF16_LANES3(name, f)                                                                \
  inline __nv_bfloat162 name(const __nv_bfloat162 a, const __nv_bfloat162 b, const __nv_bfloat162 c) { \
    return __nv_bfloat162(f(a.x, b.x, c.x), f(a.y, b.y, c.y));                                       \
  }
CUDA_CPU_BF16_LANES2(__hadd2, __hadd)
CUDA_CPU_BF16_LANES2(__hsub2, __hsub)
CUDA_CPU_BF16_LANES2(__hmul2, __hmul)
CUDA_CPU_BF16_LANES2(__hadd2_rn, __hadd_rn)
CUDA_CPU_BF16_LANES2(__hsub2_rn, __hsub_rn)
CUDA_CPU_BF16_LANES2(__hmul2_rn, __hmul_rn)
CUDA_CPU_BF16_LANES2(__h2div, __hdiv)
CUDA_CPU_BF16_LANES2(__hadd2_sat, __hadd_sat)
CUDA_CPU_BF16_LANES2(__hsub2_sat, __hsub_sat)
CUDA_CPU_BF16_LANES2(__hmul2_sat, __hmul_sat)
CUDA_CPU_BF16_LANES3(__hfma2, __hfma)
CUDA_CPU_BF16_LANES3(__hfma2_sat, __hfma_sat)
CUDA_CPU_BF16_LANES3(__hfma2_relu, __hfma_relu)
CUDA_CPU_BF16_LANES1(__hneg2, __hneg)
CUDA_CPU_BF16_LANES1(__habs2, __habs)
CUDA_CPU_BF16_LANES2(__hmax2, __hmax)
CUDA_CPU_BF16_LANES2(__hmin2, __hmin)
CUDA_CPU_BF16_LANES2(__hmax2_nan, __hmax_nan)
CUDA_CPU_BF16_LANES2(__hmin2_nan, __hmin_nan)
CUDA_CPU_BF16_LANES1(h2trunc, htrunc)
CUDA_CPU_BF16_LANES1(h2ceil, hceil)
CUDA_CPU_BF16_LANES1(h2floor, hfloor)
CUDA_CPU_BF16_LANES1(h2rint, hrint)
#undef CUDA_CPU_BF16_LANES1
#undef CUDA_CPU_BF16_LANES2
#undef CUDA_CPU_BF16_LANES3

inline __nv_bfloat162 __hisnan2(const __nv_bfloat162 a) {
  using cuda_cpu::bf16_detail::kOne;
  return cuda_cpu::bf16_detail::make2(__hisnan(a.x) ? kOne : std::uint16_t{0}, __hisnan(a.y) ? kOne : std::uint16_t{0});
}

// Lane comparisons in three forms: 1.0/0.0 per lane, 0xFFFF/0 per lane, and one bool that
// is true only when both lanes are.
#define CUDA_CPU_BF16_COMPARE2(stem)                                                                 \
  inline __nv_bfloat162 __h##stem##2(const __nv_bfloat162 a, const __nv_bfloat162 b) {               \
    using cuda_cpu::bf16_detail::kOne;                                                               \
    return cuda_cpu::bf16_detail::make2(__h##stem(a.x, b.x) ? kOne : std::uint16_t{0},               \
                                        __h##stem(a.y, b.y) ? kOne : std::uint16_t{0});              \
  }                                                                                                  \
  inline unsigned int __h##stem##2_mask(const __nv_bfloat162 a, const __nv_bfloat162 b) {            \
    return (__h##stem(a.x, b.x) ? 0xFFFFu : 0u) | (__h##stem(a.y, b.y) ? 0xFFFF0000u : 0u);           \
  }                                                                                                  \
  inline bool __hb##stem##2(const __nv_bfloat162 a, const __nv_bfloat162 b) {                        \
    return __h##stem(a.x, b.x) && __h##stem(a.y, b.y);                                               \
  }
CUDA_CPU_BF16_COMPARE2(eq)
CUDA_CPU_BF16_COMPARE2(ne)
CUDA_CPU_BF16_COMPARE2(lt)
CUDA_CPU_BF16_COMPARE2(le)
CUDA_CPU_BF16_COMPARE2(gt)
CUDA_CPU_BF16_COMPARE2(ge)
CUDA_CPU_BF16_COMPARE2(equ)
CUDA_CPU_BF16_COMPARE2(neu)
CUDA_CPU_BF16_COMPARE2(ltu)
CUDA_CPU_BF16_COMPARE2(leu)
CUDA_CPU_BF16_COMPARE2(gtu)
CUDA_CPU_BF16_COMPARE2(geu)
#undef CUDA_CPU_BF16_COMPARE2

#undef CUDA_CPU_BF16_UNARY
#undef CUDA_CPU_BF16_BINARY
#undef CUDA_CPU_BF16_TERNARY
#undef CUDA_CPU_BF16_BITS
#undef CUDA_CPU_BF16_MAKE
#undef CUDA_CPU_BF16_RN
#undef CUDA_CPU_BF16_RZ
#undef CUDA_CPU_BF16_RD
#undef CUDA_CPU_BF16_RU

// ---------------------------------------------------------------------------------------
// C++ operators, as cuda_bf16.hpp defines them: == is the ordered __heq, != the unordered
// __hneu; for __nv_bfloat162 the both-lanes forms.
#if !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
inline __nv_bfloat16 operator+(const __nv_bfloat16& lh, const __nv_bfloat16& rh) { return __hadd(lh, rh); }
inline __nv_bfloat16 operator-(const __nv_bfloat16& lh, const __nv_bfloat16& rh) { return __hsub(lh, rh); }
inline __nv_bfloat16 operator*(const __nv_bfloat16& lh, const __nv_bfloat16& rh) { return __hmul(lh, rh); }
inline __nv_bfloat16 operator/(const __nv_bfloat16& lh, const __nv_bfloat16& rh) { return __hdiv(lh, rh); }
inline __nv_bfloat16& operator+=(__nv_bfloat16& lh, const __nv_bfloat16& rh) { return lh = __hadd(lh, rh); }
inline __nv_bfloat16& operator-=(__nv_bfloat16& lh, const __nv_bfloat16& rh) { return lh = __hsub(lh, rh); }
inline __nv_bfloat16& operator*=(__nv_bfloat16& lh, const __nv_bfloat16& rh) { return lh = __hmul(lh, rh); }
inline __nv_bfloat16& operator/=(__nv_bfloat16& lh, const __nv_bfloat16& rh) { return lh = __hdiv(lh, rh); }
inline __nv_bfloat16& operator++(__nv_bfloat16& h) { return h = __hadd(h, CUDART_ONE_BF16); }
inline __nv_bfloat16& operator--(__nv_bfloat16& h) { return h = __hsub(h, CUDART_ONE_BF16); }
inline __nv_bfloat16 operator++(__nv_bfloat16& h, const int) {
  const __nv_bfloat16 old = h;
  ++h;
  return old;
}
inline __nv_bfloat16 operator--(__nv_bfloat16& h, const int) {
  const __nv_bfloat16 old = h;
  --h;
  return old;
}
inline __nv_bfloat16 operator+(const __nv_bfloat16& h) { return h; }
inline __nv_bfloat16 operator-(const __nv_bfloat16& h) { return __hneg(h); }
inline bool operator==(const __nv_bfloat16& lh, const __nv_bfloat16& rh) { return __heq(lh, rh); }
inline bool operator!=(const __nv_bfloat16& lh, const __nv_bfloat16& rh) { return __hneu(lh, rh); }
inline bool operator>(const __nv_bfloat16& lh, const __nv_bfloat16& rh) { return __hgt(lh, rh); }
inline bool operator<(const __nv_bfloat16& lh, const __nv_bfloat16& rh) { return __hlt(lh, rh); }
inline bool operator>=(const __nv_bfloat16& lh, const __nv_bfloat16& rh) { return __hge(lh, rh); }
inline bool operator<=(const __nv_bfloat16& lh, const __nv_bfloat16& rh) { return __hle(lh, rh); }

inline __nv_bfloat162 operator+(const __nv_bfloat162& lh, const __nv_bfloat162& rh) { return __hadd2(lh, rh); }
inline __nv_bfloat162 operator-(const __nv_bfloat162& lh, const __nv_bfloat162& rh) { return __hsub2(lh, rh); }
inline __nv_bfloat162 operator*(const __nv_bfloat162& lh, const __nv_bfloat162& rh) { return __hmul2(lh, rh); }
inline __nv_bfloat162 operator/(const __nv_bfloat162& lh, const __nv_bfloat162& rh) { return __h2div(lh, rh); }
inline __nv_bfloat162& operator+=(__nv_bfloat162& lh, const __nv_bfloat162& rh) { return lh = __hadd2(lh, rh); }
inline __nv_bfloat162& operator-=(__nv_bfloat162& lh, const __nv_bfloat162& rh) { return lh = __hsub2(lh, rh); }
inline __nv_bfloat162& operator*=(__nv_bfloat162& lh, const __nv_bfloat162& rh) { return lh = __hmul2(lh, rh); }
inline __nv_bfloat162& operator/=(__nv_bfloat162& lh, const __nv_bfloat162& rh) { return lh = __h2div(lh, rh); }
inline __nv_bfloat162& operator++(__nv_bfloat162& h) {
  return h = __hadd2(h, __nv_bfloat162(CUDART_ONE_BF16, CUDART_ONE_BF16));
}
inline __nv_bfloat162& operator--(__nv_bfloat162& h) {
  return h = __hsub2(h, __nv_bfloat162(CUDART_ONE_BF16, CUDART_ONE_BF16));
}
inline __nv_bfloat162 operator++(__nv_bfloat162& h, const int) {
  const __nv_bfloat162 old = h;
  ++h;
  return old;
}
inline __nv_bfloat162 operator--(__nv_bfloat162& h, const int) {
  const __nv_bfloat162 old = h;
  --h;
  return old;
}
inline __nv_bfloat162 operator+(const __nv_bfloat162& h) { return h; }
inline __nv_bfloat162 operator-(const __nv_bfloat162& h) { return __hneg2(h); }
inline bool operator==(const __nv_bfloat162& lh, const __nv_bfloat162& rh) { return __hbeq2(lh, rh); }
inline bool operator!=(const __nv_bfloat162& lh, const __nv_bfloat162& rh) { return __hbneu2(lh, rh); }
inline bool operator>(const __nv_bfloat162& lh, const __nv_bfloat162& rh) { return __hbgt2(lh, rh); }
inline bool operator<(const __nv_bfloat162& lh, const __nv_bfloat162& rh) { return __hblt2(lh, rh); }
inline bool operator>=(const __nv_bfloat162& lh, const __nv_bfloat162& rh) { return __hbge2(lh, rh); }
inline bool operator<=(const __nv_bfloat162& lh, const __nv_bfloat162& rh) { return __hble2(lh, rh); }
#endif  // !defined(__CUDA_NO_BFLOAT16_OPERATORS__)

#endif  // CUDA_CPU_COMPAT_CUDA_BF16_H_

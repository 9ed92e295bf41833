// <cuda_fp16.h> for the CPU backend: CUDA's half-precision types and intrinsics, written
// from scratch in portable C++17, giving the same bits as the GPU.
//
// Kernel sources say `#include <cuda_fp16.h>`; nvcc finds CUDA's own header, the CPU build
// finds this one (compat/ is on its include path). Host code that uploads half buffers
// includes it too, so nothing here depends on the engine or on a kernel context.
//
// Names, parameter types and C++ behaviour (implicit conversions, operators computed with
// the intrinsics, which comparisons are ordered) follow CUDA's cuda_fp16.h. Where a
// function is listed there for the device only (__hfma, hsqrt, ...), it is here for the
// host as well. bfloat16 is in cuda_bf16.h (which includes this one). Not here: shuffles,
// atomics, the transcendental functions (hexp, hlog, hsin, ...) and cache-hinted loads other
// than the generic __ldg.
//
// Numerics. Each rule below was compared bit for bit with an H100 (sm_90, CUDA 13.0) running
// CUDA's header, through the kernels of tests/engine/fp16_kernels.cu: every float, every
// int, every pair of halves (with a third operand chosen per pair for fma), random doubles
// and __half2 lanes. tests/engine/test_fp16.cpp checks the same rules against independent
// references on the host.
// - Every rounding is done on integers (bit manipulation), never through _Float16 or a
//   wider float type that could round twice. Subnormals are kept, never flushed.
// - Conversions, add, sub, mul, fma and div are correctly rounded in the mode named (round
//   to nearest even unless _rz/_rd/_ru says otherwise): sums, products and quotients are
//   formed exactly in integers and rounded once. (CUDA's __hdiv goes through an approximate
//   float reciprocal, but its results equal the correctly rounded quotient for all 2^32
//   pairs.) Overflow gives infinity, or the largest finite half where the rounding mode
//   points toward zero.
// - A NaN result is the canonical NaN 0x7FFF (CUDART_NAN_FP16), whatever the inputs'
//   payloads and signs: arithmetic, __hneg and __habs (the GPU's neg.f16/abs.f16 do not just
//   flip a bit), the rounding functions, float -> half. For __half2, per half. The one
//   exception is double -> half, which keeps the NaN's sign and the top 10 payload bits
//   (quieted). __half2float of any NaN gives the float 0x7FFFFFFF.
// - __hmax/__hmin return the other input when one is NaN, 0x7FFF when both are, and put -0
//   below +0; the _nan variants return 0x7FFF when either input is NaN. _sat results are
//   clamped to [+0, 1] with NaN to +0; _relu results clamp negatives (and -0) to +0.
// - half -> integer rounds in the mode named, saturates to the type's range, and maps NaN
//   to 0 (to 0x8000000000000000 for the 64-bit types).
// - hsqrt, hrsqrt and hrcp are correctly rounded here; the GPU's approximate float unit
//   gives the same halves for all 65536 inputs.
//
// Caveat for kernels: on the GPU, ptxas fuses `a * b + c` into one fma when it is written
// with the operators or with __hmul/__hadd (`acc += a * b` too: on the H100 every such
// case came out as the fma), while the CPU backend rounds the product and then the sum.
// Kernels that must agree bit for bit write __hfma, or __hmul_rn/__hadd_rn, which PTX
// never fuses.
#ifndef CUDA_CPU_COMPAT_CUDA_FP16_H_
#define CUDA_CPU_COMPAT_CUDA_FP16_H_

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if !defined(__VECTOR_TYPES_H__)
#include "cuda_cpu/vector_types.h"  // float2
#endif

// ---------------------------------------------------------------------------------------
// Bit-level arithmetic. Everything works on the 16-bit patterns.
namespace cuda_cpu {
namespace fp16_detail {

enum class Round { nearest_even, toward_zero, down, up };

constexpr std::uint16_t kCanonicalNaN = 0x7FFF;
constexpr std::uint16_t kInfinity = 0x7C00;
constexpr std::uint16_t kMaxFinite = 0x7BFF;
constexpr std::uint16_t kOne = 0x3C00;

inline bool is_nan(std::uint16_t h) { return (h & 0x7FFFu) > 0x7C00u; }
inline bool is_inf(std::uint16_t h) { return (h & 0x7FFFu) == 0x7C00u; }
inline bool is_zero(std::uint16_t h) { return (h & 0x7FFFu) == 0; }
inline bool sign_of(std::uint16_t h) { return (h & 0x8000u) != 0; }

inline int highest_bit(std::uint64_t v) { return 63 - __builtin_clzll(v); }  // v != 0

// The result of a rounding that went past the largest finite half.
inline std::uint16_t overflow(bool negative, Round mode) {
  const bool to_infinity = mode == Round::nearest_even || (mode == Round::up && !negative) ||
                           (mode == Round::down && negative);
  return static_cast<std::uint16_t>((negative ? 0x8000u : 0u) |
                                    (to_infinity ? kInfinity : kMaxFinite));
}

// Rounds the exact value (-1)^negative * (sig + f) * 2^exp to half, where 0 <= f < 1 and f
// is nonzero exactly when `sticky`: the caller has dropped nonzero bits below sig's last one.
// Requires sig != 0 (a zero result has its own sign rules, decided by the caller).
inline std::uint16_t round_to_half(bool negative, std::uint64_t sig, int exp, bool sticky,
                                   Round mode) {
  const std::uint16_t sign = negative ? 0x8000u : 0u;
  const int e = highest_bit(sig) + exp;  // the value lies in [2^e, 2^(e+1))
  if (e > 15) return overflow(negative, mode);
  const int binade = e < -14 ? -14 : e;  // subnormals share the ulp of the lowest binade
  const int shift = (binade - 10) - exp;  // bits of sig below the half's ulp
  std::uint64_t q;                        // the value in ulps, truncated
  bool half_bit, below;                   // the first dropped bit, any later one
  if (shift <= 0) {
    q = sig << -shift;  // exact: q < 2^11
    half_bit = false;
    below = sticky;
  } else if (shift > 64) {
    q = 0;
    half_bit = false;  // sig < 2^64 <= 2^(shift-1): less than half an ulp
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
  // Normal: q in [2^10, 2^11], the exponent field is binade+15 and q's top bit is the hidden
  // one, so the sum below carries into the exponent when q reaches 2^11. Subnormal: the
  // exponent field is 0 and q < 2^10 (or 2^10 exactly, the smallest normal).
  const std::uint64_t bits = (static_cast<std::uint64_t>(binade + 14) << 10) + q;
  if (bits >= kInfinity) return overflow(negative, mode);
  return static_cast<std::uint16_t>(sign | bits);
}

// A finite half as sig * 2^exp (sig < 2^11).
struct Unpacked {
  bool negative;
  std::uint64_t sig;
  int exp;
};
inline Unpacked unpack(std::uint16_t h) {
  const unsigned field = (h >> 10) & 0x1Fu;
  const unsigned mantissa = h & 0x3FFu;
  if (field == 0) return {sign_of(h), mantissa, -24};
  return {sign_of(h), mantissa | 0x400u, static_cast<int>(field) - 25};
}

// --- Conversions ------------------------------------------------------------------------
inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline std::uint16_t from_float(float f, Round mode) {
  const std::uint32_t u = float_bits(f);
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
  return round_to_half(negative, sig, exp, false, mode);
}

inline std::uint16_t from_double(double d, Round mode) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  const bool negative = (u >> 63) != 0;
  const std::uint64_t field = (u >> 52) & 0x7FFu;
  const std::uint64_t mantissa = u & 0xFFFFFFFFFFFFFull;
  if (field == 0x7FF) {
    // Unlike float -> half, the GPU's double -> half keeps a NaN's sign and the top 10 bits
    // of its payload, and makes it quiet.
    const std::uint64_t payload = mantissa != 0 ? (0x200u | (mantissa >> 42)) : 0u;
    return static_cast<std::uint16_t>((negative ? 0x8000u : 0u) | kInfinity | payload);
  }
  if (field == 0 && mantissa == 0) return negative ? 0x8000u : 0u;
  const std::uint64_t sig = field == 0 ? mantissa : (mantissa | 0x10000000000000ull);
  const int exp = (field == 0 ? 1 : static_cast<int>(field)) - 1075;
  return round_to_half(negative, sig, exp, false, mode);
}

inline std::uint16_t from_integer(bool negative, std::uint64_t magnitude, Round mode) {
  if (magnitude == 0) return 0;  // integers have no -0
  return round_to_half(negative, magnitude, 0, false, mode);
}
template <typename I>
inline std::uint16_t from_any_integer(I i, Round mode) {
  if constexpr (std::is_signed<I>::value) {
    const bool negative = i < 0;
    const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i);
    return from_integer(negative, magnitude, mode);
  } else {
    return from_integer(false, static_cast<std::uint64_t>(i), mode);
  }
}

// Exact: every half is a float. NaNs become the canonical float NaN, as on the GPU.
inline float to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t field = (h >> 10) & 0x1Fu;
  std::uint32_t mantissa = h & 0x3FFu;
  if (field == 0x1F) return bits_float(mantissa != 0 ? 0x7FFFFFFFu : (sign | 0x7F800000u));
  if (field == 0) {
    if (mantissa == 0) return bits_float(sign);
    int e = 113;  // field of 2^-14, the smallest normal half, as a float
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    return bits_float(sign | (static_cast<std::uint32_t>(e) << 23) | ((mantissa & 0x3FFu) << 13));
  }
  return bits_float(sign | ((field + 112) << 23) | (mantissa << 13));
}

// A half rounded to an integer (|result| <= 65504, so it fits), for NaN-free finite input.
inline std::int64_t to_integer(std::uint16_t h, Round mode) {
  const Unpacked v = unpack(h);
  std::uint64_t q;
  if (v.exp >= 0) {
    q = v.sig << v.exp;
  } else {
    const int shift = -v.exp;  // 1..24
    q = v.sig >> shift;
    const bool half_bit = ((v.sig >> (shift - 1)) & 1u) != 0;
    const bool below = (v.sig & ((std::uint64_t{1} << (shift - 1)) - 1)) != 0;
    bool up = false;
    switch (mode) {
      case Round::nearest_even: up = half_bit && (below || (q & 1u) != 0); break;
      case Round::toward_zero: up = false; break;
      case Round::down: up = v.negative && (half_bit || below); break;
      case Round::up: up = !v.negative && (half_bit || below); break;
    }
    q += up ? 1u : 0u;
  }
  return v.negative ? -static_cast<std::int64_t>(q) : static_cast<std::int64_t>(q);
}

// Conversion to an integer type with CUDA's saturation: out-of-range values and infinities
// clamp to the type's range, NaN gives `nan_value`.
template <typename I>
inline I to_integer_saturated(std::uint16_t h, Round mode, I nan_value) {
  if (is_nan(h)) return nan_value;
  constexpr I lo = std::numeric_limits<I>::min();
  constexpr I hi = std::numeric_limits<I>::max();
  if (is_inf(h)) return sign_of(h) ? lo : hi;
  const std::int64_t v = to_integer(h, mode);  // |v| <= 65504
  if constexpr (std::is_unsigned<I>::value) {
    if (v < 0) return 0;
    if (static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(hi)) return hi;
  } else {
    if (v < static_cast<std::int64_t>(lo)) return lo;
    if (v > static_cast<std::int64_t>(hi)) return hi;
  }
  return static_cast<I>(v);
}

// An integral-valued half (htrunc, hceil, hfloor, hrint).
inline std::uint16_t round_to_integral(std::uint16_t h, Round mode) {
  if (is_nan(h)) return kCanonicalNaN;
  if (is_inf(h) || is_zero(h)) return h;
  const std::int64_t v = to_integer(h, mode);
  if (v == 0) return h & 0x8000u;  // keeps the sign: trunc(-0.5) is -0
  return from_integer(v < 0, static_cast<std::uint64_t>(v < 0 ? -v : v), Round::nearest_even);
}

// --- Arithmetic -------------------------------------------------------------------------
inline std::uint16_t add(std::uint16_t a, std::uint16_t b) {
  if (is_nan(a) || is_nan(b)) return kCanonicalNaN;
  if (is_inf(a) || is_inf(b)) {
    if (is_inf(a) && is_inf(b) && sign_of(a) != sign_of(b)) return kCanonicalNaN;
    return is_inf(a) ? a : b;
  }
  if (is_zero(a) && is_zero(b)) return (a & b & 0x8000u);  // -0 only for -0 + -0
  const Unpacked x = unpack(a), y = unpack(b);
  const int exp = x.exp < y.exp ? x.exp : y.exp;  // exact alignment: at most 2^40
  const std::int64_t vx = static_cast<std::int64_t>(x.sig << (x.exp - exp));
  const std::int64_t vy = static_cast<std::int64_t>(y.sig << (y.exp - exp));
  const std::int64_t sum = (x.negative ? -vx : vx) + (y.negative ? -vy : vy);
  if (sum == 0) return 0;  // x + (-x) is +0 when rounding to nearest
  return round_to_half(sum < 0, static_cast<std::uint64_t>(sum < 0 ? -sum : sum), exp, false,
                       Round::nearest_even);
}

// Sign flips; a NaN comes out as the canonical NaN, as from neg.f16 on the GPU.
inline std::uint16_t negate(std::uint16_t a) {
  return is_nan(a) ? kCanonicalNaN : static_cast<std::uint16_t>(a ^ 0x8000u);
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
  return round_to_half(negative, x.sig * y.sig, x.exp + y.exp, false, Round::nearest_even);
}

// a * b + c with a single rounding.
inline std::uint16_t fma(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  if (is_nan(a) || is_nan(b) || is_nan(c)) return kCanonicalNaN;
  const bool product_negative = sign_of(a) != sign_of(b);
  if (is_inf(a) || is_inf(b)) {
    if (is_zero(a) || is_zero(b)) return kCanonicalNaN;
    if (is_inf(c) && sign_of(c) != product_negative) return kCanonicalNaN;
    return static_cast<std::uint16_t>((product_negative ? 0x8000u : 0u) | kInfinity);
  }
  if (is_inf(c)) return c;
  const bool product_zero = is_zero(a) || is_zero(b);
  if (product_zero) {
    if (is_zero(c)) return (product_negative && sign_of(c)) ? 0x8000u : 0u;
    return c;
  }
  const Unpacked x = unpack(a), y = unpack(b);
  const std::uint64_t p = x.sig * y.sig;  // < 2^22
  const int pexp = x.exp + y.exp;         // in [-48, 10]
  if (is_zero(c)) return round_to_half(product_negative, p, pexp, false, Round::nearest_even);
  const Unpacked z = unpack(c);
  const int exp = pexp < z.exp ? pexp : z.exp;
  // Aligned, p < 2^56 and z.sig < 2^64; the sum needs up to 65 bits.
  __extension__ typedef unsigned __int128 u128;
  const u128 vp = static_cast<u128>(p) << (pexp - exp);
  const u128 vz = static_cast<u128>(z.sig) << (z.exp - exp);
  u128 magnitude;
  bool negative;
  if (product_negative == z.negative) {
    magnitude = vp + vz;
    negative = product_negative;
  } else if (vp >= vz) {
    magnitude = vp - vz;
    negative = product_negative;
  } else {
    magnitude = vz - vp;
    negative = z.negative;
  }
  if (magnitude == 0) return 0;  // exact cancellation gives +0
  int e = exp;
  bool sticky = false;
  while ((magnitude >> 64) != 0) {
    sticky = sticky || (magnitude & 1u) != 0;
    magnitude >>= 1;
    ++e;
  }
  return round_to_half(negative, static_cast<std::uint64_t>(magnitude), e, sticky,
                       Round::nearest_even);
}

// a / b, correctly rounded. CUDA computes __hdiv on the GPU as float(a) * rcp.approx(float(b))
// rounded to half, plus one correction step for tiny results; on an H100 that gave the
// correctly rounded quotient for all 2^32 pairs of halves, although rcp.approx itself is not
// correctly rounded for 8054 of the 63488 non-NaN halves. Here: exact integer division.
inline std::uint16_t divide(std::uint16_t a, std::uint16_t b) {
  if (is_nan(a) || is_nan(b)) return kCanonicalNaN;
  const bool negative = sign_of(a) != sign_of(b);
  const std::uint16_t sign = negative ? 0x8000u : 0u;
  if (is_inf(a)) return is_inf(b) ? kCanonicalNaN : static_cast<std::uint16_t>(sign | kInfinity);
  if (is_inf(b)) return sign;
  if (is_zero(b)) return is_zero(a) ? kCanonicalNaN : static_cast<std::uint16_t>(sign | kInfinity);
  if (is_zero(a)) return sign;
  const Unpacked x = unpack(a), y = unpack(b);
  const std::uint64_t numerator = x.sig << 40;  // quotient has >= 29 significant bits
  const std::uint64_t q = numerator / y.sig;
  const bool inexact = numerator % y.sig != 0;
  return round_to_half(negative, q, x.exp - y.exp - 40, inexact, Round::nearest_even);
}

inline std::uint16_t saturate(std::uint16_t h) {  // clamp to [+0, 1], NaN to +0
  if (is_nan(h) || sign_of(h)) return 0;
  return h > kOne ? kOne : h;
}
inline std::uint16_t relu(std::uint16_t h) {  // negative to +0, NaN to the canonical NaN
  if (is_nan(h)) return kCanonicalNaN;
  return sign_of(h) ? 0 : h;
}

// The half values compared as reals (ordered; NaNs are handled by the callers).
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

// --- Square root and reciprocals --------------------------------------------------------
inline std::uint16_t sqrt_half(std::uint16_t a) {
  if (is_nan(a)) return kCanonicalNaN;
  if (is_zero(a)) return a;
  if (sign_of(a)) return kCanonicalNaN;
  if (is_inf(a)) return a;
  // The square root of a half is never a half rounding boundary nor within 2^-26 (relative)
  // of one; the double result is within 2^-53, so rounding it once more to half is exact.
  // The same argument holds for 1/sqrt(x) (2^-36, two double roundings) and 1/x (2^-23).
  return from_double(std::sqrt(static_cast<double>(to_float(a))), Round::nearest_even);
}
inline std::uint16_t rsqrt_half(std::uint16_t a) {
  if (is_nan(a)) return kCanonicalNaN;
  if (is_zero(a)) return static_cast<std::uint16_t>((a & 0x8000u) | kInfinity);
  if (sign_of(a)) return kCanonicalNaN;
  if (is_inf(a)) return 0;
  return from_double(1.0 / std::sqrt(static_cast<double>(to_float(a))), Round::nearest_even);
}
inline std::uint16_t rcp_half(std::uint16_t a) {
  if (is_nan(a)) return kCanonicalNaN;
  if (is_zero(a)) return static_cast<std::uint16_t>((a & 0x8000u) | kInfinity);
  if (is_inf(a)) return static_cast<std::uint16_t>(a & 0x8000u);
  return from_double(1.0 / static_cast<double>(to_float(a)), Round::nearest_even);
}

}  // namespace fp16_detail
}  // namespace cuda_cpu

// ---------------------------------------------------------------------------------------
// The types.
struct alignas(2) __half_raw {
  unsigned short x;
};
struct alignas(4) __half2_raw {
  unsigned short x;
  unsigned short y;
};

struct __half;
struct __nv_bfloat16;  // cuda_bf16.h, which defines the conversion declared below
inline __half __float2half(const float a);
inline __half __double2half(const double a);
inline float __half2float(const __half a);

struct alignas(2) __half {
 protected:
  unsigned short __x;

 public:
  __half() = default;
  constexpr __half(const __half_raw& hr) : __x(hr.x) {}
  __half& operator=(const __half_raw& hr) {
    __x = hr.x;
    return *this;
  }
  operator __half_raw() const { return __half_raw{__x}; }

#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
  // As in CUDA: explicit only, rounded once to nearest even (defined in cuda_bf16.h).
  explicit __half(const __nv_bfloat16 f);
  __half(const float f) : __x(cuda_cpu::fp16_detail::from_float(f, cuda_cpu::fp16_detail::Round::nearest_even)) {}
  __half(const double f) : __x(cuda_cpu::fp16_detail::from_double(f, cuda_cpu::fp16_detail::Round::nearest_even)) {}
  operator float() const { return cuda_cpu::fp16_detail::to_float(__x); }
  __half& operator=(const float f) { return *this = __half(f); }
  __half& operator=(const double f) { return *this = __half(f); }

  // Integers, as CUDA allows for nvcc-compiled code: round to nearest even in, toward
  // zero out (with saturation).
  __half(const short val) : __half(static_cast<long long>(val)) {}
  __half(const unsigned short val) : __half(static_cast<unsigned long long>(val)) {}
  __half(const int val) : __half(static_cast<long long>(val)) {}
  __half(const unsigned int val) : __half(static_cast<unsigned long long>(val)) {}
  __half(const long val) : __half(static_cast<long long>(val)) {}
  __half(const unsigned long val) : __half(static_cast<unsigned long long>(val)) {}
  __half(const long long val)
      : __x(cuda_cpu::fp16_detail::from_any_integer(val, cuda_cpu::fp16_detail::Round::nearest_even)) {}
  __half(const unsigned long long val)
      : __x(cuda_cpu::fp16_detail::from_any_integer(val, cuda_cpu::fp16_detail::Round::nearest_even)) {}

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
  __half& operator=(const short val) { return *this = __half(val); }
  __half& operator=(const unsigned short val) { return *this = __half(val); }
  __half& operator=(const int val) { return *this = __half(val); }
  __half& operator=(const unsigned int val) { return *this = __half(val); }
  __half& operator=(const long long val) { return *this = __half(val); }
  __half& operator=(const unsigned long long val) { return *this = __half(val); }
  constexpr operator bool() const { return (__x & 0x7FFFu) != 0; }

 private:
  template <typename I>
  I to(I nan_value) const {
    return cuda_cpu::fp16_detail::to_integer_saturated<I>(__x, cuda_cpu::fp16_detail::Round::toward_zero,
                                                         nan_value);
  }
#endif  // !defined(__CUDA_NO_HALF_CONVERSIONS__)
};

struct alignas(4) __half2 {
  __half x;
  __half y;

  __half2() = default;
  constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
  __half2(const __half2_raw& h2r) : x(__half_raw{h2r.x}), y(__half_raw{h2r.y}) {}
  __half2& operator=(const __half2_raw& h2r) {
    x = __half_raw{h2r.x};
    y = __half_raw{h2r.y};
    return *this;
  }
  operator __half2_raw() const {
    return __half2_raw{static_cast<__half_raw>(x).x, static_cast<__half_raw>(y).x};
  }
};

static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "__half is 2 bytes, aligned to 2");
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "__half2 is 4 bytes, aligned to 4");
static_assert(std::is_trivially_copyable<__half>::value, "__half must be trivially copyable");
static_assert(std::is_trivially_copyable<__half2>::value, "__half2 must be trivially copyable");

#if !defined(CUDA_NO_HALF)
typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half nv_half;
typedef __half2 nv_half2;
#endif

// ---------------------------------------------------------------------------------------
// Bits in and out.
namespace cuda_cpu {
namespace fp16_detail {
inline std::uint16_t bits(const __half h) { return static_cast<__half_raw>(h).x; }
inline __half make(std::uint16_t b) { return __half(__half_raw{b}); }
inline __half2 make2(std::uint16_t lo, std::uint16_t hi) { return __half2(make(lo), make(hi)); }
}  // namespace fp16_detail
}  // namespace cuda_cpu

inline short int __half_as_short(const __half h) {
  return static_cast<short>(cuda_cpu::fp16_detail::bits(h));
}
inline unsigned short int __half_as_ushort(const __half h) { return cuda_cpu::fp16_detail::bits(h); }
inline __half __short_as_half(const short int i) {
  return cuda_cpu::fp16_detail::make(static_cast<std::uint16_t>(i));
}
inline __half __ushort_as_half(const unsigned short int i) { return cuda_cpu::fp16_detail::make(i); }

#if !defined(CUDART_INF_FP16)
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#endif

// ---------------------------------------------------------------------------------------
// Conversions.
#define CUDA_CPU_FP16_BITS(h) cuda_cpu::fp16_detail::bits(h)
#define CUDA_CPU_FP16_MAKE(b) cuda_cpu::fp16_detail::make(b)
#define CUDA_CPU_FP16_RN cuda_cpu::fp16_detail::Round::nearest_even
#define CUDA_CPU_FP16_RZ cuda_cpu::fp16_detail::Round::toward_zero
#define CUDA_CPU_FP16_RD cuda_cpu::fp16_detail::Round::down
#define CUDA_CPU_FP16_RU cuda_cpu::fp16_detail::Round::up

inline __half __float2half(const float a) {
  return CUDA_CPU_FP16_MAKE(cuda_cpu::fp16_detail::from_float(a, CUDA_CPU_FP16_RN));
}
inline __half __float2half_rn(const float a) { return __float2half(a); }
inline __half __float2half_rz(const float a) {
  return CUDA_CPU_FP16_MAKE(cuda_cpu::fp16_detail::from_float(a, CUDA_CPU_FP16_RZ));
}
inline __half __float2half_rd(const float a) {
  return CUDA_CPU_FP16_MAKE(cuda_cpu::fp16_detail::from_float(a, CUDA_CPU_FP16_RD));
}
inline __half __float2half_ru(const float a) {
  return CUDA_CPU_FP16_MAKE(cuda_cpu::fp16_detail::from_float(a, CUDA_CPU_FP16_RU));
}
inline __half __double2half(const double a) {
  return CUDA_CPU_FP16_MAKE(cuda_cpu::fp16_detail::from_double(a, CUDA_CPU_FP16_RN));
}
inline float __half2float(const __half a) { return cuda_cpu::fp16_detail::to_float(CUDA_CPU_FP16_BITS(a)); }

inline __half2 __float2half2_rn(const float a) { return __half2(__float2half(a), __float2half(a)); }
inline __half2 __floats2half2_rn(const float a, const float b) {
  return __half2(__float2half(a), __float2half(b));
}
inline __half2 __float22half2_rn(const float2 a) { return __floats2half2_rn(a.x, a.y); }
inline float2 __half22float2(const __half2 a) { return float2{__half2float(a.x), __half2float(a.y)}; }
inline float __low2float(const __half2 a) { return __half2float(a.x); }
inline float __high2float(const __half2 a) { return __half2float(a.y); }

inline __half2 make_half2(const __half x, const __half y) { return __half2(x, y); }
inline __half __low2half(const __half2 a) { return a.x; }
inline __half __high2half(const __half2 a) { return a.y; }
inline __half2 __halves2half2(const __half a, const __half b) { return __half2(a, b); }
inline __half2 __half2half2(const __half a) { return __half2(a, a); }
inline __half2 __lowhigh2highlow(const __half2 a) { return __half2(a.y, a.x); }
inline __half2 __lows2half2(const __half2 a, const __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(const __half2 a, const __half2 b) { return __half2(a.y, b.y); }
inline __half2 __low2half2(const __half2 a) { return __half2(a.x, a.x); }
inline __half2 __high2half2(const __half2 a) { return __half2(a.y, a.y); }

// half -> integer: NaN gives 0 (64-bit types: 0x8000000000000000), out of range saturates.
#define CUDA_CPU_FP16_TO_INT(name, T, mode, nan_value)                                        \
  inline T name(const __half h) {                                                             \
    return cuda_cpu::fp16_detail::to_integer_saturated<T>(CUDA_CPU_FP16_BITS(h), mode,        \
                                                          static_cast<T>(nan_value));         \
  }
#define CUDA_CPU_FP16_TO_INT_ALL(stem, T, nan_value)              \
  CUDA_CPU_FP16_TO_INT(__half2##stem##_rn, T, CUDA_CPU_FP16_RN, nan_value) \
  CUDA_CPU_FP16_TO_INT(__half2##stem##_rz, T, CUDA_CPU_FP16_RZ, nan_value) \
  CUDA_CPU_FP16_TO_INT(__half2##stem##_rd, T, CUDA_CPU_FP16_RD, nan_value) \
  CUDA_CPU_FP16_TO_INT(__half2##stem##_ru, T, CUDA_CPU_FP16_RU, nan_value)
CUDA_CPU_FP16_TO_INT_ALL(int, int, 0)
CUDA_CPU_FP16_TO_INT_ALL(uint, unsigned int, 0)
CUDA_CPU_FP16_TO_INT_ALL(short, short, 0)
CUDA_CPU_FP16_TO_INT_ALL(ushort, unsigned short, 0)
CUDA_CPU_FP16_TO_INT_ALL(ll, long long, 0x8000000000000000ull)
CUDA_CPU_FP16_TO_INT_ALL(ull, unsigned long long, 0x8000000000000000ull)
CUDA_CPU_FP16_TO_INT(__half2char_rz, signed char, CUDA_CPU_FP16_RZ, 0)
CUDA_CPU_FP16_TO_INT(__half2uchar_rz, unsigned char, CUDA_CPU_FP16_RZ, 0)
#undef CUDA_CPU_FP16_TO_INT_ALL
#undef CUDA_CPU_FP16_TO_INT

// integer -> half.
#define CUDA_CPU_FP16_FROM_INT(name, T, mode)                                          \
  inline __half name(const T i) {                                                      \
    return CUDA_CPU_FP16_MAKE(cuda_cpu::fp16_detail::from_any_integer<T>(i, mode));    \
  }
#define CUDA_CPU_FP16_FROM_INT_ALL(stem, T)                    \
  CUDA_CPU_FP16_FROM_INT(__##stem##2half_rn, T, CUDA_CPU_FP16_RN) \
  CUDA_CPU_FP16_FROM_INT(__##stem##2half_rz, T, CUDA_CPU_FP16_RZ) \
  CUDA_CPU_FP16_FROM_INT(__##stem##2half_rd, T, CUDA_CPU_FP16_RD) \
  CUDA_CPU_FP16_FROM_INT(__##stem##2half_ru, T, CUDA_CPU_FP16_RU)
CUDA_CPU_FP16_FROM_INT_ALL(int, int)
CUDA_CPU_FP16_FROM_INT_ALL(uint, unsigned int)
CUDA_CPU_FP16_FROM_INT_ALL(short, short)
CUDA_CPU_FP16_FROM_INT_ALL(ushort, unsigned short)
CUDA_CPU_FP16_FROM_INT_ALL(ll, long long)
CUDA_CPU_FP16_FROM_INT_ALL(ull, unsigned long long)
#undef CUDA_CPU_FP16_FROM_INT_ALL
#undef CUDA_CPU_FP16_FROM_INT

// ---------------------------------------------------------------------------------------
// Arithmetic on __half.
#define CUDA_CPU_FP16_UNARY(name, expr)            \
  inline __half name(const __half a) {             \
    const std::uint16_t x = CUDA_CPU_FP16_BITS(a); \
    return CUDA_CPU_FP16_MAKE(expr);               \
  }
#define CUDA_CPU_FP16_BINARY(name, expr)                                                \
  inline __half name(const __half a, const __half b) {                                  \
    const std::uint16_t x = CUDA_CPU_FP16_BITS(a), y = CUDA_CPU_FP16_BITS(b);           \
    return CUDA_CPU_FP16_MAKE(expr);                                                    \
  }
#define CUDA_CPU_FP16_TERNARY(name, expr)                                               \
  inline __half name(const __half a, const __half b, const __half c) {                  \
    const std::uint16_t x = CUDA_CPU_FP16_BITS(a), y = CUDA_CPU_FP16_BITS(b),           \
                        z = CUDA_CPU_FP16_BITS(c);                                      \
    return CUDA_CPU_FP16_MAKE(expr);                                                    \
  }

namespace cuda_cpu {
namespace fp16_detail {
inline std::uint16_t subtract(std::uint16_t a, std::uint16_t b) {
  return add(a, static_cast<std::uint16_t>(b ^ 0x8000u));  // a NaN b stays a NaN
}
inline std::uint16_t absolute(std::uint16_t a) {  // NaN gives the canonical NaN, as abs.f16
  return is_nan(a) ? kCanonicalNaN : static_cast<std::uint16_t>(a & 0x7FFFu);
}
}  // namespace fp16_detail
}  // namespace cuda_cpu

CUDA_CPU_FP16_BINARY(__hadd, cuda_cpu::fp16_detail::add(x, y))
CUDA_CPU_FP16_BINARY(__hsub, cuda_cpu::fp16_detail::subtract(x, y))
CUDA_CPU_FP16_BINARY(__hmul, cuda_cpu::fp16_detail::multiply(x, y))
CUDA_CPU_FP16_BINARY(__hadd_rn, cuda_cpu::fp16_detail::add(x, y))
CUDA_CPU_FP16_BINARY(__hsub_rn, cuda_cpu::fp16_detail::subtract(x, y))
CUDA_CPU_FP16_BINARY(__hmul_rn, cuda_cpu::fp16_detail::multiply(x, y))
CUDA_CPU_FP16_BINARY(__hdiv, cuda_cpu::fp16_detail::divide(x, y))
CUDA_CPU_FP16_BINARY(__hadd_sat, cuda_cpu::fp16_detail::saturate(cuda_cpu::fp16_detail::add(x, y)))
CUDA_CPU_FP16_BINARY(__hsub_sat, cuda_cpu::fp16_detail::saturate(cuda_cpu::fp16_detail::subtract(x, y)))
CUDA_CPU_FP16_BINARY(__hmul_sat, cuda_cpu::fp16_detail::saturate(cuda_cpu::fp16_detail::multiply(x, y)))
CUDA_CPU_FP16_TERNARY(__hfma, cuda_cpu::fp16_detail::fma(x, y, z))
CUDA_CPU_FP16_TERNARY(__hfma_sat, cuda_cpu::fp16_detail::saturate(cuda_cpu::fp16_detail::fma(x, y, z)))
CUDA_CPU_FP16_TERNARY(__hfma_relu, cuda_cpu::fp16_detail::relu(cuda_cpu::fp16_detail::fma(x, y, z)))
CUDA_CPU_FP16_UNARY(__hneg, cuda_cpu::fp16_detail::negate(x))
CUDA_CPU_FP16_UNARY(__habs, cuda_cpu::fp16_detail::absolute(x))
CUDA_CPU_FP16_BINARY(__hmax, cuda_cpu::fp16_detail::maximum(x, y, false))
CUDA_CPU_FP16_BINARY(__hmin, cuda_cpu::fp16_detail::minimum(x, y, false))
CUDA_CPU_FP16_BINARY(__hmax_nan, cuda_cpu::fp16_detail::maximum(x, y, true))
CUDA_CPU_FP16_BINARY(__hmin_nan, cuda_cpu::fp16_detail::minimum(x, y, true))
CUDA_CPU_FP16_UNARY(hsqrt, cuda_cpu::fp16_detail::sqrt_half(x))
CUDA_CPU_FP16_UNARY(hrsqrt, cuda_cpu::fp16_detail::rsqrt_half(x))
CUDA_CPU_FP16_UNARY(hrcp, cuda_cpu::fp16_detail::rcp_half(x))
CUDA_CPU_FP16_UNARY(htrunc, cuda_cpu::fp16_detail::round_to_integral(x, CUDA_CPU_FP16_RZ))
CUDA_CPU_FP16_UNARY(hceil, cuda_cpu::fp16_detail::round_to_integral(x, CUDA_CPU_FP16_RU))
CUDA_CPU_FP16_UNARY(hfloor, cuda_cpu::fp16_detail::round_to_integral(x, CUDA_CPU_FP16_RD))
CUDA_CPU_FP16_UNARY(hrint, cuda_cpu::fp16_detail::round_to_integral(x, CUDA_CPU_FP16_RN))

// Comparisons. Ordered ones are false, unordered ones (…u) true, when an input is NaN.
#define CUDA_CPU_FP16_COMPARE(name, unordered_result, expr)             \
  inline bool name(const __half a, const __half b) {                    \
    const std::uint16_t x = CUDA_CPU_FP16_BITS(a), y = CUDA_CPU_FP16_BITS(b); \
    if (cuda_cpu::fp16_detail::is_nan(x) || cuda_cpu::fp16_detail::is_nan(y)) \
      return unordered_result;                                          \
    return expr;                                                        \
  }
#define CUDA_CPU_FP16_COMPARE_PAIR(stem, expr) \
  CUDA_CPU_FP16_COMPARE(__h##stem, false, expr) \
  CUDA_CPU_FP16_COMPARE(__h##stem##u, true, expr)
CUDA_CPU_FP16_COMPARE_PAIR(eq, cuda_cpu::fp16_detail::equal(x, y))
CUDA_CPU_FP16_COMPARE_PAIR(ne, !cuda_cpu::fp16_detail::equal(x, y))
CUDA_CPU_FP16_COMPARE_PAIR(lt, cuda_cpu::fp16_detail::less(x, y))
CUDA_CPU_FP16_COMPARE_PAIR(le, !cuda_cpu::fp16_detail::less(y, x))
CUDA_CPU_FP16_COMPARE_PAIR(gt, cuda_cpu::fp16_detail::less(y, x))
CUDA_CPU_FP16_COMPARE_PAIR(ge, !cuda_cpu::fp16_detail::less(x, y))
#undef CUDA_CPU_FP16_COMPARE_PAIR
#undef CUDA_CPU_FP16_COMPARE

inline bool __hisnan(const __half a) { return cuda_cpu::fp16_detail::is_nan(CUDA_CPU_FP16_BITS(a)); }
inline int __hisinf(const __half a) {
  const std::uint16_t x = CUDA_CPU_FP16_BITS(a);
  if (!cuda_cpu::fp16_detail::is_inf(x)) return 0;
  return cuda_cpu::fp16_detail::sign_of(x) ? -1 : 1;
}

// ---------------------------------------------------------------------------------------
// __half2: each operation lane by lane (x is the low half, y the high half).
#define CUDA_CPU_FP16_LANES1(name, f) \
  inline __half2 name(const __half2 a) { return __half2(f(a.x), f(a.y)); }
#define CUDA_CPU_FP16_LANES2(name, f) \
  inline __half2 name(const __half2 a, const __half2 b) { return __half2(f(a.x, b.x), f(a.y, b.y)); }
#define CUDA_CPU_FP16_LANES3(name, f)                                \
  inline __half2 name(const __half2 a, const __half2 b, const __half2 c) { \
    return __half2(f(a.x, b.x, c.x), f(a.y, b.y, c.y));              \
  }
CUDA_CPU_FP16_LANES2(__hadd2, __hadd)
CUDA_CPU_FP16_LANES2(__hsub2, __hsub)
CUDA_CPU_FP16_LANES2(__hmul2, __hmul)
CUDA_CPU_FP16_LANES2(__hadd2_rn, __hadd_rn)
CUDA_CPU_FP16_LANES2(__hsub2_rn, __hsub_rn)
CUDA_CPU_FP16_LANES2(__hmul2_rn, __hmul_rn)
CUDA_CPU_FP16_LANES2(__h2div, __hdiv)
CUDA_CPU_FP16_LANES2(__hadd2_sat, __hadd_sat)
CUDA_CPU_FP16_LANES2(__hsub2_sat, __hsub_sat)
CUDA_CPU_FP16_LANES2(__hmul2_sat, __hmul_sat)
CUDA_CPU_FP16_LANES3(__hfma2, __hfma)
CUDA_CPU_FP16_LANES3(__hfma2_sat, __hfma_sat)
CUDA_CPU_FP16_LANES3(__hfma2_relu, __hfma_relu)
CUDA_CPU_FP16_LANES1(__hneg2, __hneg)
CUDA_CPU_FP16_LANES1(__habs2, __habs)
CUDA_CPU_FP16_LANES2(__hmax2, __hmax)
CUDA_CPU_FP16_LANES2(__hmin2, __hmin)
CUDA_CPU_FP16_LANES2(__hmax2_nan, __hmax_nan)
CUDA_CPU_FP16_LANES2(__hmin2_nan, __hmin_nan)
CUDA_CPU_FP16_LANES1(h2sqrt, hsqrt)
CUDA_CPU_FP16_LANES1(h2rsqrt, hrsqrt)
CUDA_CPU_FP16_LANES1(h2rcp, hrcp)
CUDA_CPU_FP16_LANES1(h2trunc, htrunc)
CUDA_CPU_FP16_LANES1(h2ceil, hceil)
CUDA_CPU_FP16_LANES1(h2floor, hfloor)
CUDA_CPU_FP16_LANES1(h2rint, hrint)
#undef CUDA_CPU_FP16_LANES1
#undef CUDA_CPU_FP16_LANES2
#undef CUDA_CPU_FP16_LANES3

inline __half2 __hisnan2(const __half2 a) {
  using cuda_cpu::fp16_detail::kOne;
  return cuda_cpu::fp16_detail::make2(__hisnan(a.x) ? kOne : std::uint16_t{0},
                                      __hisnan(a.y) ? kOne : std::uint16_t{0});
}

// Lane comparisons in three forms: 1.0/0.0 per lane, 0xFFFF/0 per lane, and one bool that
// is true only when both lanes are.
#define CUDA_CPU_FP16_COMPARE2(stem)                                                       \
  inline __half2 __h##stem##2(const __half2 a, const __half2 b) {                          \
    using cuda_cpu::fp16_detail::kOne;                                                     \
    return cuda_cpu::fp16_detail::make2(__h##stem(a.x, b.x) ? kOne : std::uint16_t{0},     \
                                        __h##stem(a.y, b.y) ? kOne : std::uint16_t{0});    \
  }                                                                                        \
  inline unsigned int __h##stem##2_mask(const __half2 a, const __half2 b) {                \
    return (__h##stem(a.x, b.x) ? 0xFFFFu : 0u) | (__h##stem(a.y, b.y) ? 0xFFFF0000u : 0u); \
  }                                                                                        \
  inline bool __hb##stem##2(const __half2 a, const __half2 b) {                            \
    return __h##stem(a.x, b.x) && __h##stem(a.y, b.y);                                     \
  }
CUDA_CPU_FP16_COMPARE2(eq)
CUDA_CPU_FP16_COMPARE2(ne)
CUDA_CPU_FP16_COMPARE2(lt)
CUDA_CPU_FP16_COMPARE2(le)
CUDA_CPU_FP16_COMPARE2(gt)
CUDA_CPU_FP16_COMPARE2(ge)
CUDA_CPU_FP16_COMPARE2(equ)
CUDA_CPU_FP16_COMPARE2(neu)
CUDA_CPU_FP16_COMPARE2(ltu)
CUDA_CPU_FP16_COMPARE2(leu)
CUDA_CPU_FP16_COMPARE2(gtu)
CUDA_CPU_FP16_COMPARE2(geu)
#undef CUDA_CPU_FP16_COMPARE2

#undef CUDA_CPU_FP16_UNARY
#undef CUDA_CPU_FP16_BINARY
#undef CUDA_CPU_FP16_TERNARY
#undef CUDA_CPU_FP16_BITS
#undef CUDA_CPU_FP16_MAKE
#undef CUDA_CPU_FP16_RN
#undef CUDA_CPU_FP16_RZ
#undef CUDA_CPU_FP16_RD
#undef CUDA_CPU_FP16_RU

// ---------------------------------------------------------------------------------------
// C++ operators, as cuda_fp16.hpp defines them: computed with the intrinsics. == is the
// ordered __heq, != the unordered __hneu (so NaN != NaN); for __half2 they are the
// both-lanes forms (__hbeq2, __hbneu2, ...).
#if !defined(__CUDA_NO_HALF_OPERATORS__)
inline __half operator+(const __half& lh, const __half& rh) { return __hadd(lh, rh); }
inline __half operator-(const __half& lh, const __half& rh) { return __hsub(lh, rh); }
inline __half operator*(const __half& lh, const __half& rh) { return __hmul(lh, rh); }
inline __half operator/(const __half& lh, const __half& rh) { return __hdiv(lh, rh); }
inline __half& operator+=(__half& lh, const __half& rh) { return lh = __hadd(lh, rh); }
inline __half& operator-=(__half& lh, const __half& rh) { return lh = __hsub(lh, rh); }
inline __half& operator*=(__half& lh, const __half& rh) { return lh = __hmul(lh, rh); }
inline __half& operator/=(__half& lh, const __half& rh) { return lh = __hdiv(lh, rh); }
inline __half& operator++(__half& h) { return h = __hadd(h, __half(__half_raw{0x3C00u})); }
inline __half& operator--(__half& h) { return h = __hsub(h, __half(__half_raw{0x3C00u})); }
inline __half operator++(__half& h, const int) {
  const __half old = h;
  ++h;
  return old;
}
inline __half operator--(__half& h, const int) {
  const __half old = h;
  --h;
  return old;
}
inline __half operator+(const __half& h) { return h; }
inline __half operator-(const __half& h) { return __hneg(h); }
inline bool operator==(const __half& lh, const __half& rh) { return __heq(lh, rh); }
inline bool operator!=(const __half& lh, const __half& rh) { return __hneu(lh, rh); }
inline bool operator>(const __half& lh, const __half& rh) { return __hgt(lh, rh); }
inline bool operator<(const __half& lh, const __half& rh) { return __hlt(lh, rh); }
inline bool operator>=(const __half& lh, const __half& rh) { return __hge(lh, rh); }
inline bool operator<=(const __half& lh, const __half& rh) { return __hle(lh, rh); }
#endif  // !defined(__CUDA_NO_HALF_OPERATORS__)

#if !defined(__CUDA_NO_HALF2_OPERATORS__)
inline __half2 operator+(const __half2& lh, const __half2& rh) { return __hadd2(lh, rh); }
inline __half2 operator-(const __half2& lh, const __half2& rh) { return __hsub2(lh, rh); }
inline __half2 operator*(const __half2& lh, const __half2& rh) { return __hmul2(lh, rh); }
inline __half2 operator/(const __half2& lh, const __half2& rh) { return __h2div(lh, rh); }
inline __half2& operator+=(__half2& lh, const __half2& rh) { return lh = __hadd2(lh, rh); }
inline __half2& operator-=(__half2& lh, const __half2& rh) { return lh = __hsub2(lh, rh); }
inline __half2& operator*=(__half2& lh, const __half2& rh) { return lh = __hmul2(lh, rh); }
inline __half2& operator/=(__half2& lh, const __half2& rh) { return lh = __h2div(lh, rh); }
inline __half2& operator++(__half2& h) {
  return h = __hadd2(h, __half2(__half2_raw{0x3C00u, 0x3C00u}));
}
inline __half2& operator--(__half2& h) {
  return h = __hsub2(h, __half2(__half2_raw{0x3C00u, 0x3C00u}));
}
inline __half2 operator++(__half2& h, const int) {
  const __half2 old = h;
  ++h;
  return old;
}
inline __half2 operator--(__half2& h, const int) {
  const __half2 old = h;
  --h;
  return old;
}
inline __half2 operator+(const __half2& h) { return h; }
inline __half2 operator-(const __half2& h) { return __hneg2(h); }
inline bool operator==(const __half2& lh, const __half2& rh) { return __hbeq2(lh, rh); }
inline bool operator!=(const __half2& lh, const __half2& rh) { return __hbneu2(lh, rh); }
inline bool operator>(const __half2& lh, const __half2& rh) { return __hbgt2(lh, rh); }
inline bool operator<(const __half2& lh, const __half2& rh) { return __hblt2(lh, rh); }
inline bool operator>=(const __half2& lh, const __half2& rh) { return __hbge2(lh, rh); }
inline bool operator<=(const __half2& lh, const __half2& rh) { return __hble2(lh, rh); }
#endif  // !defined(__CUDA_NO_HALF2_OPERATORS__)

#endif  // CUDA_CPU_COMPAT_CUDA_FP16_H_

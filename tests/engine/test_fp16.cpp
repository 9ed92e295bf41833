// The CPU backend's <cuda_fp16.h> (checker/engine/include/cuda_cpu/compat/cuda_fp16.h),
// checked against references written another way: values as exact integers or rationals
// (in units of 2^-24, the smallest half, compared in __int128), rounding by searching the
// ordered list of halves for the neighbours of the exact value. The header rounds by bit
// manipulation; nothing here shares its code. What the GPU does with NaNs and signed zeros
// was measured on an H100 (see the header's comment); those rules are checked as constants.
#include <doctest/doctest.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ios>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuda_cpu/compat/cuda_fp16.h"

namespace {

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

enum class Mode { rn, rz, rd, ru };
const Mode kModes[] = {Mode::rn, Mode::rz, Mode::rd, Mode::ru};
const char* mode_name(Mode m) {
  switch (m) {
    case Mode::rn: return "rn";
    case Mode::rz: return "rz";
    case Mode::rd: return "rd";
    default: return "ru";
  }
}

std::uint16_t bits(__half h) { return __half_as_ushort(h); }
__half half_of(std::uint16_t b) { return __ushort_as_half(b); }
std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
double double_of(std::uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

bool is_nan(std::uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0; }
bool is_inf(std::uint16_t h) { return (h & 0x7FFF) == 0x7C00; }
bool is_zero(std::uint16_t h) { return (h & 0x7FFF) == 0; }
bool negative(std::uint16_t h) { return (h & 0x8000) != 0; }

// |h| in units of 2^-24, for finite h; 0x7C00 stands for 2^16, the value one step past the
// largest half (where rounding to nearest switches to infinity at the midpoint 65520).
u128 units(std::uint16_t h) {
  const unsigned field = (h >> 10) & 31, mantissa = h & 0x3FF;
  if (field == 0) return mantissa;
  return static_cast<u128>(1024 + mantissa) << (field - 1);
}
// A half's value from its fields with ldexp: the independent decoder.
double value_of(std::uint16_t h) {
  const unsigned field = (h >> 10) & 31, mantissa = h & 0x3FF;
  double v = field == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, int(field) - 25);
  if (field == 31) v = mantissa ? NAN : INFINITY;
  return negative(h) ? -v : v;
}

// The reference rounding. `cmp(u, s)` returns the sign of (|exact value| - u * 2^-(24+s));
// the value is nonzero. Finds the halves just below and above by binary search over the
// ordered positive bit patterns, then picks one as the mode says.
template <typename Cmp>
std::uint16_t reference_round(bool neg, Cmp cmp, Mode mode) {
  const std::uint16_t sign = neg ? 0x8000 : 0;
  unsigned lo = 0, hi = 0x7C00;  // largest pattern p with value >= units(p)
  if (cmp(units(0x7C00), 0) >= 0) {  // at or past 2^16
    const bool inf = mode == Mode::rn || (mode == Mode::ru && !neg) || (mode == Mode::rd && neg);
    return sign | (inf ? 0x7C00 : 0x7BFF);
  }
  while (hi - lo > 1) {
    const unsigned mid = (lo + hi) / 2;
    if (cmp(units(static_cast<std::uint16_t>(mid)), 0) >= 0) lo = mid; else hi = mid;
  }
  if (cmp(units(static_cast<std::uint16_t>(lo)), 0) == 0) return static_cast<std::uint16_t>(sign | lo);
  unsigned pick = lo;  // hi == lo + 1, possibly 0x7C00 (infinity)
  switch (mode) {
    case Mode::rn: {
      const int c = cmp(units(static_cast<std::uint16_t>(lo)) + units(static_cast<std::uint16_t>(hi)), 1);
      pick = c < 0 ? lo : c > 0 ? hi : (lo % 2 == 0 ? lo : hi);
      break;
    }
    case Mode::rz: pick = lo; break;
    case Mode::rd: pick = neg ? hi : lo; break;
    case Mode::ru: pick = neg ? lo : hi; break;
  }
  return static_cast<std::uint16_t>(sign | pick);
}

int sign_of(i128 v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }

// |value| = n / d exactly.
std::uint16_t reference_rational(bool neg, u128 n, u128 d, Mode mode) {
  return reference_round(
      neg, [&](u128 u, int s) { return sign_of(static_cast<i128>(n << (24 + s)) - static_cast<i128>(u * d)); },
      mode);
}

// A finite binary floating-point value m * 2^e (via frexp, not the bits) rounded to half.
std::uint16_t reference_from_binary(double v, int precision, Mode mode) {
  if (std::isnan(v)) return 0x7FFF;
  const bool neg = std::signbit(v);
  const std::uint16_t sign = neg ? 0x8000 : 0;
  if (std::isinf(v)) return sign | 0x7C00;
  if (v == 0) return sign;
  int e;
  const double fraction = std::frexp(std::fabs(v), &e);  // |v| = fraction * 2^e
  if (e >= 18) return reference_round(neg, [](u128, int) { return 1; }, mode);  // >= 2^17
  if (e <= -30) {  // below 2^-30: far under half the smallest subnormal
    const bool away = (mode == Mode::ru && !neg) || (mode == Mode::rd && neg);
    return sign | (away ? 1 : 0);
  }
  const u128 m = static_cast<u128>(std::ldexp(fraction, precision));  // exact integer
  const int exp = e - precision;
  if (exp >= 0) return reference_rational(neg, m << exp, 1, mode);
  return reference_rational(neg, m, static_cast<u128>(1) << -exp, mode);
}

std::uint16_t convert(float f, Mode mode) {
  switch (mode) {
    case Mode::rn: return bits(__float2half_rn(f));
    case Mode::rz: return bits(__float2half_rz(f));
    case Mode::rd: return bits(__float2half_rd(f));
    default: return bits(__float2half_ru(f));
  }
}

// --- Exact arithmetic references on halves (IEEE special cases spelled out). ----------
i128 signed_units(std::uint16_t h) {
  const i128 u = static_cast<i128>(units(h & 0x7FFF));
  return negative(h) ? -u : u;
}

std::uint16_t reference_add(std::uint16_t a, std::uint16_t b) {
  if (is_nan(a) || is_nan(b)) return 0x7FFF;
  if (is_inf(a) && is_inf(b)) return negative(a) == negative(b) ? a : 0x7FFF;
  if (is_inf(a)) return a;
  if (is_inf(b)) return b;
  const i128 s = signed_units(a) + signed_units(b);
  if (s == 0) return (is_zero(a) && is_zero(b) && negative(a) && negative(b)) ? 0x8000 : 0;
  return reference_rational(s < 0, static_cast<u128>(s < 0 ? -s : s), static_cast<u128>(1) << 24, Mode::rn);
}

std::uint16_t reference_mul(std::uint16_t a, std::uint16_t b) {
  if (is_nan(a) || is_nan(b)) return 0x7FFF;
  const bool neg = negative(a) != negative(b);
  if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) return 0x7FFF;
  if (is_inf(a) || is_inf(b)) return (neg ? 0x8000 : 0) | 0x7C00;
  const u128 p = units(a & 0x7FFF) * units(b & 0x7FFF);
  if (p == 0) return neg ? 0x8000 : 0;
  return reference_rational(neg, p, static_cast<u128>(1) << 48, Mode::rn);
}

std::uint16_t reference_fma(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  if (is_nan(a) || is_nan(b) || is_nan(c)) return 0x7FFF;
  const bool pneg = negative(a) != negative(b);
  if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) return 0x7FFF;
  if (is_inf(a) || is_inf(b)) {
    if (is_inf(c) && negative(c) != pneg) return 0x7FFF;
    return (pneg ? 0x8000 : 0) | 0x7C00;
  }
  if (is_inf(c)) return c;
  const i128 p = signed_units(a) * signed_units(b);  // units of 2^-48, exact
  const i128 s = p + signed_units(c) * (static_cast<i128>(1) << 24);  // units of 2^-48
  if (s == 0) {
    const bool product_zero = is_zero(a) || is_zero(b);
    return (product_zero && is_zero(c) && pneg && negative(c)) ? 0x8000 : 0;
  }
  return reference_rational(s < 0, static_cast<u128>(s < 0 ? -s : s), static_cast<u128>(1) << 48, Mode::rn);
}

std::uint16_t reference_div(std::uint16_t a, std::uint16_t b) {
  if (is_nan(a) || is_nan(b)) return 0x7FFF;
  const bool neg = negative(a) != negative(b);
  const std::uint16_t sign = neg ? 0x8000 : 0;
  if ((is_inf(a) && is_inf(b)) || (is_zero(a) && is_zero(b))) return 0x7FFF;
  if (is_inf(a) || is_zero(b)) return sign | 0x7C00;
  if (is_inf(b) || is_zero(a)) return sign;
  return reference_rational(neg, units(a & 0x7FFF), units(b & 0x7FFF), Mode::rn);
}

// Halves that exercise the corners, both signs.
std::vector<std::uint16_t> edge_halves() {
  const std::uint16_t magnitudes[] = {
      0x0000, 0x0001, 0x0002, 0x0003, 0x00FF, 0x0200, 0x03FE, 0x03FF, 0x0400, 0x0401, 0x07FF,
      0x0800, 0x1000, 0x13FF, 0x2E66, 0x3555, 0x3BFF, 0x3C00, 0x3C01, 0x3E00, 0x3FFF, 0x4000,
      0x4200, 0x4900, 0x5BFF, 0x5C00, 0x6400, 0x77FF, 0x7800, 0x7BFE, 0x7BFF, 0x7C00, 0x7C01,
      0x7D55, 0x7E00, 0x7FFF};
  std::vector<std::uint16_t> out;
  for (std::uint16_t m : magnitudes) {
    out.push_back(m);
    out.push_back(static_cast<std::uint16_t>(m | 0x8000));
  }
  return out;
}

// Random halves, a quarter of them from the edge list and most of the rest near 1, so that
// sums and products of two land in the interesting ranges often.
struct HalfSource {
  std::mt19937_64 rng;
  std::vector<std::uint16_t> edges = edge_halves();
  explicit HalfSource(std::uint64_t seed) : rng(seed) {}
  std::uint16_t operator()() {
    const std::uint64_t r = rng();
    switch (r & 3) {
      case 0: return edges[(r >> 8) % edges.size()];
      case 1: return static_cast<std::uint16_t>(r >> 16);
      default: {  // exponent field 9..21 (2^-6 .. 2^6), random sign and mantissa
        const unsigned field = 9 + (r >> 8) % 13;
        return static_cast<std::uint16_t>(((r >> 20) & 0x8000) | (field << 10) | ((r >> 32) & 0x3FF));
      }
    }
  }
};

}  // namespace

TEST_CASE("fp16: __half and __half2 have CUDA's size and alignment and are trivially copyable") {
  static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "");
  static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "");
  static_assert(std::is_trivially_copyable<__half>::value, "");
  static_assert(std::is_trivially_copyable<__half2>::value, "");
  static_assert(std::is_trivially_default_constructible<__half>::value, "");
  static_assert(std::is_same<half, __half>::value && std::is_same<half2, __half2>::value, "");
  // Low half first in memory, as on the GPU (a __half2 uploaded as two ushorts).
  const unsigned short raw[2] = {0x3C00, 0x4000};
  __half2 h2;
  std::memcpy(&h2, raw, 4);
  CHECK(__low2float(h2) == 1.0f);
  CHECK(__high2float(h2) == 2.0f);
  __half value_initialized{};
  CHECK(bits(value_initialized) == 0);
}

TEST_CASE("fp16: every half survives half -> float -> half, and every NaN comes back as 0x7FFF") {
  int nans = 0;
  for (unsigned h = 0; h < 0x10000; ++h) {
    const std::uint16_t in = static_cast<std::uint16_t>(h);
    const float f = __half2float(half_of(in));
    const std::uint16_t back = bits(__float2half(f));
    if (is_nan(in)) {
      ++nans;
      REQUIRE(back == 0x7FFF);
    } else {
      INFO("half 0x" << std::hex << h);
      REQUIRE(back == in);
      for (Mode m : kModes) REQUIRE(convert(f, m) == in);  // exact: no mode may move it
    }
  }
  CHECK(nans == 2 * 1023);
}

TEST_CASE("fp16: half -> float is exact (ldexp of the fields) and gives 0x7FFFFFFF for NaN") {
  for (unsigned h = 0; h < 0x10000; ++h) {
    const std::uint16_t in = static_cast<std::uint16_t>(h);
    const float f = __half2float(half_of(in));
    INFO("half 0x" << std::hex << h);
    if (is_nan(in)) {
      REQUIRE(float_bits(f) == 0x7FFFFFFFu);
    } else {
      REQUIRE(static_cast<double>(f) == value_of(in));
      REQUIRE(std::signbit(f) == negative(in));
    }
  }
}

TEST_CASE("fp16: float -> half edge cases in all four rounding modes") {
  struct Case {
    float in;
    std::uint16_t rn, rz, rd, ru;
  };
  const float inf = std::numeric_limits<float>::infinity();
  const float denorm_min = std::numeric_limits<float>::denorm_min();
  const Case cases[] = {
      {0.0f, 0x0000, 0x0000, 0x0000, 0x0000},
      {-0.0f, 0x8000, 0x8000, 0x8000, 0x8000},
      {1.0f, 0x3C00, 0x3C00, 0x3C00, 0x3C00},
      {65504.0f, 0x7BFF, 0x7BFF, 0x7BFF, 0x7BFF},                        // largest half
      {65519.99609375f, 0x7BFF, 0x7BFF, 0x7BFF, 0x7C00},                 // just below the tie
      {65520.0f, 0x7C00, 0x7BFF, 0x7BFF, 0x7C00},                        // tie: to even = inf
      {-65520.0f, 0xFC00, 0xFBFF, 0xFC00, 0xFBFF},
      {65536.0f, 0x7C00, 0x7BFF, 0x7BFF, 0x7C00},
      {1e30f, 0x7C00, 0x7BFF, 0x7BFF, 0x7C00},
      {-1e30f, 0xFC00, 0xFBFF, 0xFC00, 0xFBFF},
      {inf, 0x7C00, 0x7C00, 0x7C00, 0x7C00},
      {-inf, 0xFC00, 0xFC00, 0xFC00, 0xFC00},
      {0x1p-24f, 0x0001, 0x0001, 0x0001, 0x0001},                        // smallest subnormal
      {0x1p-25f, 0x0000, 0x0000, 0x0000, 0x0001},                        // tie with 0: even
      {0x1.000002p-25f, 0x0001, 0x0000, 0x0000, 0x0001},                 // just above the tie
      {0x1.8p-24f, 0x0002, 0x0001, 0x0001, 0x0002},                      // 1.5 ulp: tie to 2
      {0x1.4p-23f, 0x0002, 0x0002, 0x0002, 0x0003},                      // 2.5 ulp: tie to 2
      {0x1.ff8p-15f, 0x03FF, 0x03FF, 0x03FF, 0x03FF},                    // largest subnormal
      {0x1.ffcp-15f, 0x0400, 0x03FF, 0x03FF, 0x0400},                    // tie: to even 0x400
      {0x1.ffep-15f, 0x0400, 0x03FF, 0x03FF, 0x0400},
      {0x1p-14f, 0x0400, 0x0400, 0x0400, 0x0400},                        // smallest normal
      {-0x1.ffcp-15f, 0x8400, 0x83FF, 0x8400, 0x83FF},
      {0x1.002p0f, 0x3C00, 0x3C00, 0x3C00, 0x3C01},                      // 1 + half ulp: tie
      {0x1.006p0f, 0x3C02, 0x3C01, 0x3C01, 0x3C02},                      // 1 + 1.5 ulp: tie
      {0x1.002002p0f, 0x3C01, 0x3C00, 0x3C00, 0x3C01},                   // one ulp above the tie
      {-0x1.002002p0f, 0xBC01, 0xBC00, 0xBC01, 0xBC00},
      {denorm_min, 0x0000, 0x0000, 0x0000, 0x0001},                      // float subnormal
      {-denorm_min, 0x8000, 0x8000, 0x8001, 0x8000},
      {0.1f, 0x2E66, 0x2E66, 0x2E66, 0x2E67},
      {-0.1f, 0xAE66, 0xAE66, 0xAE67, 0xAE66},
  };
  for (const Case& c : cases) {
    INFO("float " << c.in);
    CHECK(convert(c.in, Mode::rn) == c.rn);
    CHECK(convert(c.in, Mode::rz) == c.rz);
    CHECK(convert(c.in, Mode::rd) == c.rd);
    CHECK(convert(c.in, Mode::ru) == c.ru);
    CHECK(bits(__float2half(c.in)) == c.rn);
    CHECK(bits(__half(c.in)) == c.rn);
    // The reference agrees with the table, so the random tests below rest on it.
    CHECK(reference_from_binary(c.in, 24, Mode::rn) == c.rn);
    CHECK(reference_from_binary(c.in, 24, Mode::rz) == c.rz);
    CHECK(reference_from_binary(c.in, 24, Mode::rd) == c.rd);
    CHECK(reference_from_binary(c.in, 24, Mode::ru) == c.ru);
  }
  // NaN: the canonical NaN in every mode, whatever the sign and payload.
  for (std::uint32_t nan : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu, 0x7FA00000u}) {
    for (Mode m : kModes) CHECK(convert(float_of(nan), m) == 0x7FFF);
  }
}

TEST_CASE("fp16: float -> half matches an exact rational reference on 2M seeded random floats "
          "and a sweep across all float bit patterns, in all four modes") {
  std::mt19937_64 rng(20261123);
  long checked = 0;
  auto check = [&](std::uint32_t u) {
    const float f = float_of(u);
    for (Mode m : kModes) {
      const std::uint16_t got = convert(f, m), want = reference_from_binary(f, 24, m);
      if (got != want) {
        INFO("float bits 0x" << std::hex << u << " mode " << mode_name(m));
        REQUIRE(got == want);
      }
    }
    ++checked;
  };
  for (int i = 0; i < 2000000; ++i) {
    const std::uint64_t r = rng();
    std::uint32_t u;
    switch (r & 3) {
      case 0: u = static_cast<std::uint32_t>(r >> 32); break;  // any float
      case 1: {  // exponent 2^-28 .. 2^17: the half range and its borders
        const std::uint32_t field = 127 - 28 + static_cast<std::uint32_t>((r >> 8) % 46);
        u = static_cast<std::uint32_t>((r >> 32) & 0x807FFFFF) | (field << 23);
        break;
      }
      default: {  // within a few float ulps of a half-rounding tie (low 13 bits 0x1000)
        const std::uint32_t field = 127 - 25 + static_cast<std::uint32_t>((r >> 8) % 42);
        const std::uint32_t tie = static_cast<std::uint32_t>((r >> 32) & 0x807FE000) | (field << 23) | 0x1000;
        u = tie + static_cast<std::uint32_t>(static_cast<int>((r >> 16) % 7) - 3);
        break;
      }
    }
    check(u);
  }
  for (std::uint64_t u = 0; u < (1ull << 32); u += 4099) check(static_cast<std::uint32_t>(u));
  CHECK(checked > 3000000);
}

TEST_CASE("fp16: double -> half rounds once (never through float) and keeps a NaN's sign and payload") {
  // 1 + 2^-11 + 2^-40: just above the tie between 1 and its successor. Through float it
  // would first become 1 + 2^-11 exactly, a tie, and round down to 1.
  const double above_tie = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  CHECK(bits(__double2half(above_tie)) == 0x3C01);
  CHECK(bits(__float2half(static_cast<float>(above_tie))) == 0x3C00);
  CHECK(bits(__half(above_tie)) == 0x3C01);
  CHECK(bits(__double2half(65520.0)) == 0x7C00);
  CHECK(bits(__double2half(65519.999999)) == 0x7BFF);
  CHECK(bits(__double2half(std::ldexp(1.0, -25))) == 0x0000);
  CHECK(bits(__double2half(std::ldexp(1.0, -25) + std::ldexp(1.0, -70))) == 0x0001);
  CHECK(bits(__double2half(-std::numeric_limits<double>::denorm_min())) == 0x8000);
  CHECK(bits(__double2half(1e300)) == 0x7C00);
  // NaN (measured on the GPU): sign kept, top 10 payload bits kept, quiet bit set.
  CHECK(bits(__double2half(double_of(0x7FF8000000000000ull))) == 0x7E00);
  CHECK(bits(__double2half(double_of(0xFFF8000000000000ull))) == 0xFE00);
  CHECK(bits(__double2half(double_of(0xFFF530FEAA64A777ull))) == 0xFF4C);
  CHECK(bits(__double2half(double_of(0x7FF0000000000001ull))) == 0x7E00);
  CHECK(bits(__double2half(double_of(0xFFFFFFFFFFFFFFFEull))) == 0xFFFF);

  std::mt19937_64 rng(7);
  for (int i = 0; i < 500000; ++i) {
    const std::uint64_t r = rng();
    std::uint64_t u = rng();
    if (r & 1) {  // exponent 2^-30 .. 2^17
      u = (u & 0x800FFFFFFFFFFFFFull) | (static_cast<std::uint64_t>(1023 - 30 + (r >> 8) % 48) << 52);
    }
    const double d = double_of(u);
    if (std::isnan(d)) continue;
    INFO("double bits 0x" << std::hex << u);
    REQUIRE(bits(__double2half(d)) == reference_from_binary(d, 53, Mode::rn));
  }
}

TEST_CASE("fp16: integer -> half and half -> integer conversions: rounding modes, saturation, NaN") {
  // 2049 lies halfway between the halves 2048 and 2050.
  CHECK(bits(__int2half_rn(2049)) == bits(__float2half(2048.0f)));
  CHECK(bits(__int2half_rn(2051)) == bits(__float2half(2052.0f)));
  CHECK(bits(__int2half_rz(2051)) == bits(__float2half(2050.0f)));
  CHECK(bits(__int2half_rd(-2049)) == bits(__float2half(-2050.0f)));
  CHECK(bits(__int2half_ru(-2049)) == bits(__float2half(-2048.0f)));
  CHECK(bits(__int2half_rn(65520)) == 0x7C00);
  CHECK(bits(__int2half_rz(65520)) == 0x7BFF);
  CHECK(bits(__int2half_rn(std::numeric_limits<int>::min())) == 0xFC00);
  CHECK(bits(__int2half_rn(0)) == 0x0000);
  CHECK(bits(__uint2half_rn(4294967295u)) == 0x7C00);
  CHECK(bits(__ll2half_rn(-9223372036854775807ll - 1)) == 0xFC00);
  CHECK(bits(__ull2half_rz(18446744073709551615ull)) == 0x7BFF);
  CHECK(bits(__ushort2half_rn(65535)) == 0x7C00);  // 65535 > 65520
  CHECK(bits(__short2half_rn(-32768)) == 0xF800);
  std::mt19937 rng(3);
  for (int i = 0; i < 200000; ++i) {
    const int v = static_cast<int>(rng()) >> (rng() % 32);
    const bool neg = v < 0;
    const u128 mag = static_cast<u128>(neg ? -static_cast<long long>(v) : v);
    INFO("int " << v);
    if (v == 0) continue;
    REQUIRE(bits(__int2half_rn(v)) == reference_rational(neg, mag, 1, Mode::rn));
    REQUIRE(bits(__int2half_rz(v)) == reference_rational(neg, mag, 1, Mode::rz));
    REQUIRE(bits(__int2half_rd(v)) == reference_rational(neg, mag, 1, Mode::rd));
    REQUIRE(bits(__int2half_ru(v)) == reference_rational(neg, mag, 1, Mode::ru));
  }

  // half -> integer, every half, against float rounding of the exact value.
  for (unsigned h = 0; h < 0x10000; ++h) {
    const __half x = half_of(static_cast<std::uint16_t>(h));
    INFO("half 0x" << std::hex << h);
    if (is_nan(static_cast<std::uint16_t>(h))) {
      REQUIRE(__half2int_rn(x) == 0);
      REQUIRE(__half2uint_rz(x) == 0u);
      REQUIRE(__half2short_rz(x) == 0);
      REQUIRE(__half2ushort_rz(x) == 0);
      REQUIRE(__half2ll_rz(x) == std::numeric_limits<long long>::min());
      REQUIRE(__half2ull_rz(x) == 0x8000000000000000ull);
      continue;
    }
    const double v = value_of(static_cast<std::uint16_t>(h));
    auto clamp = [](double r, double lo, double hi) { return r < lo ? lo : r > hi ? hi : r; };
    REQUIRE(__half2int_rn(x) == static_cast<int>(clamp(std::nearbyint(v), INT_MIN, INT_MAX)));
    REQUIRE(__half2int_rz(x) == static_cast<int>(clamp(std::trunc(v), INT_MIN, INT_MAX)));
    REQUIRE(__half2int_rd(x) == static_cast<int>(clamp(std::floor(v), INT_MIN, INT_MAX)));
    REQUIRE(__half2int_ru(x) == static_cast<int>(clamp(std::ceil(v), INT_MIN, INT_MAX)));
    REQUIRE(__half2uint_rz(x) == static_cast<unsigned>(clamp(std::trunc(v), 0, UINT_MAX)));
    REQUIRE(__half2short_rz(x) == static_cast<short>(clamp(std::trunc(v), SHRT_MIN, SHRT_MAX)));
    REQUIRE(__half2ushort_rn(x) == static_cast<unsigned short>(clamp(std::nearbyint(v), 0, USHRT_MAX)));
    REQUIRE(__half2char_rz(x) == static_cast<signed char>(clamp(std::trunc(v), SCHAR_MIN, SCHAR_MAX)));
    REQUIRE(__half2uchar_rz(x) == static_cast<unsigned char>(clamp(std::trunc(v), 0, UCHAR_MAX)));
    if (!std::isinf(v)) REQUIRE(__half2ll_rd(x) == static_cast<long long>(std::floor(v)));
  }
  CHECK(__half2ll_rz(half_of(0x7C00)) == std::numeric_limits<long long>::max());
  CHECK(__half2ull_rz(half_of(0xFC00)) == 0ull);
}

TEST_CASE("fp16: __hadd, __hsub, __hmul match the exact reference on edge values x every half "
          "and on 1M random pairs") {
  const std::vector<std::uint16_t> edges = edge_halves();
  auto check = [](std::uint16_t a, std::uint16_t b) {
    const __half x = half_of(a), y = half_of(b);
    // a - b is a + (-b) as real numbers; a NaN b stays a NaN with its sign flipped.
    const std::uint16_t minus_b = static_cast<std::uint16_t>(b ^ 0x8000);
    if (bits(__hadd(x, y)) != reference_add(a, b) || bits(__hsub(x, y)) != reference_add(a, minus_b) ||
        bits(__hmul(x, y)) != reference_mul(a, b)) {
      INFO("a=0x" << std::hex << a << " b=0x" << b);
      REQUIRE(bits(__hadd(x, y)) == reference_add(a, b));
      REQUIRE(bits(__hsub(x, y)) == reference_add(a, minus_b));
      REQUIRE(bits(__hmul(x, y)) == reference_mul(a, b));
    }
  };
  for (std::uint16_t a : edges)
    for (unsigned b = 0; b < 0x10000; b += 3) check(a, static_cast<std::uint16_t>(b));
  HalfSource source(11);
  for (int i = 0; i < 1000000; ++i) {
    const std::uint16_t a = source(), b = source();
    check(a, b);
  }
  // The named forms and the operators compute the same.
  CHECK(bits(__hadd_rn(half_of(0x3C00), half_of(0x1000))) == reference_add(0x3C00, 0x1000));
  CHECK(bits(half_of(0x3C01) * half_of(0x3C01)) == reference_mul(0x3C01, 0x3C01));
  CHECK(bits(half_of(0x7BFF) + half_of(0x5000)) == 0x7C00);  // 65504 + 32 = 65536: overflow
  CHECK(bits(half_of(0x7BFF) + half_of(0x4B00)) == 0x7BFF);  // 65504 + 14 rounds back down
  CHECK(bits(__hsub(half_of(0x3C00), half_of(0x3C00))) == 0x0000);  // x - x = +0
  CHECK(bits(__hadd(half_of(0x8000), half_of(0x8000))) == 0x8000);  // -0 + -0 = -0
  CHECK(bits(__hmul(half_of(0x0001), half_of(0x3800))) == 0x0000);  // 2^-25: tie to even 0
  CHECK(bits(__hmul(half_of(0x0003), half_of(0x3800))) == 0x0002);  // 1.5 ulp: tie to 2
}

TEST_CASE("fp16: __hfma matches the exact __int128 reference, including cancellation and "
          "subnormal results") {
  HalfSource source(12);
  std::mt19937_64 rng(13);
  for (int i = 0; i < 1500000; ++i) {
    const std::uint16_t a = source(), b = source();
    std::uint16_t c = source();
    switch (rng() % 3) {
      case 0: {  // c near -(a*b): heavy cancellation, result decided by the low bits
        const std::uint16_t p = bits(__hmul(half_of(a), half_of(b)));
        c = static_cast<std::uint16_t>((p ^ 0x8000) + static_cast<int>(rng() % 5) - 2);
        break;
      }
      case 1: c = static_cast<std::uint16_t>(rng() & 0x83FF); break;  // subnormal addend
      default: break;
    }
    const std::uint16_t got = bits(__hfma(half_of(a), half_of(b), half_of(c)));
    const std::uint16_t want = reference_fma(a, b, c);
    if (got != want) {
      INFO("a=0x" << std::hex << a << " b=0x" << b << " c=0x" << c);
      REQUIRE(got == want);
    }
  }
  // One rounding, not two: (1 + 2^-10)(1 - 2^-11) - 1 = 2^-11 - 2^-21, a half; rounding the
  // product first gives 1, and then 0.
  CHECK(bits(__hfma(half_of(0x3C01), half_of(0x3BFF), half_of(0xBC00))) == 0x0FFE);
  CHECK(bits(__hadd(__hmul(half_of(0x3C01), half_of(0x3BFF)), half_of(0xBC00))) == 0x0000);
  CHECK(bits(__hfma(half_of(0x3C00), half_of(0x3C00), half_of(0xBC00))) == 0x0000);  // exact 0 is +0
  CHECK(bits(__hfma(half_of(0x8000), half_of(0x3C00), half_of(0x8000))) == 0x8000);  // -0 + -0
  CHECK(bits(__hfma(half_of(0x7C00), half_of(0x0000), half_of(0x3C00))) == 0x7FFF);  // inf * 0
  CHECK(bits(__hfma(half_of(0x7C00), half_of(0x3C00), half_of(0xFC00))) == 0x7FFF);  // inf - inf
  CHECK(bits(__hfma(half_of(0x0001), half_of(0x0001), half_of(0x0000))) == 0x0000);  // 2^-48
  CHECK(bits(__hfma(half_of(0x0001), half_of(0x0001), half_of(0x8001))) == 0x8001);
}

TEST_CASE("fp16: __hdiv matches the exact reference, including subnormal ties and division by zero") {
  HalfSource source(14);
  for (int i = 0; i < 1000000; ++i) {
    const std::uint16_t a = source(), b = source();
    const std::uint16_t got = bits(__hdiv(half_of(a), half_of(b)));
    if (got != reference_div(a, b)) {
      INFO("a=0x" << std::hex << a << " b=0x" << b);
      REQUIRE(got == reference_div(a, b));
    }
  }
  for (unsigned a = 0; a < 0x10000; a += 7) {  // every 7th half over a few divisors
    for (std::uint16_t b : {0x0001, 0x0003, 0x3C00, 0x4000, 0x4200, 0x4248, 0x5640, 0x7BFF, 0x8000}) {
      const std::uint16_t x = static_cast<std::uint16_t>(a);
      INFO("a=0x" << std::hex << x << " b=0x" << b);
      REQUIRE(bits(__hdiv(half_of(x), half_of(b))) == reference_div(x, b));
    }
  }
  CHECK(bits(__hdiv(half_of(0x0001), half_of(0x4000))) == 0x0000);  // 2^-25: tie to even 0
  CHECK(bits(__hdiv(half_of(0x0003), half_of(0x4000))) == 0x0002);  // 1.5 ulp: tie to 2
  CHECK(bits(__hdiv(half_of(0x3C00), half_of(0x0000))) == 0x7C00);
  CHECK(bits(__hdiv(half_of(0xBC00), half_of(0x0000))) == 0xFC00);
  CHECK(bits(__hdiv(half_of(0x0000), half_of(0x0000))) == 0x7FFF);
  CHECK(bits(__hdiv(half_of(0x7C00), half_of(0xFC00))) == 0x7FFF);
  CHECK(bits(__hdiv(half_of(0x3C00), half_of(0xFC00))) == 0x8000);
  CHECK(bits(half_of(0x3C00) / half_of(0x4200)) == 0x3555);  // 1/3
}

TEST_CASE("fp16: NaN results are the canonical 0x7FFF (arithmetic, __hneg, __habs)") {
  const std::uint16_t nans[] = {0x7C01, 0x7E00, 0x7FFF, 0xFC01, 0xFE00, 0xFFFF, 0x7D55};
  const __half one = half_of(0x3C00);
  for (std::uint16_t n : nans) {
    const __half x = half_of(n);
    INFO("NaN 0x" << std::hex << n);
    CHECK(bits(__hadd(x, one)) == 0x7FFF);
    CHECK(bits(__hsub(one, x)) == 0x7FFF);
    CHECK(bits(__hmul(x, x)) == 0x7FFF);
    CHECK(bits(__hdiv(one, x)) == 0x7FFF);
    CHECK(bits(__hfma(one, one, x)) == 0x7FFF);
    CHECK(bits(__hneg(x)) == 0x7FFF);
    CHECK(bits(-x) == 0x7FFF);
    CHECK(bits(__habs(x)) == 0x7FFF);
    CHECK(bits(hsqrt(x)) == 0x7FFF);
    CHECK(bits(hrint(x)) == 0x7FFF);
    CHECK(bits(__float2half(__half2float(x))) == 0x7FFF);
  }
  // Operations that make a NaN from numbers.
  CHECK(bits(__hsub(half_of(0x7C00), half_of(0x7C00))) == 0x7FFF);
  CHECK(bits(__hmul(half_of(0xFC00), half_of(0x0000))) == 0x7FFF);
  CHECK(bits(hsqrt(half_of(0xBC00))) == 0x7FFF);
  // neg and abs on numbers only touch the sign.
  CHECK(bits(__hneg(half_of(0x0000))) == 0x8000);
  CHECK(bits(__habs(half_of(0xFC00))) == 0x7C00);
  CHECK(bits(__habs(half_of(0x8001))) == 0x0001);
  // __half2: per lane.
  const __half2 mixed = __halves2half2(half_of(0xFE00), half_of(0xBC00));
  CHECK(bits(__low2half(__hneg2(mixed))) == 0x7FFF);
  CHECK(bits(__high2half(__hneg2(mixed))) == 0x3C00);
}

TEST_CASE("fp16: __hmax/__hmin and their _nan variants follow CUDA's NaN and signed-zero rules") {
  const __half pz = half_of(0x0000), nz = half_of(0x8000), one = half_of(0x3C00), nan = half_of(0xFE01);
  CHECK(bits(__hmax(pz, nz)) == 0x0000);
  CHECK(bits(__hmax(nz, pz)) == 0x0000);
  CHECK(bits(__hmin(pz, nz)) == 0x8000);
  CHECK(bits(__hmin(nz, pz)) == 0x8000);
  CHECK(bits(__hmax(nan, one)) == 0x3C00);  // one NaN: the other input
  CHECK(bits(__hmin(one, nan)) == 0x3C00);
  CHECK(bits(__hmax(nan, half_of(0x7C01))) == 0x7FFF);  // both NaN: canonical
  CHECK(bits(__hmax_nan(nan, one)) == 0x7FFF);
  CHECK(bits(__hmin_nan(one, nan)) == 0x7FFF);
  CHECK(bits(__hmax_nan(half_of(0x4000), one)) == 0x4000);
  CHECK(bits(__hmin_nan(nz, pz)) == 0x8000);
  // Against the ordering of the exact values for every pair of edge halves.
  for (std::uint16_t a : edge_halves()) {
    for (std::uint16_t b : edge_halves()) {
      if (is_nan(a) || is_nan(b)) continue;
      const double va = value_of(a), vb = value_of(b);
      INFO("a=0x" << std::hex << a << " b=0x" << b);
      const std::uint16_t mx = bits(__hmax(half_of(a), half_of(b)));
      const std::uint16_t mn = bits(__hmin(half_of(a), half_of(b)));
      if (va != vb) {
        CHECK(mx == (va > vb ? a : b));
        CHECK(mn == (va < vb ? a : b));
      } else if (!is_zero(a)) {
        CHECK(mx == a);
        CHECK(mn == a);
      }
    }
  }
  const __half2 m = __hmax2(__halves2half2(nan, nz), __halves2half2(one, pz));
  CHECK(bits(__low2half(m)) == 0x3C00);
  CHECK(bits(__high2half(m)) == 0x0000);
}

TEST_CASE("fp16: _sat and _relu variants clamp as documented") {
  const __half a = half_of(0x3800);  // 0.5
  CHECK(bits(__hadd_sat(a, a)) == 0x3C00);
  CHECK(bits(__hadd_sat(a, half_of(0x3C00))) == 0x3C00);   // 1.5 -> 1
  CHECK(bits(__hsub_sat(a, half_of(0x3C00))) == 0x0000);   // -0.5 -> +0
  CHECK(bits(__hmul_sat(half_of(0x8000), a)) == 0x0000);   // -0 -> +0
  CHECK(bits(__hadd_sat(half_of(0x7C00), half_of(0xFC00))) == 0x0000);  // NaN -> +0
  CHECK(bits(__hfma_sat(a, a, a)) == 0x3A00);             // 0.75 stays
  CHECK(bits(__hfma_relu(a, half_of(0xBC00), half_of(0x3400))) == 0x0000);  // -0.25 -> +0
  CHECK(bits(__hfma_relu(a, a, a)) == 0x3A00);
  CHECK(bits(__hfma_relu(half_of(0x7C00), half_of(0x0000), a)) == 0x7FFF);  // NaN stays NaN
  const __half2 s = __hadd2_sat(__halves2half2(a, half_of(0xC000)), __halves2half2(a, a));
  CHECK(bits(__low2half(s)) == 0x3C00);
  CHECK(bits(__high2half(s)) == 0x0000);
}

TEST_CASE("fp16: comparisons: ordered ones false and unordered ones true on NaN, and operators use __heq "
          "and __hneu") {
  const __half nan = half_of(0x7E00), one = half_of(0x3C00), two = half_of(0x4000);
  CHECK_FALSE(__heq(nan, nan));
  CHECK_FALSE(__hne(nan, one));
  CHECK_FALSE(__hlt(nan, one));
  CHECK(__hequ(nan, one));
  CHECK(__hneu(nan, one));
  CHECK(__hgeu(one, nan));
  CHECK_FALSE(nan == nan);
  CHECK(nan != nan);  // operator!= is the unordered __hneu, as in cuda_fp16.hpp
  CHECK_FALSE(nan < one);
  CHECK(__heq(half_of(0x0000), half_of(0x8000)));
  CHECK(half_of(0x8000) == half_of(0x0000));
  CHECK(one < two);
  CHECK(two >= one);
  CHECK(__hisnan(nan));
  CHECK(__hisinf(half_of(0xFC00)) == -1);
  CHECK(__hisinf(half_of(0x7C00)) == 1);
  CHECK(__hisinf(half_of(0x7BFF)) == 0);
  // All intrinsics against double comparisons of the exact values, for edge pairs.
  for (std::uint16_t a : edge_halves()) {
    for (std::uint16_t b : edge_halves()) {
      const double va = value_of(a), vb = value_of(b);
      const bool unordered = std::isnan(va) || std::isnan(vb);
      const __half x = half_of(a), y = half_of(b);
      INFO("a=0x" << std::hex << a << " b=0x" << b);
      CHECK(__heq(x, y) == (va == vb));
      CHECK(__hne(x, y) == (!unordered && va != vb));
      CHECK(__hlt(x, y) == (va < vb));
      CHECK(__hle(x, y) == (va <= vb));
      CHECK(__hgt(x, y) == (va > vb));
      CHECK(__hge(x, y) == (va >= vb));
      CHECK(__hequ(x, y) == (unordered || va == vb));
      CHECK(__hneu(x, y) == (va != vb));
      CHECK(__hltu(x, y) == (unordered || va < vb));
      CHECK(__hleu(x, y) == (unordered || va <= vb));
      CHECK(__hgtu(x, y) == (unordered || va > vb));
      CHECK(__hgeu(x, y) == (unordered || va >= vb));
      CHECK((x == y) == __heq(x, y));
      CHECK((x != y) == __hneu(x, y));
      CHECK((x < y) == __hlt(x, y));
      CHECK((x >= y) == __hge(x, y));
    }
  }
  // __half2 forms: per lane as 1.0/0.0, as masks, and as both-lanes bools.
  const __half2 p = __halves2half2(one, nan), q = __halves2half2(one, one);
  CHECK(bits(__low2half(__heq2(p, q))) == 0x3C00);
  CHECK(bits(__high2half(__heq2(p, q))) == 0x0000);
  CHECK(__heq2_mask(p, q) == 0x0000FFFFu);
  CHECK(__hequ2_mask(p, q) == 0xFFFFFFFFu);
  CHECK_FALSE(__hbeq2(p, q));
  CHECK(__hbequ2(p, q));
  CHECK_FALSE(p == q);
  // For __half2, != is __hbneu2: true only when *both* lanes differ (or are unordered).
  CHECK_FALSE(p != q);
  CHECK(__halves2half2(two, nan) != q);
  CHECK(bits(__high2half(__hisnan2(p))) == 0x3C00);
}

TEST_CASE("fp16: hsqrt, hrsqrt, hrcp are correctly rounded for every half") {
  for (unsigned h = 0; h < 0x7C00; ++h) {  // positive finite; the rest below
    const std::uint16_t x = static_cast<std::uint16_t>(h);
    const u128 X = units(x);
    INFO("half 0x" << std::hex << h);
    if (X == 0) continue;
    // sqrt(X 2^-24) vs u 2^-(24+s)  <=>  X 2^(24+2s) vs u^2
    auto sqrt_cmp = [&](u128 u, int s) {
      const u128 l = X << (24 + 2 * s), r = u * u;
      return l < r ? -1 : l > r ? 1 : 0;
    };
    REQUIRE(bits(hsqrt(half_of(x))) == reference_round(false, sqrt_cmp, Mode::rn));
    // 1 / (X 2^-24) vs u 2^-(24+s)  <=>  2^(48+s) vs u X
    auto rcp_cmp = [&](u128 u, int s) {
      const u128 l = static_cast<u128>(1) << (48 + s), r = u * X;
      return l < r ? -1 : l > r ? 1 : 0;
    };
    REQUIRE(bits(hrcp(half_of(x))) == reference_round(false, rcp_cmp, Mode::rn));
    // 2^12 / sqrt(X) vs u 2^-(24+s)  <=>  2^(72+2s) vs u^2 X
    auto rsqrt_cmp = [&](u128 u, int s) {
      const u128 l = static_cast<u128>(1) << (72 + 2 * s), r = u * u * X;
      return l < r ? -1 : l > r ? 1 : 0;
    };
    REQUIRE(bits(hrsqrt(half_of(x))) == reference_round(false, rsqrt_cmp, Mode::rn));
    REQUIRE(bits(hrcp(half_of(static_cast<std::uint16_t>(x | 0x8000)))) ==
            (reference_round(false, rcp_cmp, Mode::rn) | 0x8000));
  }
  CHECK(bits(hsqrt(half_of(0x8000))) == 0x8000);
  CHECK(bits(hsqrt(half_of(0x7C00))) == 0x7C00);
  CHECK(bits(hrsqrt(half_of(0x0000))) == 0x7C00);
  CHECK(bits(hrsqrt(half_of(0x7C00))) == 0x0000);
  CHECK(bits(hrcp(half_of(0x8000))) == 0xFC00);
  CHECK(bits(hrcp(half_of(0xFC00))) == 0x8000);
}

TEST_CASE("fp16: htrunc, hceil, hfloor, hrint for every half") {
  for (unsigned h = 0; h < 0x10000; ++h) {
    const std::uint16_t x = static_cast<std::uint16_t>(h);
    INFO("half 0x" << std::hex << h);
    if (is_nan(x)) {
      REQUIRE(bits(htrunc(half_of(x))) == 0x7FFF);
      continue;
    }
    const float f = static_cast<float>(value_of(x));
    REQUIRE(bits(htrunc(half_of(x))) == bits(__float2half(std::trunc(f))));
    REQUIRE(bits(hceil(half_of(x))) == bits(__float2half(std::ceil(f))));
    REQUIRE(bits(hfloor(half_of(x))) == bits(__float2half(std::floor(f))));
    REQUIRE(bits(hrint(half_of(x))) == bits(__float2half(std::nearbyint(f))));
  }
}

TEST_CASE("fp16: __half2 operations act lane by lane") {
  HalfSource source(15);
  for (int i = 0; i < 100000; ++i) {
    const std::uint16_t a0 = source(), a1 = source(), b0 = source(), b1 = source(), c0 = source(), c1 = source();
    const __half2 a = __halves2half2(half_of(a0), half_of(a1));
    const __half2 b = __halves2half2(half_of(b0), half_of(b1));
    const __half2 c = __halves2half2(half_of(c0), half_of(c1));
    INFO("a=" << std::hex << a0 << "," << a1 << " b=" << b0 << "," << b1 << " c=" << c0 << "," << c1);
    auto lanes = [](__half2 v) { return std::make_pair(bits(__low2half(v)), bits(__high2half(v))); };
    REQUIRE(lanes(__hadd2(a, b)) == std::make_pair(reference_add(a0, b0), reference_add(a1, b1)));
    REQUIRE(lanes(a + b) == lanes(__hadd2(a, b)));
    REQUIRE(lanes(__hmul2(a, b)) == std::make_pair(reference_mul(a0, b0), reference_mul(a1, b1)));
    REQUIRE(lanes(a * b) == lanes(__hmul2(a, b)));
    REQUIRE(lanes(__h2div(a, b)) == std::make_pair(reference_div(a0, b0), reference_div(a1, b1)));
    REQUIRE(lanes(__hfma2(a, b, c)) == std::make_pair(reference_fma(a0, b0, c0), reference_fma(a1, b1, c1)));
    REQUIRE(lanes(__hsub2(a, b)) == std::make_pair(bits(__hsub(half_of(a0), half_of(b0))),
                                                   bits(__hsub(half_of(a1), half_of(b1)))));
    REQUIRE(lanes(__hmin2(a, b)) == std::make_pair(bits(__hmin(half_of(a0), half_of(b0))),
                                                   bits(__hmin(half_of(a1), half_of(b1)))));
    REQUIRE(lanes(__habs2(a)) == std::make_pair(bits(__habs(half_of(a0))), bits(__habs(half_of(a1)))));
    REQUIRE(__hlt2_mask(a, b) == ((__hlt(half_of(a0), half_of(b0)) ? 0xFFFFu : 0u) |
                                  (__hlt(half_of(a1), half_of(b1)) ? 0xFFFF0000u : 0u)));
    REQUIRE((a < b) == (__hlt(half_of(a0), half_of(b0)) && __hlt(half_of(a1), half_of(b1))));
  }
  // Conversions and moves between halves, pairs and floats.
  const __half2 p = __floats2half2_rn(1.0f, -2.5f);
  CHECK(bits(__low2half(p)) == 0x3C00);
  CHECK(bits(__high2half(p)) == 0xC100);
  const float2 f = __half22float2(p);
  CHECK(f.x == 1.0f);
  CHECK(f.y == -2.5f);
  CHECK(bits(__high2half(__float22half2_rn(make_float2(0.0f, 65520.0f)))) == 0x7C00);
  CHECK(bits(__low2half(__float2half2_rn(0.1f))) == 0x2E66);
  CHECK(bits(__low2half(__lowhigh2highlow(p))) == 0xC100);
  CHECK(bits(__high2half(__half2half2(half_of(0x1234)))) == 0x1234);
  CHECK(bits(__high2half(__lows2half2(p, __half2half2(half_of(0x4000))))) == 0x4000);
  CHECK(bits(__low2half(__highs2half2(p, p))) == 0xC100);
  CHECK(bits(__high2half(__low2half2(p))) == 0x3C00);
  CHECK(bits(__low2half(__high2half2(p))) == 0xC100);
  CHECK(bits(__high2half(make_half2(half_of(1), half_of(2)))) == 2);
  const __half2_raw raw = static_cast<__half2_raw>(p);
  CHECK(raw.x == 0x3C00);
  CHECK(raw.y == 0xC100);
}

TEST_CASE("fp16: C++ conversions and operators behave as cuda_fp16.hpp defines them") {
  __half a = 1.5f;   // from float, round to nearest
  __half b = 2.0;    // from double, one rounding
  __half c = 3;      // from int
  __half d = 7u;     // from unsigned
  CHECK(bits(a) == 0x3E00);
  CHECK(bits(b) == 0x4000);
  CHECK(bits(c) == 0x4200);
  CHECK(bits(d) == 0x4700);
  const float f = a;  // to float, implicit
  CHECK(f == 1.5f);
  CHECK(static_cast<int>(half_of(0xC0E0)) == -2);       // -2.4375 truncates toward zero
  CHECK(static_cast<unsigned>(half_of(0xC0E0)) == 0u);  // saturates at 0
  CHECK(static_cast<short>(half_of(0x7C00)) == SHRT_MAX);
  CHECK(static_cast<long long>(half_of(0x7E00)) == std::numeric_limits<long long>::min());
  CHECK(static_cast<bool>(half_of(0x8000)) == false);
  CHECK(static_cast<bool>(half_of(0x0001)) == true);
  CHECK(bits(a + b) == 0x4300);  // 3.5
  CHECK(bits(b - a) == 0x3800);  // 0.5
  CHECK(bits(a * b) == 0x4200);
  CHECK(bits(b / a) == bits(__hdiv(b, a)));
  CHECK(bits(-a) == 0xBE00);
  CHECK(bits(+a) == 0x3E00);
  __half acc = c;
  acc += a;
  CHECK(bits(acc) == 0x4480);  // 4.5
  acc -= b;
  acc *= b;
  acc /= b;
  CHECK(bits(acc) == 0x4100);  // 2.5
  CHECK(bits(acc++) == 0x4100);
  CHECK(bits(acc) == 0x4300);
  CHECK(bits(--acc) == 0x4100);
  acc = 0.25f;
  CHECK(bits(acc) == 0x3400);
  acc = 100;
  CHECK(bits(acc) == 0x5640);
  const __half_raw r = static_cast<__half_raw>(acc);
  CHECK(r.x == 0x5640);
  const __half from_raw = r;
  CHECK(bits(from_raw) == 0x5640);
  __half2 v = __halves2half2(a, b);
  v += v;
  CHECK(bits(__low2half(v)) == 0x4200);
  CHECK(bits(__high2half(-v)) == 0xC400);
  ++v;
  CHECK(bits(__low2half(v)) == 0x4400);
  CHECK(bits(CUDART_NAN_FP16) == 0x7FFF);
  CHECK(bits(CUDART_INF_FP16) == 0x7C00);
  CHECK(bits(CUDART_MAX_NORMAL_FP16) == 0x7BFF);
  CHECK(bits(CUDART_ONE_FP16) == 0x3C00);
  CHECK(__half_as_short(half_of(0xBC00)) == static_cast<short>(0xBC00));
  CHECK(bits(__short_as_half(static_cast<short>(0x8001))) == 0x8001);
}

// The CPU backend's <cuda_bf16.h> (checker/engine/include/cuda_cpu/compat/cuda_bf16.h),
// checked against references written another way, and its kernels run on both backends.
//
// The references share no code with the header. A bfloat16 is the top half of a float, so
// float -> bf16 is decided from the dropped low 16 bits alone. Everything else is rounded
// from a double that is within half a double ulp of the exact result plus the sign of the
// remaining error: sums come from TwoSum (a double alone is not exact for every sum of two
// bfloat16s: 2^100 + 2^-100 is not a double), quotients from the fma residual. The ordered
// list of bfloat16 values (decoded with ldexp) is searched for the result's neighbours.
#include <doctest/doctest.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ios>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "backend_fixture.h"
#include "bf16_kernels_kernels.h"
#include "cuda_cpu/compat/cuda_bf16.h"
#include "engine/device_array.h"
#include "engine/kernel.h"

#if defined(__clang__)
#pragma clang fp contract(off)  // TwoSum needs its additions as written
#endif

using engine::DeviceArray;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;

namespace {

namespace k = kernels::bf16_kernels;

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

std::uint16_t bits(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
__nv_bfloat16 bf(std::uint16_t b) { return __ushort_as_bfloat16(b); }
float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

bool is_nan(std::uint16_t h) { return (h & 0x7F80) == 0x7F80 && (h & 0x7F) != 0; }

// |value| of a positive pattern; 0x7F80 stands for 2^128, one step past the largest finite.
double magnitude(unsigned p) {
  const unsigned field = (p >> 7) & 0xFF, mantissa = p & 0x7F;
  if (p >= 0x7F80) return std::ldexp(1.0, 128);
  if (field == 0) return std::ldexp(static_cast<double>(mantissa), -133);
  return std::ldexp(static_cast<double>(128 + mantissa), static_cast<int>(field) - 134);
}
double value_of(std::uint16_t h) {
  if (is_nan(h)) return NAN;
  if ((h & 0x7FFF) == 0x7F80) return (h & 0x8000) ? -INFINITY : INFINITY;
  const double m = magnitude(h & 0x7FFF);
  return (h & 0x8000) ? -m : m;
}

// The reference rounding of x + tiny, where `error` gives the sign of tiny (0: x is exact)
// and tiny is far smaller than any gap between bfloat16s near x. x is finite and nonzero.
std::uint16_t round_reference(double x, int error, Mode mode) {
  const bool neg = x < 0;
  const std::uint16_t sign = neg ? 0x8000 : 0;
  const double ax = std::fabs(x);
  if (neg) error = -error;
  const bool away_up = (mode == Mode::ru && !neg) || (mode == Mode::rd && neg);  // directed away from zero
  const bool toward_zero = mode == Mode::rz || (mode == Mode::ru && neg) || (mode == Mode::rd && !neg);
  if (ax >= magnitude(0x7F80)) return sign | (toward_zero ? 0x7F7F : 0x7F80);
  unsigned lo = 0, hi = 0x7F80;  // largest pattern with magnitude <= ax
  while (hi - lo > 1) {
    const unsigned mid = (lo + hi) / 2;
    if (magnitude(mid) <= ax) lo = mid; else hi = mid;
  }
  unsigned below = lo, above = lo + 1;  // the exact value lies in [below, above)
  if (magnitude(lo) == ax) {
    if (error == 0) return static_cast<std::uint16_t>(sign | lo);
    if (error < 0) {  // just below a bfloat16: between lo - 1 and lo, next to lo
      below = lo - 1;
      above = lo;
      if (mode == Mode::rn) return static_cast<std::uint16_t>(sign | lo);
    } else if (mode == Mode::rn) {
      return static_cast<std::uint16_t>(sign | lo);
    }
    return static_cast<std::uint16_t>(sign | (away_up ? above : below));
  }
  if (mode != Mode::rn) return static_cast<std::uint16_t>(sign | (away_up ? above : below));
  const double midpoint = (magnitude(below) + magnitude(above)) / 2;  // exact: 9 bits
  int side = ax < midpoint ? -1 : ax > midpoint ? 1 : error;
  if (side == 0) side = (below % 2 == 0) ? -1 : 1;
  return static_cast<std::uint16_t>(sign | (side < 0 ? below : above));
}

// float -> bf16 from the bits: the high 16 bits truncated, the low 16 bits decide.
std::uint16_t reference_from_float(std::uint32_t u, Mode mode) {
  const std::uint16_t high = static_cast<std::uint16_t>(u >> 16), low = static_cast<std::uint16_t>(u);
  if ((u & 0x7FFFFFFF) > 0x7F800000) return 0x7FFF;
  if (low == 0) return high;  // exact (zeros and infinities included)
  const bool neg = (u >> 31) != 0;
  bool up = false;  // away from zero: the magnitude's pattern + 1
  switch (mode) {
    case Mode::rn: up = low > 0x8000 || (low == 0x8000 && (high & 1)); break;
    case Mode::rz: up = false; break;
    case Mode::rd: up = neg; break;
    case Mode::ru: up = !neg; break;
  }
  return static_cast<std::uint16_t>(high + (up ? 1 : 0));
}

int sign_of(double v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }

// a + b (a, b doubles) as s + e exactly (Knuth's TwoSum).
void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

bool special(std::uint16_t h) { return is_nan(h) || (h & 0x7FFF) == 0x7F80 || (h & 0x7FFF) == 0; }

// The sum of two nonzero finite bfloat16 values (as doubles), rounded to nearest.
std::uint16_t reference_sum(double a, double b) {
  double s, e;
  two_sum(a, b, s, e);
  if (s == 0) return 0;  // exact cancellation: +0
  return round_reference(s, sign_of(e), Mode::rn);
}

std::vector<std::uint16_t> edge_values() {
  std::vector<std::uint16_t> v = {0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x0080, 0x0081, 0x00FF, 0x3F80, 0xBF80,
                                  0x3F81, 0x3FFF, 0x4000, 0x7F7F, 0xFF7F, 0x7F7E, 0x7F80, 0xFF80, 0x7FC0, 0x7FFF,
                                  0xFFC1, 0x7F81, 0x3400, 0x4B00, 0x5F00, 0x2000, 0x0100, 0xC0A0};
  std::mt19937 rng(11);
  for (int i = 0; i < 24; ++i) v.push_back(static_cast<std::uint16_t>(rng()));
  return v;
}

}  // namespace

// --- The header against the references ------------------------------------------------------

TEST_CASE("bf16: __nv_bfloat16 and __nv_bfloat162 have CUDA's size and alignment, are trivially copyable, and "
          "convert from __half only explicitly") {
  CHECK(sizeof(__nv_bfloat16) == 2);
  CHECK(alignof(__nv_bfloat162) == 4);
  CHECK(std::is_trivially_copyable<__nv_bfloat16>::value);
  CHECK(std::is_trivially_copyable<__nv_bfloat162>::value);
  CHECK(!std::is_convertible<__half, __nv_bfloat16>::value);
  CHECK(std::is_constructible<__nv_bfloat16, __half>::value);
  CHECK(!std::is_convertible<__nv_bfloat16, __half>::value);
  CHECK(std::is_constructible<__half, __nv_bfloat16>::value);
  CHECK(std::is_convertible<float, __nv_bfloat16>::value);
  const __nv_bfloat162 pair = make_bfloat162(bf(0x3F80), bf(0x4000));
  std::uint16_t raw[2];
  std::memcpy(raw, &pair, 4);
  CHECK(raw[0] == 0x3F80);  // low half first in memory, as on the GPU
  CHECK(raw[1] == 0x4000);
}

TEST_CASE("bf16: float -> bf16 in all four rounding modes for every high half and a set of low halves") {
  std::vector<std::uint16_t> lows = {0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x4000, 0xC000};
  std::mt19937 rng(3);
  for (int i = 0; i < 8; ++i) lows.push_back(static_cast<std::uint16_t>(rng()));
  std::size_t wrong = 0;
  std::uint32_t first_wrong = 0;
  for (std::uint32_t high = 0; high < 0x10000; ++high)
    for (std::uint16_t low : lows) {
      const std::uint32_t u = (high << 16) | low;
      const float f = float_of(u);
      const std::uint16_t got[4] = {bits(__float2bfloat16_rn(f)), bits(__float2bfloat16_rz(f)),
                                    bits(__float2bfloat16_rd(f)), bits(__float2bfloat16_ru(f))};
      for (int m = 0; m < 4; ++m)
        if (got[m] != reference_from_float(u, kModes[m]) && wrong++ == 0) first_wrong = u;
      if (bits(__float2bfloat16(f)) != got[0] || bits(__nv_bfloat16(f)) != got[0]) ++wrong;
    }
  INFO("first wrong float: 0x" << std::hex << first_wrong);
  CHECK(wrong == 0);
  // And the rounding of a float is that of its exact value (the other reference).
  for (std::uint32_t high = 0; high < 0x7F80; high += 7)
    for (std::uint16_t low : lows) {
      const double v = static_cast<double>(float_of((high << 16) | low));
      if (v == 0) continue;
      for (Mode m : kModes) REQUIRE(reference_from_float((high << 16) | low, m) == round_reference(v, 0, m));
    }
}

TEST_CASE("bf16: bf16 -> float is exact and keeps NaN payloads, and double -> bf16 rounds once") {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = __bfloat162float(bf(static_cast<std::uint16_t>(h)));
    REQUIRE(float_bits(f) == h << 16);
  }
  // Doubles just above and below bfloat16 midpoints: a rounding through float would land on
  // the midpoint and break the tie the wrong way.
  std::mt19937_64 rng(9);
  std::size_t checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::uint16_t h = static_cast<std::uint16_t>(rng() & 0x7F7F);
    const double mid = (magnitude(h) + magnitude(h + 1u)) / 2;
    for (double v : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300), magnitude(h) * (1 + 1e-12),
                     std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(rng() % 300) - 200)}) {
      if (v == 0 || v >= magnitude(0x7F80)) continue;
      for (double s : {v, -v}) {
        REQUIRE(bits(__double2bfloat16(s)) == round_reference(s, 0, Mode::rn));
        ++checked;
      }
    }
  }
  CHECK(checked > 1000000);
  CHECK(bits(__double2bfloat16(std::ldexp(1.0, -134))) == 0x0000);             // a tie at the smallest: to even
  CHECK(bits(__double2bfloat16(std::nextafter(std::ldexp(1.0, -134), 1.0))) == 0x0001);
  CHECK(bits(__double2bfloat16(1e300)) == 0x7F80);
  CHECK(bits(__double2bfloat16(-0.0)) == 0x8000);
  CHECK(bits(__double2bfloat16(std::numeric_limits<double>::quiet_NaN())) == 0x7FC0);
  CHECK(bits(__float2bfloat16(std::numeric_limits<float>::quiet_NaN())) == 0x7FFF);
}

TEST_CASE("bf16: integer -> bf16 and bf16 -> integer conversions: rounding modes, saturation, NaN") {
  std::mt19937_64 rng(21);
  for (int i = 0; i < 200000; ++i) {
    const auto u64 = rng() >> (rng() % 64);
    const auto s64 = static_cast<long long>(rng()) >> (rng() % 64);
    const auto s32 = static_cast<int>(s64);
    for (int m = 0; m < 4; ++m) {
      // The reference: the double nearest the integer, and the sign of what it misses.
      auto ref_signed = [&](long long v) {
        if (v == 0) return std::uint16_t{0};
        const double d = static_cast<double>(v);
        __extension__ const __int128 miss = static_cast<__int128>(v) - static_cast<__int128>(d);
        return round_reference(d, miss < 0 ? -1 : miss > 0 ? 1 : 0, kModes[m]);
      };
      auto ref_unsigned = [&](unsigned long long v) {
        if (v == 0) return std::uint16_t{0};
        const double d = static_cast<double>(v);
        __extension__ const __int128 miss = static_cast<__int128>(v) - static_cast<__int128>(d);
        return round_reference(d, miss < 0 ? -1 : miss > 0 ? 1 : 0, kModes[m]);
      };
      const std::uint16_t ll[4] = {bits(__ll2bfloat16_rn(s64)), bits(__ll2bfloat16_rz(s64)),
                                   bits(__ll2bfloat16_rd(s64)), bits(__ll2bfloat16_ru(s64))};
      const std::uint16_t ull[4] = {bits(__ull2bfloat16_rn(u64)), bits(__ull2bfloat16_rz(u64)),
                                    bits(__ull2bfloat16_rd(u64)), bits(__ull2bfloat16_ru(u64))};
      const std::uint16_t i32[4] = {bits(__int2bfloat16_rn(s32)), bits(__int2bfloat16_rz(s32)),
                                    bits(__int2bfloat16_rd(s32)), bits(__int2bfloat16_ru(s32))};
      CAPTURE(mode_name(kModes[m]));
      REQUIRE(ll[m] == ref_signed(s64));
      REQUIRE(ull[m] == ref_unsigned(u64));
      REQUIRE(i32[m] == ref_signed(s32));
    }
  }
  // bf16 -> integer, every pattern: the float value rounded by the C library, then clamped.
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const std::uint16_t b = static_cast<std::uint16_t>(h);
    const double v = value_of(b);
    auto clamp = [&](double r, double lo, double hi) { return r < lo ? lo : r > hi ? hi : r; };
    if (is_nan(b)) {
      CHECK(__bfloat162int_rn(bf(b)) == 0);
      CHECK(__bfloat162ll_rz(bf(b)) == std::numeric_limits<long long>::min());
      CHECK(__bfloat162ull_rd(bf(b)) == 0x8000000000000000ull);
      continue;
    }
    const double rn = std::nearbyint(v), rz = std::trunc(v), rd = std::floor(v), ru = std::ceil(v);
    REQUIRE(__bfloat162int_rn(bf(b)) == static_cast<int>(clamp(rn, INT32_MIN, INT32_MAX)));
    REQUIRE(__bfloat162int_rz(bf(b)) == static_cast<int>(clamp(rz, INT32_MIN, INT32_MAX)));
    REQUIRE(__bfloat162int_rd(bf(b)) == static_cast<int>(clamp(rd, INT32_MIN, INT32_MAX)));
    REQUIRE(__bfloat162int_ru(bf(b)) == static_cast<int>(clamp(ru, INT32_MIN, INT32_MAX)));
    REQUIRE(__bfloat162uint_ru(bf(b)) == static_cast<unsigned>(clamp(ru, 0, UINT32_MAX)));
    REQUIRE(__bfloat162short_rn(bf(b)) == static_cast<short>(clamp(rn, INT16_MIN, INT16_MAX)));
    REQUIRE(__bfloat162ushort_rd(bf(b)) == static_cast<unsigned short>(clamp(rd, 0, UINT16_MAX)));
    REQUIRE(static_cast<int>(__bfloat162char_rz(bf(b))) == static_cast<int>(clamp(rz, -128, 127)));
    REQUIRE(static_cast<int>(__bfloat162uchar_rz(bf(b))) == static_cast<int>(clamp(rz, 0, 255)));
    // 64 bits: 2^63 and 2^64 are doubles, so the clamps are exact.
    const double ll = clamp(rn, -std::ldexp(1.0, 63), std::ldexp(1.0, 63));
    const long long want_ll = ll >= std::ldexp(1.0, 63) ? LLONG_MAX : static_cast<long long>(ll);
    REQUIRE(__bfloat162ll_rn(bf(b)) == want_ll);
    const double ull = clamp(ru, 0, std::ldexp(1.0, 64));
    const unsigned long long want_ull = ull >= std::ldexp(1.0, 64) ? ULLONG_MAX : static_cast<unsigned long long>(ull);
    REQUIRE(__bfloat162ull_ru(bf(b)) == want_ull);
  }
}

TEST_CASE("bf16: __hadd, __hsub, __hmul, __hdiv match the exact references on edge values x every bfloat16") {
  std::size_t wrong = 0;
  for (std::uint16_t y : edge_values())
    for (std::uint32_t xi = 0; xi < 0x10000; ++xi) {
      const std::uint16_t x = static_cast<std::uint16_t>(xi);
      if (special(x) || special(y)) continue;
      const double a = value_of(x), b = value_of(y);
      const std::uint16_t sum = bits(__hadd(bf(x), bf(y))), difference = bits(__hsub(bf(x), bf(y)));
      const std::uint16_t product = bits(__hmul(bf(x), bf(y))), quotient = bits(__hdiv(bf(x), bf(y)));
      wrong += sum != reference_sum(a, b);
      wrong += difference != reference_sum(a, -b);
      wrong += product != round_reference(a * b, 0, Mode::rn);  // 16-bit product: exact
      const double q = a / b;
      const double residual = std::fma(-q, b, a);  // exact: a - q b
      wrong += quotient != round_reference(q, sign_of(residual) * sign_of(b), Mode::rn);
    }
  CHECK(wrong == 0);
  // Far-apart terms, where a double sum would round: the sticky bit decides.
  CHECK(bits(__hadd(bf(0x7F00), bf(0x0001))) == 0x7F00);
  CHECK(bits(__hsub(bf(0x3F80), bf(0x0001))) == 0x3F80);
  CHECK(bits(__hadd(bf(0x3F80), bf(0x3B80))) == 0x3F80);  // 1 + 2^-8: a tie, to even
  CHECK(bits(__hadd(bf(0x3F81), bf(0x3B80))) == 0x3F82);  // an odd one rounds up
  CHECK(bits(__hsub(bf(0x3F80), bf(0x3F80))) == 0x0000);  // x - x is +0
  CHECK(bits(__hadd(bf(0x8000), bf(0x8000))) == 0x8000);
  CHECK(bits(__hmul(bf(0x0001), bf(0x3F00))) == 0x0000);  // half the smallest: a tie, to even (0)
  CHECK(bits(__hmul(bf(0x0003), bf(0x3F00))) == 0x0002);  // 1.5 -> 2
}

TEST_CASE("bf16: __hfma matches the TwoSum reference, including cancellation and far-apart terms") {
  std::mt19937 rng(17);
  std::size_t wrong = 0, checked = 0;
  for (int i = 0; i < 2000000; ++i) {
    const auto x = static_cast<std::uint16_t>(rng()), y = static_cast<std::uint16_t>(rng());
    std::uint16_t z = static_cast<std::uint16_t>(rng());
    if (special(x) || special(y)) continue;
    const double p = value_of(x) * value_of(y);  // exact
    if (i % 3 == 0) z = static_cast<std::uint16_t>(round_reference(-p, 0, Mode::rn) ^ (rng() & 3));  // cancellation
    if (special(z)) continue;
    double s, e;
    two_sum(p, value_of(z), s, e);
    const std::uint16_t want = s == 0 ? 0 : round_reference(s, sign_of(e), Mode::rn);
    wrong += bits(__hfma(bf(x), bf(y), bf(z))) != want;
    ++checked;
  }
  CHECK(checked > 1000000);
  CHECK(wrong == 0);
  CHECK(bits(__hfma(bf(0x3F80), bf(0x3F80), bf(0xBF80))) == 0x0000);  // exact cancellation: +0
  CHECK(bits(__hfma(bf(0x8000), bf(0x3F80), bf(0x8000))) == 0x8000);  // -0 * 1 + -0
  CHECK(bits(__hfma(bf(0x7F80), bf(0x0000), bf(0x3F80))) == 0x7FFF);  // inf * 0
}

TEST_CASE("bf16: NaN results, __hmax/__hmin, _sat and _relu follow CUDA's rules") {
  for (std::uint16_t nan : {std::uint16_t{0x7FC0}, std::uint16_t{0xFF81}, std::uint16_t{0x7FFF}}) {
    CHECK(bits(__hadd(bf(nan), bf(0x3F80))) == 0x7FFF);
    CHECK(bits(__hmul(bf(0x3F80), bf(nan))) == 0x7FFF);
    CHECK(bits(__hfma(bf(0x3F80), bf(0x3F80), bf(nan))) == 0x7FFF);
    CHECK(bits(__hneg(bf(nan))) == 0x7FFF);
    CHECK(bits(__habs(bf(nan))) == 0x7FFF);
    CHECK(bits(__hmax(bf(nan), bf(0x3F80))) == 0x3F80);
    CHECK(bits(__hmin(bf(0xBF80), bf(nan))) == 0xBF80);
    CHECK(bits(__hmax_nan(bf(nan), bf(0x3F80))) == 0x7FFF);
    CHECK(bits(__hmin_nan(bf(0x3F80), bf(nan))) == 0x7FFF);
    CHECK(bits(__hadd_sat(bf(nan), bf(0x3F80))) == 0x0000);
    CHECK(bits(__hfma_relu(bf(nan), bf(0x3F80), bf(0x3F80))) == 0x7FFF);
  }
  CHECK(bits(__hmax(bf(0x7FC0), bf(0x7FC1))) == 0x7FFF);
  CHECK(bits(__hsub(bf(0x7F80), bf(0x7F80))) == 0x7FFF);
  CHECK(bits(__hdiv(bf(0x0000), bf(0x8000))) == 0x7FFF);
  CHECK(bits(__hdiv(bf(0x3F80), bf(0x8000))) == 0xFF80);
  CHECK(bits(__hmax(bf(0x8000), bf(0x0000))) == 0x0000);
  CHECK(bits(__hmin(bf(0x0000), bf(0x8000))) == 0x8000);
  CHECK(bits(__hadd_sat(bf(0x3F80), bf(0x3F80))) == 0x3F80);
  CHECK(bits(__hsub_sat(bf(0x3F80), bf(0x4000))) == 0x0000);
  CHECK(bits(__hmul_sat(bf(0x3F00), bf(0x3F00))) == 0x3E80);
  CHECK(bits(__hfma_sat(bf(0x4000), bf(0x4000), bf(0x3F80))) == 0x3F80);
  CHECK(bits(__hfma_relu(bf(0xBF80), bf(0x3F80), bf(0x0000))) == 0x0000);
  CHECK(bits(__hadd(bf(0x7F7F), bf(0x7F7F))) == 0x7F80);  // overflow to infinity
}

TEST_CASE("bf16: comparisons and mask comparisons: ordered false and unordered true on NaN") {
  const std::vector<std::uint16_t> values = edge_values();
  for (std::uint16_t x : values)
    for (std::uint16_t y : values) {
      const double a = value_of(x), b = value_of(y);
      const bool unordered = std::isnan(a) || std::isnan(b);
      CHECK(__heq(bf(x), bf(y)) == (a == b));
      CHECK(__hne(bf(x), bf(y)) == (!unordered && a != b));
      CHECK(__hlt(bf(x), bf(y)) == (a < b));
      CHECK(__hge(bf(x), bf(y)) == (a >= b));
      CHECK(__hltu(bf(x), bf(y)) == (unordered || a < b));
      CHECK(__hneu(bf(x), bf(y)) == (unordered || a != b));
      CHECK((bf(x) == bf(y)) == (a == b));
      CHECK((bf(x) != bf(y)) == (unordered || a != b));
      const __nv_bfloat162 p = __halves2bfloat162(bf(x), bf(y)), q = __halves2bfloat162(bf(y), bf(x));
      const unsigned lt = (a < b ? 0xFFFFu : 0u) | (b < a ? 0xFFFF0000u : 0u);
      CHECK(__hlt2_mask(p, q) == lt);
      CHECK(__hbgeu2(p, q) == ((unordered || a >= b) && (unordered || b >= a)));
      const __nv_bfloat162 eq = __heq2(p, q);
      CHECK(bits(__low2bfloat16(eq)) == (a == b ? 0x3F80 : 0));
    }
  CHECK(__hisnan(CUDART_NAN_BF16));
  CHECK(__hisinf(CUDART_INF_BF16) == 1);
  CHECK(__hisinf(__hneg(CUDART_INF_BF16)) == -1);
  CHECK(bits(CUDART_MAX_NORMAL_BF16) == 0x7F7F);
  CHECK(bits(CUDART_MIN_DENORM_BF16) == 0x0001);
  CHECK(bits(CUDART_ONE_BF16) == 0x3F80);
  CHECK(bits(CUDART_ZERO_BF16) == 0x0000);
  CHECK(bits(CUDART_NEG_ZERO_BF16) == 0x8000);
}

TEST_CASE("bf16: htrunc, hceil, hfloor, hrint and the __half conversions for every bfloat16") {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const std::uint16_t b = static_cast<std::uint16_t>(h);
    const double v = value_of(b);
    if (std::isnan(v)) {
      CHECK(bits(htrunc(bf(b))) == 0x7FFF);
      CHECK(__half_as_ushort(__half(bf(b))) == 0x7FFF);
      continue;
    }
    // Integral values of a bfloat16 are bfloat16s; value_of keeps the sign of zero through
    // the C library's functions, which preserve it (trunc(-0.5) is -0).
    REQUIRE(value_of(bits(htrunc(bf(b)))) == std::trunc(v));
    REQUIRE(std::signbit(value_of(bits(htrunc(bf(b))))) == std::signbit(std::trunc(v)));
    REQUIRE(value_of(bits(hceil(bf(b)))) == std::ceil(v));
    REQUIRE(value_of(bits(hfloor(bf(b)))) == std::floor(v));
    REQUIRE(value_of(bits(hrint(bf(b)))) == std::nearbyint(v));
    // bf16 -> half: one rounding of the exact value (the half reference: float -> half is
    // correctly rounded in the fp16 header's own tests, and the bf16 is a float).
    REQUIRE(__half_as_ushort(__half(bf(b))) == __half_as_ushort(__float2half(static_cast<float>(v))));
  }
  for (std::uint32_t h = 0; h < 0x10000; ++h) {  // half -> bf16: every half is a double
    const __half x = __ushort_as_half(static_cast<std::uint16_t>(h));
    const float f = __half2float(x);
    const std::uint16_t got = bits(__nv_bfloat16(x));
    if (std::isnan(f)) {
      REQUIRE(got == 0x7FFF);
    } else if (f == 0) {
      REQUIRE(got == (h & 0x8000));
    } else {
      REQUIRE(got == round_reference(f, 0, Mode::rn));
    }
  }
}

TEST_CASE("bf16: __nv_bfloat162 functions act lane by lane, and C++ conversions and operators follow cuda_bf16.hpp") {
  const __nv_bfloat162 a = __floats2bfloat162_rn(1.5f, -2.0f), b = __float2bfloat162_rn(0.25f);
  CHECK(bits(__low2bfloat16(__hadd2(a, b))) == bits(__hadd(bf(0x3FC0), bf(0x3E80))));
  CHECK(bits(__high2bfloat16(__hmul2(a, b))) == 0xBF00);
  CHECK(bits(__high2bfloat16(__hfma2(a, b, a))) == bits(__hfma(bf(0xC000), bf(0x3E80), bf(0xC000))));
  CHECK(bits(__low2bfloat16(__habs2(__lowhigh2highlow(a)))) == 0x4000);
  CHECK(bits(__high2bfloat16(__hneg2(a))) == 0x4000);
  CHECK(bits(__low2bfloat16(__hmax2(a, b))) == 0x3FC0);
  CHECK(bits(__high2bfloat16(__hmin2_nan(a, __halves2bfloat162(CUDART_NAN_BF16, CUDART_NAN_BF16)))) == 0x7FFF);
  CHECK(__low2float(a) == 1.5f);
  CHECK(__high2float(a) == -2.0f);
  const float2 f2 = __bfloat1622float2(a);
  CHECK(f2.y == -2.0f);
  CHECK(bits(__high2bfloat16(__float22bfloat162_rn(float2{1.0f, 3.0f}))) == 0x4040);
  CHECK(bits(__low2bfloat16(__highs2bfloat162(a, b))) == 0xC000);
  CHECK(bits(__high2bfloat16(__lows2bfloat162(a, b))) == 0x3E80);
  CHECK(bits(__high2bfloat16(__low2bfloat162(a))) == 0x3FC0);
  CHECK(bits(__low2bfloat16(__high2bfloat162(a))) == 0xC000);
  CHECK(bits(__high2bfloat16(__bfloat162bfloat162(bf(0x4000)))) == 0x4000);
  CHECK(__hisnan2(__halves2bfloat162(CUDART_NAN_BF16, bf(0))).x == CUDART_ONE_BF16);

  __nv_bfloat16 x = 1.5f;  // from float
  __nv_bfloat16 y = 2.0;   // from double
  __nv_bfloat16 z = 3;     // from int
  CHECK(bits(x) == 0x3FC0);
  CHECK(bits(y) == 0x4000);
  CHECK(bits(z) == 0x4040);
  const float f = x;
  CHECK(f == 1.5f);
  CHECK(static_cast<int>(bf(0xC01C)) == -2);  // -2.4375 truncates toward zero
  CHECK(static_cast<unsigned>(bf(0xC01C)) == 0u);
  CHECK(static_cast<short>(bf(0x7F80)) == SHRT_MAX);
  CHECK(static_cast<long long>(bf(0x7FC0)) == std::numeric_limits<long long>::min());
  CHECK(!static_cast<bool>(bf(0x8000)));
  CHECK(static_cast<bool>(bf(0x0001)));
  CHECK(bits(x + y) == 0x4060);
  CHECK(bits(y - x) == 0x3F00);
  CHECK(bits(x * y) == 0x4040);
  CHECK(bits(z / y) == 0x3FC0);
  CHECK(bits(-x) == 0xBFC0);
  __nv_bfloat16 acc = z;
  acc += x;
  acc -= y;
  acc *= y;
  acc /= y;
  CHECK(bits(acc) == 0x4020);  // 2.5
  CHECK(bits(acc++) == 0x4020);
  CHECK(bits(--acc) == 0x4020);
  __nv_bfloat162 v = __halves2bfloat162(x, y);
  v += v;
  ++v;
  CHECK(bits(__low2bfloat16(v)) == 0x4080);   // 4
  CHECK(bits(__high2bfloat16(-v)) == 0xC0A0);  // -5
  CHECK(v == v);
  const nv_bfloat16_raw r = static_cast<__nv_bfloat16_raw>(acc);
  CHECK(r.x == 0x4020);
  CHECK(__bfloat16_as_short(bf(0xBF80)) == static_cast<short>(0xBF80));
  CHECK(bits(__short_as_bfloat16(static_cast<short>(0x8001))) == 0x8001);
}

// --- bf16 kernels on the backends ---------------------------------------------------------------

namespace {

void require_clean(const LaunchResult& r) {
  INFO("rejected: " << engine::to_string(r.rejected.why));
  for (const auto& finding : r.findings) INFO("finding: " << finding.detail << " line " << finding.at.line);
  REQUIRE(!r.rejected.refused());
  REQUIRE(r.findings.empty());
}

}  // namespace

BACKEND_TEST("bf16 kernels (shared memory, __hfma2, shuffles of __nv_bfloat16 and __nv_bfloat162) give the "
             "host's bits in every thread order") {
  auto dot = engine::Kernel<void(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*)>(k::cpu_bf16_warp_dot(),
                                                                                               k::gpu_bf16_warp_dot());
  const int threads = 256, warps = threads / 32;
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  std::vector<__nv_bfloat16> x(2 * threads), y(2 * threads);
  for (auto& v : x) v = __float2bfloat16(d(rng));
  for (auto& v : y) v = __float2bfloat16(d(rng));
  // The host computes the same operations in the same order.
  std::vector<__nv_bfloat162> products(threads), sums(threads);
  for (int t = 0; t < threads; ++t)
    products[t] = __hfma2(__halves2bfloat162(x[2 * t], x[2 * t + 1]), __halves2bfloat162(y[2 * t], y[2 * t + 1]),
                          __float2bfloat162_rn(0.0f));
  for (int t = 0; t < threads; ++t) sums[t] = products[t ^ 1];
  for (int offset = 16; offset > 1; offset /= 2) {
    std::vector<__nv_bfloat162> next(threads);
    for (int t = 0; t < threads; ++t) next[t] = __hadd2(sums[t], sums[t ^ offset]);
    sums = next;
  }
  std::vector<std::uint16_t> want(warps);
  for (int w = 0; w < warps; ++w) {
    const int t = w * 32;
    const __nv_bfloat16 mine = __hadd(__low2bfloat16(sums[t]), __high2bfloat16(sums[t]));
    const __nv_bfloat16 other = __hadd(__low2bfloat16(sums[t + 1]), __high2bfloat16(sums[t + 1]));
    want[w] = bits(__hadd(mine, other));
  }
  DeviceArray<__nv_bfloat16> dx(backend, x.size(), "x"), dy(backend, y.size(), "y"), out(backend, warps, "out");
  dx.upload(x);
  dy.upload(y);
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    CAPTURE(std::string(engine::to_string(order)));
    RunOptions options;
    options.order = order;
    require_clean(engine::launch(backend, dot, LaunchConfig{1, threads}, options, dx.get(), dy.get(), out.get()));
    const std::vector<__nv_bfloat16> got = out.download();
    for (int w = 0; w < warps; ++w) CHECK(bits(got[w]) == want[w]);
  }
}

TEST_CASE("gpu: bf16 operations give the same bits on the CPU backend as on the GPU" * doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto cpu = engine::open_backend(engine::BackendChoice::cpu).backend;
  auto gpu = engine::open_backend(engine::BackendChoice::gpu).backend;
  using Ops = void(const unsigned short*, const unsigned short*, const unsigned short*, unsigned short*, int);
  auto ops = engine::Kernel<Ops>(k::cpu_bf16_ops(), k::gpu_bf16_ops());
  auto from_float = engine::Kernel<void(const unsigned int*, unsigned short*, int)>(k::cpu_float_to_bf16(),
                                                                                    k::gpu_float_to_bf16());
  auto to_int = engine::Kernel<void(const unsigned short*, unsigned long long*, int)>(k::cpu_bf16_to_int(),
                                                                                      k::gpu_bf16_to_int());
  auto from_int = engine::Kernel<void(const unsigned int*, const unsigned long long*, unsigned short*, int)>(
      k::cpu_int_to_bf16(), k::gpu_int_to_bf16());
  auto pairs = engine::Kernel<void(const unsigned int*, const unsigned int*, const unsigned int*, unsigned int*, int)>(
      k::cpu_bf162_ops(), k::gpu_bf162_ops());
  const int count = 1 << 16;
  std::mt19937_64 rng(5);
  std::vector<unsigned short> x(count), y(count), z(count);
  std::vector<unsigned int> f32(count), p(count), q(count), r(count);
  std::vector<unsigned long long> i64(count);
  for (int i = 0; i < count; ++i) {
    x[i] = static_cast<unsigned short>(i);  // every bfloat16
    y[i] = static_cast<unsigned short>(rng());
    z[i] = static_cast<unsigned short>(rng());
    f32[i] = static_cast<unsigned int>(rng());
    if (i % 4 == 0) f32[i] = (f32[i] & 0xFFFF0000u) | 0x8000u;  // ties
    p[i] = static_cast<unsigned int>(rng());
    q[i] = static_cast<unsigned int>(rng());
    r[i] = static_cast<unsigned int>(rng());
    i64[i] = rng() >> (rng() % 64);
  }
  struct Outputs {
    std::vector<unsigned short> ops, from_float, from_int;
    std::vector<unsigned long long> to_int;
    std::vector<unsigned int> pairs;
  };
  const LaunchConfig config{64, 256};
  auto run = [&](engine::Backend& be) {
    DeviceArray<unsigned short> dx(be, count, "x"), dy(be, count, "y"), dz(be, count, "z");
    DeviceArray<unsigned int> df(be, count, "f"), dp(be, count, "p"), dq(be, count, "q"), dr(be, count, "r");
    DeviceArray<unsigned long long> di(be, count, "i64");
    DeviceArray<unsigned short> o_ops(be, std::size_t(count) * 35, "ops"), o_ff(be, std::size_t(count) * 6, "ff"),
        o_fi(be, std::size_t(count) * 16, "fi");
    DeviceArray<unsigned long long> o_ti(be, std::size_t(count) * 26, "ti");
    DeviceArray<unsigned int> o_pairs(be, std::size_t(count) * 16, "pairs");
    dx.upload(x);
    dy.upload(y);
    dz.upload(z);
    df.upload(f32);
    dp.upload(p);
    dq.upload(q);
    dr.upload(r);
    di.upload(i64);
    require_clean(engine::launch(be, ops, config, RunOptions{}, dx.get(), dy.get(), dz.get(), o_ops.get(), count));
    require_clean(engine::launch(be, from_float, config, RunOptions{}, df.get(), o_ff.get(), count));
    require_clean(engine::launch(be, to_int, config, RunOptions{}, dx.get(), o_ti.get(), count));
    require_clean(engine::launch(be, from_int, config, RunOptions{}, df.get(), di.get(), o_fi.get(), count));
    require_clean(engine::launch(be, pairs, config, RunOptions{}, dp.get(), dq.get(), dr.get(), o_pairs.get(), count));
    return Outputs{o_ops.download(), o_ff.download(), o_fi.download(), o_ti.download(), o_pairs.download()};
  };
  const Outputs c = run(*cpu), g = run(*gpu);
  // Per kernel: how many elements differ, and the first one's inputs and entries.
  std::size_t total = 0;
  auto compare = [&](const char* name, const auto& on_cpu, const auto& on_gpu, int per_element, auto describe) {
    REQUIRE(on_cpu.size() == on_gpu.size());
    std::size_t elements = 0;
    std::ostringstream first;
    for (std::size_t e = 0; e * per_element < on_cpu.size(); ++e) {
      bool differs = false;
      for (int j = 0; j < per_element; ++j) {
        const std::size_t at = e * per_element + j;
        if (on_cpu[at] == on_gpu[at]) continue;
        if (!differs && elements == 0) first << describe(e) << std::hex;
        if (elements == 0) first << " entry " << std::dec << j << ": cpu 0x" << std::hex << on_cpu[at] << " gpu 0x" << on_gpu[at];
        differs = true;
      }
      elements += differs;
    }
    MESSAGE(name << ": " << elements << " of " << on_cpu.size() / per_element << " elements differ"
                 << (elements ? "; first: " + first.str() : std::string()));
    total += elements;
  };
  auto hex = [](unsigned long long v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
  };
  compare("bf16_ops", c.ops, g.ops, 35,
          [&](std::size_t e) { return "a " + hex(x[e]) + " b " + hex(y[e]) + " c " + hex(z[e]) + ";"; });
  compare("float_to_bf16", c.from_float, g.from_float, 6, [&](std::size_t e) { return "float " + hex(f32[e]) + ";"; });
  compare("bf16_to_int", c.to_int, g.to_int, 26, [&](std::size_t e) { return "bf16 " + hex(x[e]) + ";"; });
  compare("int_to_bf16", c.from_int, g.from_int, 16,
          [&](std::size_t e) { return "int " + hex(f32[e]) + " long long " + hex(i64[e]) + ";"; });
  compare("bf162_ops", c.pairs, g.pairs, 16,
          [&](std::size_t e) { return "a " + hex(p[e]) + " b " + hex(q[e]) + " c " + hex(r[e]) + ";"; });
  CHECK(total == 0);
}

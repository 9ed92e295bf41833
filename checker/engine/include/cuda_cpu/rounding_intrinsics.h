// CUDA's arithmetic intrinsics with a rounding mode in their name (__fadd_rd, __dmul_ru,
// __fsqrt_rz, ...), for the CPU backend: the operation runs under the C library's rounding
// mode of the same name, so each rounds once, in the direction asked, as the GPU does
// (interval arithmetic relies on it). The _rn forms are in device_functions.h.
#pragma once

#include <cfenv>
#include <cmath>

namespace cuda_cpu {
// The operands and the result pass through volatile variables, so that the operation is
// neither folded at compile time nor moved across the rounding-mode changes.
template <typename T, typename Op>
inline T rounded(int mode, T a, T b, Op op) {
  const int saved = std::fegetround();
  std::fesetround(mode);
  volatile T x = a, y = b;
  volatile T result = op(static_cast<T>(x), static_cast<T>(y));
  std::fesetround(saved);
  return result;
}
}  // namespace cuda_cpu

#define CUDA_CPU_ROUNDED(suffix, mode)                                                                          \
  inline float __fadd_##suffix(float a, float b) {                                                           \
    return cuda_cpu::rounded(mode, a, b, [](float x, float y) { return x + y; });                            \
  }                                                                                                           \
  inline float __fsub_##suffix(float a, float b) {                                                           \
    return cuda_cpu::rounded(mode, a, b, [](float x, float y) { return x - y; });                            \
  }                                                                                                           \
  inline float __fmul_##suffix(float a, float b) {                                                           \
    return cuda_cpu::rounded(mode, a, b, [](float x, float y) { return x * y; });                            \
  }                                                                                                           \
  inline float __fdiv_##suffix(float a, float b) {                                                           \
    return cuda_cpu::rounded(mode, a, b, [](float x, float y) { return x / y; });                            \
  }                                                                                                           \
  inline float __frcp_##suffix(float a) {                                                                    \
    return cuda_cpu::rounded(mode, 1.0f, a, [](float x, float y) { return x / y; });                         \
  }                                                                                                           \
  inline float __fsqrt_##suffix(float a) {                                                                   \
    return cuda_cpu::rounded(mode, a, 0.0f, [](float x, float) { return std::sqrt(x); });                    \
  }                                                                                                           \
  inline double __dadd_##suffix(double a, double b) {                                                        \
    return cuda_cpu::rounded(mode, a, b, [](double x, double y) { return x + y; });                          \
  }                                                                                                           \
  inline double __dsub_##suffix(double a, double b) {                                                        \
    return cuda_cpu::rounded(mode, a, b, [](double x, double y) { return x - y; });                          \
  }                                                                                                           \
  inline double __dmul_##suffix(double a, double b) {                                                        \
    return cuda_cpu::rounded(mode, a, b, [](double x, double y) { return x * y; });                          \
  }                                                                                                           \
  inline double __ddiv_##suffix(double a, double b) {                                                        \
    return cuda_cpu::rounded(mode, a, b, [](double x, double y) { return x / y; });                          \
  }                                                                                                           \
  inline double __drcp_##suffix(double a) {                                                                  \
    return cuda_cpu::rounded(mode, 1.0, a, [](double x, double y) { return x / y; });                        \
  }                                                                                                           \
  inline double __dsqrt_##suffix(double a) {                                                                 \
    return cuda_cpu::rounded(mode, a, 0.0, [](double x, double) { return std::sqrt(x); });                   \
  }
CUDA_CPU_ROUNDED(rd, FE_DOWNWARD)
CUDA_CPU_ROUNDED(ru, FE_UPWARD)
CUDA_CPU_ROUNDED(rz, FE_TOWARDZERO)
#undef CUDA_CPU_ROUNDED

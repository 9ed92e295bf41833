// CUDA device functions for the CPU backend: barriers, min/max, atomics, a few intrinsics.
#ifndef CUDA_CPU_DEVICE_FUNCTIONS_H_
#define CUDA_CPU_DEVICE_FUNCTIONS_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <time.h>
#include <type_traits>

#include "cuda_cpu/runtime_hooks.h"

// The engine's own work (atomics' read-modify-write, copies it makes) is not instrumented:
// each reports itself once, as what it is.
#define CUDA_CPU_UNCHECKED inline __attribute__((no_sanitize("address"), noinline))

// Default arguments are evaluated where the kernel calls, so the engine learns the line.
inline void __syncthreads(unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  cuda_cpu::syncthreads(cuda_cpu::BarrierReduce::none, 0, line, file);
}
inline int __syncthreads_count(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return cuda_cpu::syncthreads(cuda_cpu::BarrierReduce::count, predicate, line, file);
}
inline int __syncthreads_and(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return cuda_cpu::syncthreads(cuda_cpu::BarrierReduce::all, predicate, line, file);
}
inline int __syncthreads_or(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return cuda_cpu::syncthreads(cuda_cpu::BarrierReduce::any, predicate, line, file);
}
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
[[noreturn]] inline void __trap(unsigned line = __builtin_LINE(),
                                const char* file = __builtin_FILE()) {
  cuda_cpu::trap(line, file);
}

// The multiprocessor's cycle counter (cuda_cpu::cycles_now). A kernel's clock() reads the same
// counter, as CUDA's device clock() does: the engine's clock() answers kernel code so and host
// code as the C library does (checker/engine/src/cpu/device_clock.cpp).
inline long long clock64() { return cuda_cpu::cycles_now(); }

// CUDA's min and max take mixed arithmetic types and return the common type.
template <typename A, typename B,
          typename = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
constexpr std::common_type_t<A, B> min(A a, B b) {
  using C = std::common_type_t<A, B>;
  return static_cast<C>(b) < static_cast<C>(a) ? static_cast<C>(b) : static_cast<C>(a);
}
template <typename A, typename B,
          typename = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
constexpr std::common_type_t<A, B> max(A a, B b) {
  using C = std::common_type_t<A, B>;
  return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}

inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __fsub_rn(float a, float b) { return a - b; }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline float __powf(float a, float b) { return powf(a, b); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __tanf(float x) { return tanf(x); }
inline int __mul24(int a, int b) { return static_cast<int>(static_cast<long long>(a << 8 >> 8) * (b << 8 >> 8)); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
}
inline unsigned __umulhi(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32); }
// The rest of CUDA's integer intrinsics, as its math API defines them.
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) | __brev(static_cast<unsigned>(x >> 32));
}
// Byte i of the result is byte (s >> 4i) & 7 of the eight bytes y:x (x's are 0 to 3).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned result = 0;
  for (int i = 0; i < 4; ++i) result |= static_cast<unsigned>((bytes >> (8 * ((s >> (4 * i)) & 7))) & 0xFFu) << (8 * i);
  return result;
}
// hi:lo shifted by shift & 31 (or by min(shift, 32), the c forms): the high word (l) or the low word (r).
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>((((static_cast<unsigned long long>(hi) << 32) | lo) << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>((((static_cast<unsigned long long>(hi) << 32) | lo) << (shift < 32 ? shift : 32)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>((((static_cast<unsigned long long>(hi) << 32) | lo) >> (shift & 31)));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>((((static_cast<unsigned long long>(hi) << 32) | lo) >> (shift < 32 ? shift : 32)));
}
inline int __hadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b) >> 1); }
inline int __rhadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b + 1) >> 1); }
inline unsigned __uhadd(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) + b) >> 1); }
inline unsigned __urhadd(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) + b + 1) >> 1);
}
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return static_cast<long long>((static_cast<__int128>(a) * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xFFFFFFu) * (b & 0xFFFFFFu); }
inline unsigned __sad(int x, int y, unsigned z) {
  return static_cast<unsigned>(x > y ? static_cast<long long>(x) - y : static_cast<long long>(y) - x) + z;
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __saturatef(float x) { return x < 0.f ? 0.f : (x > 1.f ? 1.f : x); }
inline float rsqrtf(float x) { return 1.f / sqrtf(x); }
inline int __float2int_rn(float x) { return static_cast<int>(nearbyintf(x)); }
inline int __float_as_int(float x) { int i; std::memcpy(&i, &x, 4); return i; }
inline float __int_as_float(int i) { float x; std::memcpy(&x, &i, 4); return x; }
inline unsigned __float_as_uint(float x) { unsigned u; std::memcpy(&u, &x, 4); return u; }
inline float __uint_as_float(unsigned u) { float x; std::memcpy(&x, &u, 4); return x; }
inline long long __double_as_longlong(double x) { long long i; std::memcpy(&i, &x, 8); return i; }
inline double __longlong_as_double(long long i) { double x; std::memcpy(&x, &i, 8); return x; }
template <typename T>
inline T __ldg(const T* p) { return *p; }
template <typename T>
inline T __ldcg(const T* p) { return *p; }
template <typename T>
inline T __ldca(const T* p) { return *p; }
template <typename T>
inline T __ldcs(const T* p) { return *p; }
template <typename T>
inline void __stcg(T* p, T v) { *p = v; }
template <typename T>
inline void __stcs(T* p, T v) { *p = v; }

// Generic pointers and shared-window addresses (what ldmatrix, cp.async and ld.shared take).
inline std::size_t __cvta_generic_to_shared(const void* p) { return cuda_cpu::shared_window_address(p); }
inline void* __cvta_shared_to_generic(std::size_t a) { return cuda_cpu::shared_window_pointer(a); }
inline std::size_t __cvta_generic_to_global(const void* p) { return reinterpret_cast<std::size_t>(p); }
inline void* __cvta_global_to_generic(std::size_t a) { return reinterpret_cast<void*>(a); }

// --- Atomics: real atomics, since blocks run at the same time on several cores. ----------
template <typename T>
CUDA_CPU_UNCHECKED T cuda_cpu_atomic_fetch_add(T* p, T v) {
  cuda_cpu::note_atomic(p, sizeof(T));
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
template <typename F, typename Op>
CUDA_CPU_UNCHECKED F cuda_cpu_atomic_float_update(F* p, Op op) {
  // A compare-and-swap loop on the bits, as CUDA's own fallback does.
  using Bits = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  cuda_cpu::note_atomic(p, sizeof(F));
  Bits* bits = reinterpret_cast<Bits*>(p);
  Bits old_bits = __atomic_load_n(bits, __ATOMIC_RELAXED);
  for (;;) {
    F old_value, new_value;
    std::memcpy(&old_value, &old_bits, sizeof(F));
    new_value = op(old_value);
    Bits new_bits;
    std::memcpy(&new_bits, &new_value, sizeof(F));
    if (__atomic_compare_exchange_n(bits, &old_bits, new_bits, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return old_value;
  }
}

// GCC has no __atomic_fetch_max/min: a compare-and-swap loop does for both compilers.
template <typename T, typename Op>
CUDA_CPU_UNCHECKED T cuda_cpu_atomic_int_update(T* p, Op op) {
  cuda_cpu::note_atomic(p, sizeof(T));
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, op(old), true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}

inline int atomicAdd(int* p, int v) { return cuda_cpu_atomic_fetch_add(p, v); }
inline unsigned int atomicAdd(unsigned int* p, unsigned int v) { return cuda_cpu_atomic_fetch_add(p, v); }
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  return cuda_cpu_atomic_fetch_add(p, v);
}
inline float atomicAdd(float* p, float v) {
  return cuda_cpu_atomic_float_update(p, [v](float old) { return old + v; });
}
inline double atomicAdd(double* p, double v) {
  return cuda_cpu_atomic_float_update(p, [v](double old) { return old + v; });
}
inline int atomicSub(int* p, int v) { return cuda_cpu_atomic_fetch_add(p, -v); }
inline unsigned int atomicSub(unsigned int* p, unsigned int v) {
  return cuda_cpu_atomic_fetch_add(p, 0u - v);
}
inline int atomicMax(int* p, int v) {
  return cuda_cpu_atomic_int_update(p, [v](int old) { return v > old ? v : old; });
}
inline int atomicMin(int* p, int v) {
  return cuda_cpu_atomic_int_update(p, [v](int old) { return v < old ? v : old; });
}
inline unsigned int atomicMax(unsigned int* p, unsigned int v) {
  return cuda_cpu_atomic_int_update(p, [v](unsigned int old) { return v > old ? v : old; });
}
inline unsigned int atomicMin(unsigned int* p, unsigned int v) {
  return cuda_cpu_atomic_int_update(p, [v](unsigned int old) { return v < old ? v : old; });
}
CUDA_CPU_UNCHECKED int atomicExch(int* p, int v) {
  cuda_cpu::note_atomic(p, 4);
  return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
CUDA_CPU_UNCHECKED unsigned int atomicExch(unsigned int* p, unsigned int v) {
  cuda_cpu::note_atomic(p, 4);
  return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
inline float atomicExch(float* p, float v) {
  return cuda_cpu_atomic_float_update(p, [v](float) { return v; });
}
CUDA_CPU_UNCHECKED unsigned long long atomicExch(unsigned long long* p, unsigned long long v) {
  cuda_cpu::note_atomic(p, 8);
  return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
inline long long atomicMax(long long* p, long long v) {
  return cuda_cpu_atomic_int_update(p, [v](long long old) { return v > old ? v : old; });
}
inline long long atomicMin(long long* p, long long v) {
  return cuda_cpu_atomic_int_update(p, [v](long long old) { return v < old ? v : old; });
}
inline unsigned long long atomicMax(unsigned long long* p, unsigned long long v) {
  return cuda_cpu_atomic_int_update(p, [v](unsigned long long old) { return v > old ? v : old; });
}
inline unsigned long long atomicMin(unsigned long long* p, unsigned long long v) {
  return cuda_cpu_atomic_int_update(p, [v](unsigned long long old) { return v < old ? v : old; });
}
// The bitwise atomics, on each integer type CUDA has them for.
#define CUDA_CPU_ATOMIC_BITS(T)                                                                          \
  inline T atomicAnd(T* p, T v) { return cuda_cpu_atomic_int_update(p, [v](T old) { return old & v; }); } \
  inline T atomicOr(T* p, T v) { return cuda_cpu_atomic_int_update(p, [v](T old) { return old | v; }); }  \
  inline T atomicXor(T* p, T v) { return cuda_cpu_atomic_int_update(p, [v](T old) { return old ^ v; }); }
CUDA_CPU_ATOMIC_BITS(int)
CUDA_CPU_ATOMIC_BITS(unsigned int)
CUDA_CPU_ATOMIC_BITS(unsigned long long)
#undef CUDA_CPU_ATOMIC_BITS
// Wrapping increment and decrement: past `limit` (or below 0), back to 0 (or to `limit`).
inline unsigned int atomicInc(unsigned int* p, unsigned int limit) {
  return cuda_cpu_atomic_int_update(p, [limit](unsigned int old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned int atomicDec(unsigned int* p, unsigned int limit) {
  return cuda_cpu_atomic_int_update(p, [limit](unsigned int old) { return old == 0 || old > limit ? limit : old - 1; });
}
CUDA_CPU_UNCHECKED int atomicCAS(int* p, int compare, int v) {
  cuda_cpu::note_atomic(p, 4);
  __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;
}
CUDA_CPU_UNCHECKED unsigned int atomicCAS(unsigned int* p, unsigned int compare, unsigned int v) {
  cuda_cpu::note_atomic(p, 4);
  __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;
}
CUDA_CPU_UNCHECKED unsigned long long atomicCAS(unsigned long long* p, unsigned long long compare,
                                    unsigned long long v) {
  cuda_cpu::note_atomic(p, 8);
  __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;
}

// The scoped forms (atomicAdd_block, atomicCAS_system, ...): one device, one memory, so every
// scope is the same atomic.
#define CUDA_CPU_SCOPED_ATOMIC(name)                                          \
  template <typename... A>                                                    \
  inline auto name##_block(A... a)->decltype(name(a...)) { return name(a...); } \
  template <typename... A>                                                    \
  inline auto name##_system(A... a)->decltype(name(a...)) { return name(a...); }
CUDA_CPU_SCOPED_ATOMIC(atomicAdd)
CUDA_CPU_SCOPED_ATOMIC(atomicSub)
CUDA_CPU_SCOPED_ATOMIC(atomicExch)
CUDA_CPU_SCOPED_ATOMIC(atomicMin)
CUDA_CPU_SCOPED_ATOMIC(atomicMax)
CUDA_CPU_SCOPED_ATOMIC(atomicInc)
CUDA_CPU_SCOPED_ATOMIC(atomicDec)
CUDA_CPU_SCOPED_ATOMIC(atomicCAS)
CUDA_CPU_SCOPED_ATOMIC(atomicAnd)
CUDA_CPU_SCOPED_ATOMIC(atomicOr)
CUDA_CPU_SCOPED_ATOMIC(atomicXor)
#undef CUDA_CPU_SCOPED_ATOMIC

#endif  // CUDA_CPU_DEVICE_FUNCTIONS_H_

// Inline PTX for the CPU backend. The build rewrites every `asm` statement of a kernel file
// (checker/engine/tools/ptx_rewrite.cpp) into
//
//   [&]() { static const cuda_cpu::ptx::Statement s("<template>", "=f,r,...", "<file>", <line>);
//           cuda_cpu::ptx::Bound operands[] = {out<'f'>(d0), in<'r'>(a0), ...};
//           cuda_cpu::ptx::execute(s, operands, N); }()
//
// so that the engine runs the PTX with CUDA's semantics and checks (checker/engine/src/cpu/ptx/),
// and the file itself stays the bytes that nvcc compiles. Each operand is bound here to its
// C++ value as GCC-style inline assembly binds it to a register: "r" 32 bits, "l" 64, "h" 16,
// "c" 8, "f" a float, "d" a double, "n" an immediate.
#ifndef CUDA_CPU_INLINE_PTX_H_
#define CUDA_CPU_INLINE_PTX_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cuda_cpu::ptx {

// One operand of a statement: the bits an input brings, and where an output goes.
struct Bound {
  std::uint64_t bits = 0;
  void* address = nullptr;                           // outputs
  void (*store)(void*, std::uint64_t) = nullptr;     // outputs: the register's bits into the C++ type
};

// One asm statement: its template parsed once, on first use (the engine's side).
class Statement {
 public:
  Statement(const char* text, const char* constraints, const char* file, unsigned line);
  const char* text;
  const char* constraints;
  const char* file;
  unsigned line;
  const void* program = nullptr;  // ptx::Program, or null when the template could not be parsed
  const char* error = nullptr;    // why, then
};

void execute(const Statement& statement, Bound* operands, unsigned count);

namespace detail {

template <char C>
constexpr unsigned register_bytes() {
  return C == 'l' || C == 'd' ? 8 : C == 'h' ? 2 : C == 'c' ? 1 : C == 'n' ? 8 : 4;
}

template <char C, typename T>
std::uint64_t to_bits(const T& value) {
  using V = std::remove_cv_t<std::remove_reference_t<T>>;
  if constexpr (C == 'f') {
    static_assert(std::is_arithmetic<V>::value, "an \"f\" operand of inline PTX must be a number");
    float f = static_cast<float>(value);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  } else if constexpr (C == 'd') {
    static_assert(std::is_arithmetic<V>::value, "a \"d\" operand of inline PTX must be a number");
    double d = static_cast<double>(value);
    std::uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
  } else if constexpr (std::is_pointer<V>::value || std::is_null_pointer<V>::value) {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(value));
  } else if constexpr (std::is_integral<V>::value || std::is_enum<V>::value) {
    // Signed values keep their two's complement bits; the register keeps the low bytes.
    constexpr unsigned bytes = register_bytes<C>();
    auto wide = static_cast<std::uint64_t>(static_cast<long long>(value));
    return bytes == 8 ? wide : wide & ((std::uint64_t{1} << (8 * bytes)) - 1);
  } else {
    // A float in an integer register, or a struct of the register's size (__half2, ...):
    // its bits, as a reinterpreting cast would give them.
    static_assert(std::is_trivially_copyable<V>::value && sizeof(V) <= 8,
                  "an inline-PTX operand must be a number, a pointer, or 8 bytes or fewer of plain data");
    std::uint64_t b = 0;
    std::memcpy(&b, &value, sizeof(V));
    return b;
  }
}

template <char C, typename T>
void from_bits(void* place, std::uint64_t bits) {
  T& target = *static_cast<T*>(place);
  if constexpr (C == 'f') {
    float f;
    std::uint32_t b = static_cast<std::uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    target = static_cast<T>(f);
  } else if constexpr (C == 'd') {
    double d;
    std::memcpy(&d, &bits, 8);
    target = static_cast<T>(d);
  } else if constexpr (std::is_pointer<T>::value) {
    target = reinterpret_cast<T>(static_cast<std::uintptr_t>(bits));
  } else if constexpr (std::is_integral<T>::value) {
    constexpr unsigned bytes = register_bytes<C>();
    std::uint64_t low = bytes == 8 ? bits : bits & ((std::uint64_t{1} << (8 * bytes)) - 1);
    if constexpr (std::is_signed<T>::value) {
      // Sign-extend from the register's width, as a move from a narrower register would.
      if (bytes < 8 && (low >> (8 * bytes - 1)) & 1) low |= ~((std::uint64_t{1} << (8 * bytes)) - 1);
    }
    target = static_cast<T>(low);
  } else {
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                  "an inline-PTX output must be a number, a pointer, or 8 bytes or fewer of plain data");
    std::memcpy(&target, &bits, sizeof(T));
  }
}

}  // namespace detail

template <char C, typename T>
Bound in(const T& value) {
  Bound b;
  b.bits = detail::to_bits<C>(value);
  return b;
}

template <char C, typename T>
Bound out(T& lvalue) {
  static_assert(!std::is_const<T>::value, "an output of inline PTX must be assignable");
  Bound b;
  b.address = &lvalue;
  b.store = &detail::from_bits<C, T>;
  return b;
}

namespace detail {
// The value a "+" operand brings in, read without the engine's access checks: a chain of
// wgmma.mma_async on the same accumulators reads them here while the previous wgmma still owns
// them, which PTX allows; any other read of them in kernel code is checked. (Not inlined into
// the instrumented kernel, so the read of `lvalue` itself is not instrumented.)
template <char C, typename T>
__attribute__((no_sanitize("address"))) std::uint64_t operand_bits(const T& lvalue) {
  const T copy = lvalue;
  return to_bits<C>(copy);
}
}  // namespace detail

// A tied input ("0"): the value that starts in its output's register, read as a "+" operand's.
template <char C, typename T>
Bound tied(const T& value) {
  Bound b;
  b.bits = detail::operand_bits<C>(value);
  return b;
}

template <char C, typename T>
Bound inout(T& lvalue) {
  Bound b = out<C>(lvalue);
  b.bits = detail::operand_bits<C>(lvalue);
  return b;
}

}  // namespace cuda_cpu::ptx

#endif  // CUDA_CPU_INLINE_PTX_H_

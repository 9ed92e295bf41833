// <mma.h> for the CPU backend: nvcuda::wmma, 16×16×16 tiles of half inputs with float (or
// half) accumulators. Loads, stores and mma_sync are warp collectives, as on the GPU: the
// engine gathers the 32 lanes' fragments, checks that they agree (pointer, ldm, layout)
// and obey CUDA's rules (256-bit aligned pointer, ldm a multiple of 16 bytes), and does
// the whole tile's work once. Each lane holds 8 elements of the tile; CUDA leaves the
// element-to-lane mapping unspecified, so kernels may only use x[i] element-wise.
#ifndef CUDA_CPU_COMPAT_MMA_H_
#define CUDA_CPU_COMPAT_MMA_H_

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "cuda_cpu/runtime_hooks.h"
#include "cuda_bf16.h"  // as CUDA's mma.h does (it includes cuda_fp16.h)
#include "cuda_fp16.h"

namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
enum layout_t { mem_row_major, mem_col_major };

namespace detail {

constexpr int kTile = 16;
constexpr int kPerLane = kTile * kTile / 32;

template <typename Layout>
constexpr layout_t layout_of() {
  return std::is_same<Layout, col_major>::value ? mem_col_major : mem_row_major;
}

// What a lane brings to a collective: its fragment(s) and the memory arguments.
struct Lane {
  void* fragment;
  const void* a;
  const void* b;
  const void* c;
  const void* pointer;
  unsigned ldm;
  layout_t layout;
};

// The engine's side, in checker/engine/src/cpu/wmma.cpp.
struct Collective {
  cuda_cpu::WarpOp op;
  bool half_elements;  // __half (true) or float elements in memory and fragment
  bool half_accumulator;
};
void complete(void* const* lane_data, unsigned mask, const void* collective);

template <typename Use, typename T>
struct check_supported {
  static_assert(!std::is_same<Use, matrix_a>::value || std::is_same<T, __half>::value,
                "this CPU backend supports wmma matrix_a and matrix_b fragments of __half");
  static_assert(!std::is_same<Use, matrix_b>::value || std::is_same<T, __half>::value,
                "this CPU backend supports wmma matrix_a and matrix_b fragments of __half");
  static_assert(!std::is_same<Use, accumulator>::value || std::is_same<T, float>::value ||
                    std::is_same<T, __half>::value,
                "wmma accumulators are float or __half");
};

inline void run(cuda_cpu::WarpOp op, Lane& lane, bool half_elements, bool half_accumulator, unsigned line,
                const char* file) {
  Collective c{op, half_elements, half_accumulator};
  cuda_cpu::warp_collective(op, 0xFFFFFFFFu, &lane, &complete, &c, line, file);
}

}  // namespace detail

template <typename Use, int M, int N, int K, typename T, typename Layout = void>
class fragment : detail::check_supported<Use, T> {
  static_assert(M == 16 && N == 16 && K == 16, "this CPU backend supports wmma's 16x16x16 shape");

 public:
  using element_type = T;
  static constexpr int num_elements = detail::kPerLane;
  T x[detail::kPerLane];
};

template <typename Use, int M, int N, int K, typename T, typename Layout>
inline void fill_fragment(fragment<Use, M, N, K, T, Layout>& f, const T& value) {
  for (int i = 0; i < detail::kPerLane; ++i) f.x[i] = value;
}

// matrix_a / matrix_b: the layout is part of the fragment's type.
template <typename Use, int M, int N, int K, typename T, typename Layout>
inline void load_matrix_sync(fragment<Use, M, N, K, T, Layout>& f, const T* p, unsigned ldm,
                             unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  static_assert(!std::is_same<Layout, void>::value, "an accumulator load takes a layout_t argument");
  detail::Lane lane{&f, nullptr, nullptr, nullptr, p, ldm, detail::layout_of<Layout>()};
  detail::run(cuda_cpu::WarpOp::wmma_load, lane, std::is_same<T, __half>::value, false, line, file);
}

// accumulator: the layout is an argument.
template <int M, int N, int K, typename T>
inline void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const T* p, unsigned ldm, layout_t layout,
                             unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  detail::Lane lane{&f, nullptr, nullptr, nullptr, p, ldm, layout};
  detail::run(cuda_cpu::WarpOp::wmma_load, lane, std::is_same<T, __half>::value, std::is_same<T, __half>::value,
              line, file);
}

template <int M, int N, int K, typename T>
inline void store_matrix_sync(T* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm, layout_t layout,
                              unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  detail::Lane lane{const_cast<fragment<accumulator, M, N, K, T>*>(&f), nullptr, nullptr, nullptr, p, ldm, layout};
  detail::run(cuda_cpu::WarpOp::wmma_store, lane, std::is_same<T, __half>::value, std::is_same<T, __half>::value,
              line, file);
}

// d = a · b + c, in float (or half) accumulation.
template <int M, int N, int K, typename TC, typename LA, typename LB>
inline void mma_sync(fragment<accumulator, M, N, K, TC>& d, const fragment<matrix_a, M, N, K, __half, LA>& a,
                     const fragment<matrix_b, M, N, K, __half, LB>& b, const fragment<accumulator, M, N, K, TC>& c,
                     unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  detail::Lane lane{&d, &a, &b, &c, nullptr, 0, mem_row_major};
  detail::run(cuda_cpu::WarpOp::wmma_mma, lane, true, std::is_same<TC, __half>::value, line, file);
}

}  // namespace wmma
}  // namespace nvcuda

#endif  // CUDA_CPU_COMPAT_MMA_H_

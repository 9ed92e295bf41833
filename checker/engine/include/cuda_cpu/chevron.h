// What `kernel<<<grid, block, shared, stream>>>(args...)` becomes on the CPU backend: the
// build rewrites each launch in host code into a call of chevron_launch
// (checker/engine/tools/chevron_launch.h). As with nvcc, the arguments are converted to the
// kernel's parameter types, the launch's errors are what cudaGetLastError returns next, and
// a kernel that is a template may have its template arguments deduced from the arguments.
#ifndef CUDA_CPU_CHEVRON_H_
#define CUDA_CPU_CHEVRON_H_

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "cuda_cpu/runtime_api.h"
#include "engine/kernel_image.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUDA_CPU_INSTRUMENTED_BUILD true
#endif
#endif
#ifndef CUDA_CPU_INSTRUMENTED_BUILD
#define CUDA_CPU_INSTRUMENTED_BUILD false
#endif

namespace cuda_cpu {

// Where a launch is written, filled in by the rewriting.
struct ChevronSite {
  const char* kernel;         // as written: "scale<float, 4>"
  const char* file;
  unsigned line;
  void* (*dynamic_shared)();  // this thread's extern __shared__ storage of the file, or null
  std::size_t dynamic_shared_bytes;
  bool instrumented = CUDA_CPU_INSTRUMENTED_BUILD;  // the file's loads and stores are checked
};

struct ChevronConfig {
  dim3 grid, block;
  std::size_t shared;
  cudaStream_t stream;
};
inline ChevronConfig chevron_config(dim3 grid, dim3 block, std::size_t shared = 0, cudaStream_t stream = nullptr) {
  return ChevronConfig{grid, block, shared, stream};
}

struct KernelType {
  const char* signature;  // typeid of the function type
  engine::CpuInvoker invoke;
};

// Runs the kernel on the CPU backend (runtime_api.cpp) and returns CUDA's error for the launch.
cudaError_t launch_at(const ChevronSite& site, const void* kernel, const KernelType& type,
                      const ChevronConfig& config, void** args);

// Overload ranks: a kernel named exactly (a function, or a template with its arguments) first;
// else a template whose parameters are the arguments' types; else one whose parameters are
// those types with some of the pointers made pointers to const (a kernel's inputs).
template <int N>
struct ChevronRank : ChevronRank<N - 1> {};
template <>
struct ChevronRank<0> {};
inline constexpr ChevronRank<2> chevron_exact{};

template <typename T>
struct pointer_to_const {
  using type = T;
};
template <typename T>
struct pointer_to_const<T*> {
  using type = const T*;
};

template <typename... P, typename... A>
void chevron_launch(ChevronRank<2>, const ChevronSite& site, const ChevronConfig& config, void (*kernel)(P...),
                    A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "a <<<...>>> launch must pass as many arguments as the kernel has parameters, or leave out "
                "only parameters whose declaration gives a default (a default that names a template "
                "parameter is not filled in: pass that argument)");
  [&](P... coerced) {
    void* pointers[] = {static_cast<void*>(&coerced)..., reinterpret_cast<void*>(kernel)};
    launch_at(site, reinterpret_cast<const void*>(kernel),
              KernelType{typeid(void(P...)).name(), &invoke_through_pointer<P...>}, config, pointers);
  }(std::forward<A>(args)...);
}
template <typename... A>
void chevron_launch(ChevronRank<1>, const ChevronSite& site, const ChevronConfig& config,
                    void (*kernel)(std::decay_t<A>...), A&&... args) {
  chevron_launch(chevron_exact, site, config, kernel, std::forward<A>(args)...);
}

namespace chevron_detail {

// How many of the first I types are pointers.
template <std::size_t I, typename... A>
constexpr std::size_t pointers_before() {
  constexpr bool is_pointer[] = {std::is_pointer<A>::value..., false};
  std::size_t n = 0;
  for (std::size_t i = 0; i < I; ++i) n += is_pointer[i];
  return n;
}
// Parameter I of candidate Mask: the argument's type, its pointer made a pointer to const
// when the bit of that pointer is set.
template <std::size_t Mask, std::size_t I, typename... A>
using parameter_t = std::conditional_t<((Mask >> pointers_before<I, A...>()) & 1u) != 0 &&
                                           std::is_pointer<std::tuple_element_t<I, std::tuple<A...>>>::value,
                                       typename pointer_to_const<std::tuple_element_t<I, std::tuple<A...>>>::type,
                                       std::tuple_element_t<I, std::tuple<A...>>>;

template <std::size_t Mask, typename Seq, typename... A>
struct Candidate;
template <std::size_t Mask, std::size_t... I, typename... A>
struct Candidate<Mask, std::index_sequence<I...>, A...> {
  using Fn = void (*)(parameter_t<Mask, I, A...>...);
  Fn fn = nullptr;
  Candidate() = default;
  Candidate(Fn f) : fn(f) {}
};

// Built from the kernel's overload set: exactly one candidate's constructor takes it, the one
// whose parameter types the kernel template deduces to.
template <typename Masks, typename... A>
struct Resolver;
template <std::size_t... M, typename... A>
struct Resolver<std::index_sequence<M...>, A...> : Candidate<M, std::index_sequence_for<A...>, A...>... {
  using Candidate<M, std::index_sequence_for<A...>, A...>::Candidate...;

  template <typename... Args>
  void launch(const ChevronSite& site, const ChevronConfig& config, Args&&... args) const {
    (void)((static_cast<const Candidate<M, std::index_sequence_for<A...>, A...>&>(*this).fn != nullptr &&
            (chevron_launch(chevron_exact, site, config,
                            static_cast<const Candidate<M, std::index_sequence_for<A...>, A...>&>(*this).fn,
                            std::forward<Args>(args)...),
             true)) ||
           ...);
  }
};

template <typename... A>
constexpr std::size_t pointer_count() {
  return pointers_before<sizeof...(A), A...>();
}
// Every mix of const among at most 6 pointers (64 candidates); beyond that, none or all.
template <typename... A>
using masks_t = std::make_index_sequence<(pointer_count<A...>() <= 6 ? (std::size_t{1} << pointer_count<A...>()) : 1)>;

template <typename T>
struct identity {
  using type = T;
};

}  // namespace chevron_detail

template <typename... A>
void chevron_launch(ChevronRank<0>, const ChevronSite& site, const ChevronConfig& config,
                    typename chevron_detail::identity<
                        chevron_detail::Resolver<chevron_detail::masks_t<std::decay_t<A>...>, std::decay_t<A>...>>::type
                        kernel,
                    A&&... args) {
  kernel.launch(site, config, std::forward<A>(args)...);
}

}  // namespace cuda_cpu

#endif  // CUDA_CPU_CHEVRON_H_

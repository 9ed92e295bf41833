// What `kernel<<<grid, block, shared, stream>>>(args...)` becomes on the CPU backend: the
// build rewrites each launch in host code into a call of chevron_launch
// (checker/engine/tools/chevron_launch.h). As with nvcc, the arguments are converted to the
// kernel's parameter types, the launch's errors are what cudaGetLastError returns next, and
// a kernel that is a template may have its template arguments deduced from the arguments.
#pragma once

#include <cstddef>
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

// A kernel known by its address at run time: the argument array of its launch ends with the
// kernel's address, after one pointer per parameter.
template <typename... P, std::size_t... I>
void invoke_through_pointer(void* const* args, std::index_sequence<I...>) {
  auto kernel = reinterpret_cast<void (*)(P...)>(args[sizeof...(P)]);
  kernel(*static_cast<std::remove_reference_t<P>*>(args[I])...);
}
template <typename... P>
void invoke_through_pointer(void* const* args) {
  invoke_through_pointer<P...>(args, std::index_sequence_for<P...>{});
}

struct KernelType {
  const char* signature;  // typeid of the function type
  engine::CpuInvoker invoke;
};

// Runs the kernel on the CPU backend (runtime_api.cpp) and returns CUDA's error for the launch.
cudaError_t launch_at(const ChevronSite& site, const void* kernel, const KernelType& type,
                      const ChevronConfig& config, void** args);

// Overload ranks: a kernel named exactly (a function, or a template with its arguments) first;
// else a template whose parameters are the arguments' types, or those with pointers to const.
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
                "a <<<...>>> launch must pass as many arguments as the kernel has parameters");
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
template <typename... A>
void chevron_launch(ChevronRank<0>, const ChevronSite& site, const ChevronConfig& config,
                    void (*kernel)(typename pointer_to_const<std::decay_t<A>>::type...), A&&... args) {
  chevron_launch(chevron_exact, site, config, kernel, std::forward<A>(args)...);
}

}  // namespace cuda_cpu

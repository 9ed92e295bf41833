// A kernel as host code sees it: one typed handle over both backends' images, and a typed
// launch that packs arguments the way cudaLaunchKernel expects them.
#ifndef ENGINE_KERNEL_H_
#define ENGINE_KERNEL_H_

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "engine/backend.h"
#include "engine/kernel_image.h"

namespace engine {

// "(float const*, float const*, float*, int)" from a mangled function type.
std::string readable_signature(const char* mangled_function_type);

template <typename Signature>
class Kernel;

template <typename... Params>
class Kernel<void(Params...)> {
 public:
  Kernel(const KernelImage& cpu, const KernelImage& gpu) : cpu_(cpu), gpu_(gpu) {
    check_signature(cpu_);
    check_signature(gpu_);
  }

  const char* name() const { return cpu_.name; }

  const KernelImage& image(BackendKind kind) const {
    const KernelImage& img = kind == BackendKind::cpu ? cpu_ : gpu_;
    if (kind == BackendKind::cpu ? img.cpu_invoke == nullptr : img.address == nullptr)
      throw Error(std::string("kernel ") + img.name + " was not built for the " +
                  to_string(kind) + " backend");
    return img;
  }

 private:
  static void check_signature(const KernelImage& img) {
    const char* expected = typeid(void(Params...)).name();
    if (*img.signature && std::string(img.signature) != expected)
      throw Error(std::string("kernel ") + img.name + " takes " +
                  readable_signature(img.signature) + " but this program passes " +
                  readable_signature(expected) +
                  ". Keep the kernel's parameters as given and change only its body.");
  }

  KernelImage cpu_;
  KernelImage gpu_;
};

namespace detail {
template <typename Tuple, std::size_t... I>
LaunchResult launch_tuple(Backend& backend, const KernelImage& image, const LaunchConfig& config,
                          const RunOptions& options, Tuple& values, std::index_sequence<I...>) {
  void* args[] = {static_cast<void*>(&std::get<I>(values))..., nullptr};
  return backend.launch(image, config, args, options);
}
}  // namespace detail

// backend: where to run; the arguments are converted to the kernel's parameter types.
template <typename... Params, typename... Args>
LaunchResult launch(Backend& backend, const Kernel<void(Params...)>& kernel,
                    const LaunchConfig& config, const RunOptions& options, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "wrong number of kernel arguments");
  std::tuple<std::decay_t<Params>...> values(std::forward<Args>(args)...);
  return detail::launch_tuple(backend, kernel.image(backend.kind()), config, options, values,
                              std::index_sequence_for<Params...>{});
}

}  // namespace engine

#endif  // ENGINE_KERNEL_H_

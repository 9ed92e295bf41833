// Calls a kernel on the CPU backend with its arguments as CUDA passes them: each thread gets the
// bytes of each argument, copied, and no constructor or destructor of a parameter runs on the
// device (CUDA's programming guide: a launch from host code copies the argument into the
// kernel's parameter memory with memcpy, and destroys it, if ever, in host code). A class with
// a destructor that frees memory, passed by value (a lock, a buffer's owner), must not free it
// once per thread.
//
// A parameter whose class is non-trivial for the purposes of calls (a non-trivial copy or move
// constructor or destructor) is passed by the Itanium C++ ABI, which x86-64 and AArch64 Linux
// follow, as a pointer to a temporary that the caller makes and destroys. So the kernel is
// called through a function type that takes such a parameter as that pointer, to a bitwise copy
// the caller never destroys; every other parameter is passed as before.
#ifndef CUDA_CPU_KERNEL_PARAMETERS_H_
#define CUDA_CPU_KERNEL_PARAMETERS_H_

#include <cstddef>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cuda_cpu::detail {

template <typename T>
constexpr bool trivial_for_calls =
    std::is_trivially_destructible_v<T> &&
    (!std::is_copy_constructible_v<T> || std::is_trivially_copy_constructible_v<T>) &&
    (!std::is_move_constructible_v<T> || std::is_trivially_move_constructible_v<T>) &&
    (std::is_copy_constructible_v<T> || std::is_move_constructible_v<T>);

template <typename P>
constexpr bool passed_by_address = !std::is_reference_v<P> && !trivial_for_calls<P>;

// The parameter as the ABI passes it: by address where the class is non-trivial for calls.
template <typename P>
using abi_parameter = std::conditional_t<passed_by_address<P>, P*, P>;

// One argument on its way to a kernel: for a class passed by address, this thread's bitwise copy.
template <typename P, bool = passed_by_address<P>>
class KernelArgument {
 public:
  explicit KernelArgument(void* argument) : argument_(argument) {}
  P& get() { return *static_cast<std::remove_reference_t<P>*>(argument_); }

 private:
  void* argument_;
};
template <typename P>
class KernelArgument<P, true> {
 public:
  explicit KernelArgument(const void* argument) { std::memcpy(bytes_, argument, sizeof(P)); }
  P* get() { return reinterpret_cast<P*>(bytes_); }

 private:
  alignas(P) unsigned char bytes_[sizeof(P)];
};

template <typename... P, std::size_t... I>
void call_kernel(void (*kernel)(P...), void* const* args, std::index_sequence<I...>) {
  if constexpr ((passed_by_address<P> || ...)) {
    std::tuple<KernelArgument<P>...> arguments{KernelArgument<P>(args[I])...};
    reinterpret_cast<void (*)(abi_parameter<P>...)>(kernel)(std::get<I>(arguments).get()...);
  } else {
    kernel(*static_cast<std::remove_reference_t<P>*>(args[I])...);
  }
}

}  // namespace cuda_cpu::detail

namespace cuda_cpu {

// Calls kernel with args, one pointer per parameter (the array cudaLaunchKernel takes).
template <typename... P>
void call_kernel(void (*kernel)(P...), void* const* args) {
  detail::call_kernel(kernel, args, std::index_sequence_for<P...>{});
}

}  // namespace cuda_cpu

#endif  // CUDA_CPU_KERNEL_PARAMETERS_H_

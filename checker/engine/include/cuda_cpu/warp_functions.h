// CUDA's warp-level functions for the CPU backend. Each is a warp collective: every lane
// named in the mask must call it; the engine lets the lanes of a warp meet there, exactly
// as the hardware does for the *_sync functions.
#ifndef CUDA_CPU_WARP_FUNCTIONS_H_
#define CUDA_CPU_WARP_FUNCTIONS_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda_cpu/runtime_hooks.h"

namespace cuda_cpu {

// What one lane brings to a shuffle, vote or __syncwarp, and what it takes away.
struct WarpLane {
  std::uint64_t value = 0;  // the lane's var (shuffles) or predicate (votes)
  int param = 0;            // srcLane, delta or laneMask
  int width = 32;
  std::uint64_t result = 0;
};

void complete_warp_lanes(void* const* lane_data, unsigned mask, const void* op);

// A collective in which every lane of the mask receives every lane's value (up to 16 bytes):
// cooperative_groups' partitions, reductions and scans compute their results from it.
struct GatherLane {
  std::uint64_t value[2] = {};
  std::uint64_t all[32][2];  // all[l]: lane l's value, for the lanes of the mask
};
void complete_gather(void* const* lane_data, unsigned mask, const void* unused);

template <typename T>
inline T warp_exchange(WarpOp op, unsigned mask, T var, int param, int width, unsigned line, const char* file) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                "the __shfl functions move values of at most 8 bytes (int, float, double, __half2, ...)");
  WarpLane lane;
  std::memcpy(&lane.value, static_cast<const void*>(&var), sizeof(T));
  lane.param = param;
  lane.width = width;
  warp_collective(op, mask, &lane, &complete_warp_lanes, &op, line, file);
  T out;
  // Through void*: a trivially copyable class with default member initializers is not
  // "trivial", and g++ would warn (-Wclass-memaccess) about a copy that is well defined.
  std::memcpy(static_cast<void*>(&out), &lane.result, sizeof(T));
  return out;
}

}  // namespace cuda_cpu

inline void __syncwarp(unsigned mask = 0xFFFFFFFFu, unsigned line = __builtin_LINE(),
                       const char* file = __builtin_FILE()) {
  cuda_cpu::WarpLane lane;
  cuda_cpu::WarpOp op = cuda_cpu::WarpOp::syncwarp;
  cuda_cpu::warp_collective(op, mask, &lane, &cuda_cpu::complete_warp_lanes, &op, line, file);
}

template <typename T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize, unsigned line = __builtin_LINE(),
                     const char* file = __builtin_FILE()) {
  return cuda_cpu::warp_exchange(cuda_cpu::WarpOp::shfl, mask, var, src_lane, width, line, file);
}
template <typename T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize, unsigned line = __builtin_LINE(),
                        const char* file = __builtin_FILE()) {
  return cuda_cpu::warp_exchange(cuda_cpu::WarpOp::shfl_up, mask, var, static_cast<int>(delta), width, line, file);
}
template <typename T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                          unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return cuda_cpu::warp_exchange(cuda_cpu::WarpOp::shfl_down, mask, var, static_cast<int>(delta), width, line, file);
}
template <typename T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize, unsigned line = __builtin_LINE(),
                         const char* file = __builtin_FILE()) {
  return cuda_cpu::warp_exchange(cuda_cpu::WarpOp::shfl_xor, mask, var, lane_mask, width, line, file);
}
inline unsigned __ballot_sync(unsigned mask, int predicate, unsigned line = __builtin_LINE(),
                              const char* file = __builtin_FILE()) {
  return static_cast<unsigned>(
      cuda_cpu::warp_exchange(cuda_cpu::WarpOp::ballot, mask, predicate != 0 ? 1u : 0u, 0, 32, line, file));
}
inline int __any_sync(unsigned mask, int predicate, unsigned line = __builtin_LINE(),
                      const char* file = __builtin_FILE()) {
  return static_cast<int>(cuda_cpu::warp_exchange(cuda_cpu::WarpOp::any, mask, predicate != 0 ? 1u : 0u, 0, 32, line, file));
}
inline int __all_sync(unsigned mask, int predicate, unsigned line = __builtin_LINE(),
                      const char* file = __builtin_FILE()) {
  return static_cast<int>(cuda_cpu::warp_exchange(cuda_cpu::WarpOp::all, mask, predicate != 0 ? 1u : 0u, 0, 32, line, file));
}
inline unsigned __activemask() { return cuda_cpu::active_mask(); }

// The warp functions without _sync (__shfl, __shfl_up, __shfl_down, __shfl_xor, __any, __all,
// __ballot), as CUDA declares them: for architectures before sm_70 only, where a warp's lanes ran
// in lockstep and the functions took the lanes that were active. Older books and samples use
// them, built with -arch=sm_30 to sm_61. The architecture is the device pass's __CUDA_ARCH__, else
// the one the build names (checker/nvcc defines CUDA_CPU_TARGET_ARCH from -arch), else sm_90,
// the GPU the CPU backend models (checker/run).
#if defined(__CUDA_ARCH__)
#define CUDA_CPU_LEGACY_WARP_ARCH __CUDA_ARCH__
#elif defined(CUDA_CPU_TARGET_ARCH)
#define CUDA_CPU_LEGACY_WARP_ARCH CUDA_CPU_TARGET_ARCH
#else
#define CUDA_CPU_LEGACY_WARP_ARCH 900
#endif
#if CUDA_CPU_LEGACY_WARP_ARCH < 700
template <typename T>
inline T __shfl(T var, int src_lane, int width = warpSize, unsigned line = __builtin_LINE(),
                const char* file = __builtin_FILE()) {
  return __shfl_sync(__activemask(), var, src_lane, width, line, file);
}
template <typename T>
inline T __shfl_up(T var, unsigned delta, int width = warpSize, unsigned line = __builtin_LINE(),
                   const char* file = __builtin_FILE()) {
  return __shfl_up_sync(__activemask(), var, delta, width, line, file);
}
template <typename T>
inline T __shfl_down(T var, unsigned delta, int width = warpSize, unsigned line = __builtin_LINE(),
                     const char* file = __builtin_FILE()) {
  return __shfl_down_sync(__activemask(), var, delta, width, line, file);
}
template <typename T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize, unsigned line = __builtin_LINE(),
                    const char* file = __builtin_FILE()) {
  return __shfl_xor_sync(__activemask(), var, lane_mask, width, line, file);
}
inline int __any(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return __any_sync(__activemask(), predicate, line, file);
}
inline int __all(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return __all_sync(__activemask(), predicate, line, file);
}
inline unsigned __ballot(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return __ballot_sync(__activemask(), predicate, line, file);
}
#else
// nvcc does not declare them for sm_70 and newer: a call stops the compile, here with the fix.
namespace cuda_cpu {
template <typename... T>
constexpr bool kNoLegacyWarpFunctions = false;
}  // namespace cuda_cpu
#define CUDA_CPU_REMOVED_WARP_FUNCTION(name, replacement)                                             \
  template <typename... T>                                                                        \
  inline int name(T...) {                                                                         \
    static_assert(cuda_cpu::kNoLegacyWarpFunctions<T...>,                                          \
                  #name " has no _sync: CUDA removed it for sm_70 and newer, which this build is "  \
                  "for. Use " replacement " (checker/nvcc -arch=sm_60 builds keep the old form)");  \
    return 0;                                                                                     \
  }
CUDA_CPU_REMOVED_WARP_FUNCTION(__shfl, "__shfl_sync(mask, var, srcLane)")
CUDA_CPU_REMOVED_WARP_FUNCTION(__shfl_up, "__shfl_up_sync(mask, var, delta)")
CUDA_CPU_REMOVED_WARP_FUNCTION(__shfl_down, "__shfl_down_sync(mask, var, delta)")
CUDA_CPU_REMOVED_WARP_FUNCTION(__shfl_xor, "__shfl_xor_sync(mask, var, laneMask)")
CUDA_CPU_REMOVED_WARP_FUNCTION(__any, "__any_sync(mask, predicate)")
CUDA_CPU_REMOVED_WARP_FUNCTION(__all, "__all_sync(mask, predicate)")
CUDA_CPU_REMOVED_WARP_FUNCTION(__ballot, "__ballot_sync(mask, predicate)")
#undef CUDA_CPU_REMOVED_WARP_FUNCTION
#endif
#undef CUDA_CPU_LEGACY_WARP_ARCH

#endif  // CUDA_CPU_WARP_FUNCTIONS_H_

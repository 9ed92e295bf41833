// <cooperative_groups/scan.h> for the CPU backend: inclusive_scan and exclusive_scan over a tile
// or a coalesced group (plus by default, or any function of two values; the first rank's
// exclusive result is T()). As in CUDA, <cooperative_groups.h> alone does not declare them.
#ifndef CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_SCAN_H_
#define CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_SCAN_H_

#include "../cooperative_groups.h"
#include "details/fold.h"
#include "details/functional.h"

namespace cooperative_groups {

template <typename Group, typename T, typename Op, typename = std::enable_if_t<details::partitionable<Group>::value>>
inline std::decay_t<T> inclusive_scan(const Group& group, T&& value, Op&& op, unsigned line = __builtin_LINE(),
                                      const char* file = __builtin_FILE()) {
  return details::fold(cuda_cpu::WarpOp::cg_inclusive_scan, group, value, op, details::Fold::inclusive, line, file);
}
template <typename Group, typename T, typename = std::enable_if_t<details::partitionable<Group>::value>>
inline std::decay_t<T> inclusive_scan(const Group& group, T&& value, unsigned line = __builtin_LINE(),
                                      const char* file = __builtin_FILE()) {
  return inclusive_scan(group, value, plus<std::decay_t<T>>(), line, file);
}
template <typename Group, typename T, typename Op, typename = std::enable_if_t<details::partitionable<Group>::value>>
inline std::decay_t<T> exclusive_scan(const Group& group, T&& value, Op&& op, unsigned line = __builtin_LINE(),
                                      const char* file = __builtin_FILE()) {
  return details::fold(cuda_cpu::WarpOp::cg_exclusive_scan, group, value, op, details::Fold::exclusive, line, file);
}
template <typename Group, typename T, typename = std::enable_if_t<details::partitionable<Group>::value>>
inline std::decay_t<T> exclusive_scan(const Group& group, T&& value, unsigned line = __builtin_LINE(),
                                      const char* file = __builtin_FILE()) {
  return exclusive_scan(group, value, plus<std::decay_t<T>>(), line, file);
}

}  // namespace cooperative_groups

#endif  // CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_SCAN_H_

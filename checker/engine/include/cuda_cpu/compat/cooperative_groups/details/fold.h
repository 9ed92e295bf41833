// The CPU backend's one implementation of reduce and the scans (reduce.h, scan.h): every lane of
// the group's meeting brings its value in one collective (complete_gather), and each computes its
// own result from the values of its group, in rank order.
#ifndef CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_DETAILS_FOLD_H_
#define CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_DETAILS_FOLD_H_

#include <type_traits>

#include "../../cooperative_groups.h"

namespace cooperative_groups {

namespace details {
// The values of the caller's group in rank order, folded with `op`: the whole group (reduce), up
// to and with the caller (inclusive), or before it (exclusive; the first rank gets T()).
enum class Fold { all, inclusive, exclusive };
template <typename Group, typename T, typename Op>
inline T fold(cuda_cpu::WarpOp op_name, const Group& group, const T& value, Op&& op, Fold how, unsigned line,
              const char* file) {
  using V = std::decay_t<T>;
  const unsigned own = own_lanes(group), me = lane();
  V values[32];
  if (own == (1u << me)) {
    values[me] = value;
  } else {
    gather(op_name, meeting_lanes(group), static_cast<V>(value), values, line, file);
  }
  V result{};
  bool started = false;
  for (unsigned l = 0; l < 32; ++l) {
    if (!((own >> l) & 1u)) continue;
    if (how == Fold::exclusive && l == me) break;
    result = started ? static_cast<V>(op(result, values[l])) : values[l];
    started = true;
    if (how == Fold::inclusive && l == me) break;
  }
  return result;
}
}  // namespace details

}  // namespace cooperative_groups

#endif  // CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_DETAILS_FOLD_H_

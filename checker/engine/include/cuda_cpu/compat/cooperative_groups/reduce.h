// <cooperative_groups/reduce.h> for the CPU backend: cooperative_groups::reduce over a tile or a
// coalesced group (values of up to 16 bytes; plus, less, greater, bit_and, bit_or, bit_xor or any
// function of two values). As in CUDA, <cooperative_groups.h> alone does not declare it.
#ifndef CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_REDUCE_H_
#define CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_REDUCE_H_

#include "../cooperative_groups.h"
#include "details/fold.h"
#include "details/functional.h"

namespace cooperative_groups {

template <typename Group, typename T, typename Op, typename = std::enable_if_t<details::partitionable<Group>::value>>
inline std::decay_t<T> reduce(const Group& group, T&& value, Op&& op, unsigned line = __builtin_LINE(),
                              const char* file = __builtin_FILE()) {
  return details::fold(cuda_cpu::WarpOp::cg_reduce, group, value, op, details::Fold::all, line, file);
}

}  // namespace cooperative_groups

#endif  // CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_REDUCE_H_

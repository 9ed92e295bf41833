// <cooperative_groups/details/functional.h> for the CPU backend: the operators that reduce and
// the scans take, which reduce.h and scan.h bring (as CUDA's do).
#ifndef CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_DETAILS_FUNCTIONAL_H_
#define CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_DETAILS_FUNCTIONAL_H_

namespace cooperative_groups {

// The operators of reduce and the scans.
template <typename T>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <typename T>
struct less {
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <typename T>
struct greater {
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <typename T>
struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <typename T>
struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <typename T>
struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

}  // namespace cooperative_groups

#endif  // CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_DETAILS_FUNCTIONAL_H_

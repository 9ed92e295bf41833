// libcu++'s thread scopes (cuda/atomic, cuda/barrier, cuda/pipeline). On the CPU backend a
// kernel's threads run one at a time, so every scope orders memory as the widest does.
#ifndef CUDA_CPU_COMPAT_CUDA___CPU_THREAD_SCOPE_H_
#define CUDA_CPU_COMPAT_CUDA___CPU_THREAD_SCOPE_H_

namespace cuda {
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };
}  // namespace cuda

#endif  // CUDA_CPU_COMPAT_CUDA___CPU_THREAD_SCOPE_H_

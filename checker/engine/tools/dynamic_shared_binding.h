// extern __shared__ arrays, wherever they are declared: at file scope, in a kernel, in a
// device function inside a namespace (as GEMM libraries keep their shared-memory helpers), in
// a template, in the kernel file or in any header it includes. On a GPU they all name the
// block's dynamic shared memory. On the CPU backend, each such declaration in the preprocessed
// kernel file is bound to the library's dynamic shared storage, so that the name resolves in
// any scope.
#pragma once

#include <string>

// Rewrites `extern thread_local __attribute__((used)) T name[];` (what `extern __shared__ T
// name[];` becomes) at namespace scope into `extern __thread ... T name[] __asm__("<storage>");`,
// where <storage> is the cuda_cpu_dynamic_shared_* array that the generated kernel file defines
// (__thread, because a C++ thread_local declared but not defined here would call an
// initialization wrapper that nothing defines); and inside a function into `T (&name)[] =
// reinterpret_cast<T (&)[]>(::<storage>);` (g++ ignores an assembler label there in a
// template). An alignment the declaration asks for (alignas, __align__) gets a static_assert
// that the storage has it. Then writes, in place of the generated file's
// CUDA_CPU_DYNAMIC_SHARED_DECLARED, the first such array's name and element size (the name that
// dynamic shared memory has in findings), or none. Text without that storage is left as it is.
void bind_dynamic_shared(std::string& text);

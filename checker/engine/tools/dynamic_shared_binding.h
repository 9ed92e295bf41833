// extern __shared__ arrays, wherever they are declared: at file scope, in a kernel, or in a
// device function inside a namespace (as GEMM libraries keep their shared-memory helpers).
// On a GPU they all name the block's dynamic shared memory. On the CPU backend, each such
// declaration in the preprocessed kernel file is bound to the library's dynamic shared
// storage by an assembler label, so that the name resolves in any scope.
#pragma once

#include <string>

// Rewrites `extern thread_local __attribute__((used)) T name[];` (what `extern __shared__ T
// name[];` becomes) into `extern __thread ... T name[] __asm__("<storage>");`, where <storage>
// is the cuda_cpu_dynamic_shared_* array that the generated kernel file defines. __thread,
// because a C++ thread_local declared but not defined here would call an initialization
// wrapper that nothing defines. Text without that storage is left as it is.
void bind_dynamic_shared(std::string& text);

// __shared__ variables with an alignment, in any order. On the CPU backend `__shared__` is
// the storage class `thread_local __attribute__((used))` (cuda_cpu/kernel_shim.h), and C++
// allows an alignas(...) before a declaration's first specifier but not between its
// specifiers: `__shared__ alignas(128) float tile[N];` and `extern __shared__ alignas(1024)
// unsigned char smem[];`, which nvcc accepts, would not compile. (`__align__(n)` is a GNU
// attribute, valid in either place, so it needs nothing.)
#pragma once

#include <cstddef>
#include <string>

// The text `__shared__` becomes in the preprocessed kernel file.
extern const char kSharedExpansion[];

// Where the declaration whose specifiers include the expansion at `at` starts: before the
// specifiers (extern, static, ...), alignas(...) and __attribute__((...)) that precede it.
std::size_t declaration_start(const std::string& text, std::size_t at);

// Moves every alignas(...) that follows the expansion of `__shared__` among a declaration's
// specifiers to the front of that declaration, where it means the same: the variable's
// alignment. Lines keep their numbers.
void move_shared_alignas(std::string& text);

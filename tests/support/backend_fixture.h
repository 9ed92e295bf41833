// Runs a test body once per backend. The GPU variant skips visibly when there is no usable
// GPU: it prints why, and its process exits with 77, which CTest reports as "Skipped".
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "engine/backend.h"
#include "engine/kernel.h"

namespace test_support {

// Counts the test bodies that started and those that skipped (see doctest_main.cpp).
void note_started();
void note_skipped(const std::string& reason);

// True when a CUDA GPU can be used; otherwise notes a skip (with the reason) and returns false.
bool gpu_or_skip();

// The backend, or null after noting a skip.
std::unique_ptr<engine::Backend> backend_or_skip(engine::BackendKind kind);

// A kernel of a CPU_ONLY library (what only the CPU backend checks): it has no GPU image.
template <typename Sig>
engine::Kernel<Sig> cpu_only(const engine::KernelImage& (*image)()) {
  return engine::Kernel<Sig>(image(), engine::absent_image("absent"));
}

}  // namespace test_support

// BACKEND_TEST("what it proves") { ... uses `backend` ... }
#define BACKEND_TEST_CONCAT2(a, b) a##b
#define BACKEND_TEST_CONCAT(a, b) BACKEND_TEST_CONCAT2(a, b)
#define BACKEND_TEST_IMPL(body, name)                                                    \
  static void body(engine::Backend& backend);                                            \
  TEST_CASE("cpu: " name) {                                                              \
    auto b = test_support::backend_or_skip(engine::BackendKind::cpu);                    \
    if (b) body(*b);                                                                     \
  }                                                                                      \
  TEST_CASE("gpu: " name* doctest::test_suite("gpu")) {                                  \
    auto b = test_support::backend_or_skip(engine::BackendKind::gpu);                    \
    if (b) body(*b);                                                                     \
  }                                                                                      \
  static void body([[maybe_unused]] engine::Backend& backend)
#define BACKEND_TEST(name) BACKEND_TEST_IMPL(BACKEND_TEST_CONCAT(backend_test_body_, __LINE__), name)

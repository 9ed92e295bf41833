// The corpus of broken kernels (tests/broken): each must produce its finding, in words
// that name the thread, the buffer and the line. One test per kernel.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "backend_fixture.h"
#include "process.h"

using test_support::run_program;

namespace {

struct Expectation {
  const char* kernel;
  std::vector<std::string> args;
  std::vector<std::string> says;
};

const Expectation corpus[] = {
    {"p01_missing_guard", {"--size=17"},
     {"Out-of-bounds read: thread (4,0) of block (0,0) read b[16] at line 7 of p01_missing_guard.cu, but b has "
      "16 elements (b[0] to b[15]); as a 4 x 4 matrix, index 16 would be (row 4, col 0)",
      "guard with if (row < n && col < n)"}},
    {"p01_unwritten_edge", {"--size=16"},
     {"Unwritten output: 16 of 256 elements of c were never written", "(row 15, col 0)",
      "Does every element of c have a thread that writes it?"}},
    {"p01_endless_loop", {"--size=16", "--timeout=1"},
     {"Time limit: thread (0,0) of block (0,0) was still running after 1.00 s", "An endless loop?",
      "Stopped early", "Result: 0 of 2 cases passed. FAIL"}},
    {"p01_off_by_one", {"--size=16"},
     {"Out-of-bounds read: thread (0,0) of block (0,0) read b[16]", "at line 8 of p01_off_by_one.cu",
      "but b has 16 elements"}},
    {"p02_missing_barrier", {"--size=5"},
     {"Shared-memory race: in block (0,0), a_row[0] was written by thread (0,0) at line 8 of "
      "p02_missing_barrier.cu and read by thread (1,0) at line 11 of p02_missing_barrier.cu, with no "
      "__syncthreads() between the two."}},
    {"p02_global_row", {"--size=100"},
     {"Too many global loads: thread (0,0) of block (0,0) read global memory 200 times; this puzzle allows 101",
      "ceil(n/256)·(n+1)"}},
    {"p02_no_stride", {"--size=300"},
     {"Unwritten output: 13200 of 90000 elements of c were never written", "(row 0, col 256)"}},
    {"p03_barrier_in_if", {"--size=20"},
     {"Barrier divergence in block (1,0): ", "wait at __syncthreads() at line 13 of p03_barrier_in_if.cu",
      "have returned", "The block was stopped."}},
    {"p03_one_tile_wide", {"--size=50"}, {"Wrong values: ", "(row 0, col 16): expected"}},
    {"p03_naive", {"--size=50"},
     {"Too many global loads: thread (0,0) of block (0,0) read global memory 100 times; this puzzle allows 8"}},
    {"p03_too_much_shared", {},
     {"The launch was refused: too much shared data: matmul_row_col_shared declares 65536 bytes of "
      "__shared__ memory; the limit is 49152 bytes (48 KiB) per block."}},
    {"p04_missing_first_barrier", {"--size=16"},
     {"Shared-memory race: in block (0,0), a_tile[0][0] was written by thread (0,0) at line 14 of "
      "p04_missing_first_barrier.cu and read by thread (1,0) at line 16",
      "a __syncthreads() between writing shared memory and reading what other threads wrote"}},
    {"p04_missing_second_barrier", {"--size=17"},
     {"Shared-memory race: in block (0,0), a_tile[0][0] was read by thread (15,0) at line 17 of "
      "p04_missing_second_barrier.cu and written by thread (0,0) at line 14",
      "in a loop, another between the last read and the next overwrite"}},
    {"p04_no_padding", {"--size=17"},
     {"Out-of-bounds read: thread (12,1) of block (0,0) read a[16] at line 12 of p04_no_padding.cu",
      "load 0 for those elements"}},
    {"p04_early_return", {"--size=17"},
     {"Barrier divergence in block (1,0): 16 threads ((0,0), (0,1), (0,2)", "have returned",
      "do not return early"}},
    {"p04_naive", {"--size=33"},
     {"Too many global loads: thread (0,0) of block (0,0) read global memory 66 times; this puzzle allows 6"}},
    {"p05_missing_guard", {},
     {"Out-of-bounds read: thread (2,1) of block (0,0) read a[4] at line 9 of p05_missing_guard.cu, but a has 4 "
      "elements (a[0] to a[3]); as a 2 x 2 matrix, index 4 would be (row 2, col 0)",
      "guard with if (row < size && col < size)"}},
    {"p05_barrier_in_if", {},
     {"Barrier divergence in block (0,0): 4 threads ((0,0), (1,0), (0,1), (1,1)) wait at __syncthreads() at line "
      "12 of p05_barrier_in_if.cu, while 5 threads ((2,0), (2,1), (0,2), (1,2), (2,2)) have returned."}},
    {"p05_missing_barrier", {},
     {"Shared-memory race: in block (0,0), a_shared[0][0] was written by thread (0,0) at line 10 of "
      "p05_missing_barrier.cu and read by thread (1,0) at line 13"}},
    {"p05_divide_by_zero", {}, {"Crash in thread (0,0) of block (0,0)", "an integer division by zero"}},
    {"p05_bad_pointer", {},
     {"Crash in thread (0,0) of block (0,0) at line 18 of p05_bad_pointer.cu: segmentation fault",
      "(address 0x10)"}},
};

// Exact out-of-bounds reads, races and load budgets need kernels instrumented by clang.
bool needs_instrumentation(const std::string& kernel) {
  for (const char* k : {"p01_missing_guard", "p01_off_by_one", "p02_missing_barrier", "p02_global_row",
                        "p03_naive", "p04_missing_first_barrier", "p04_missing_second_barrier", "p04_no_padding",
                        "p04_naive", "p05_missing_guard", "p05_missing_barrier"})
    if (kernel == k) return true;
  return false;
}

void check_corpus_entry(const Expectation& e) {
  if (!PUZZLES_INSTRUMENTED && needs_instrumentation(e.kernel)) {
    MESSAGE("not checked in this build (kernels not instrumented: configure with clang++): " << e.kernel);
    return;
  }
  std::vector<std::string> args = e.args;
  args.push_back("--backend=cpu");
  auto r = run_program(std::string(TEST_BIN_DIR) + "/broken_" + e.kernel, args);
  INFO(r.output);
  CHECK(r.exit_status == 1);
  for (const std::string& s : e.says) {
    CAPTURE(s);
    CHECK(r.output.find(s) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("cpu: every broken kernel in the corpus produces its finding") {
  test_support::note_started();
  for (const Expectation& e : corpus) {
    std::string kernel = e.kernel;
    CAPTURE(kernel);
    check_corpus_entry(e);
  }
}

TEST_CASE("cpu: the corpus has at least three broken kernels per puzzle") {
  test_support::note_started();
  for (const char* prefix : {"p01_", "p02_", "p03_", "p04_", "p05_"}) {
    int count = 0;
    for (const Expectation& e : corpus) count += std::string(e.kernel).rfind(prefix, 0) == 0;
    CHECK(count >= 3);
  }
}

TEST_CASE("gpu: canaries catch an out-of-bounds write without any tool" * doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto r = run_program(std::string(TEST_BIN_DIR) + "/broken_p05_missing_guard", {"--backend=gpu"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("Out-of-bounds write: a thread (the GPU cannot say which) wrote out[") != std::string::npos);
  CHECK(r.output.find("run with --backend=cpu, or with --sanitize") != std::string::npos);
}

TEST_CASE("gpu: a fault on the GPU is one clear sentence, and the summary still prints" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto r = run_program(std::string(TEST_BIN_DIR) + "/broken_p05_bad_pointer", {"--backend=gpu"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("Crash: the kernel crashed on the GPU: an illegal memory access was encountered") !=
        std::string::npos);
  CHECK(r.output.find("Run with --sanitize (compute-sanitizer) or --backend=cpu") != std::string::npos);
  CHECK(r.output.find("Result: 0 of") != std::string::npos);
}

TEST_CASE("gpu: --sanitize summarises compute-sanitizer's findings" * doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto oob = run_program(std::string(TEST_BIN_DIR) + "/broken_p05_missing_guard", {"--sanitize"});
  INFO(oob.output);
  CHECK(oob.exit_status == 1);
  CHECK(oob.output.find("memcheck (out-of-bounds and misaligned accesses): ") != std::string::npos);
  CHECK(oob.output.find("Invalid __global__ read") != std::string::npos);
  auto race = run_program(std::string(TEST_BIN_DIR) + "/broken_p04_missing_first_barrier", {"--sanitize"});
  INFO(race.output);
  CHECK(race.exit_status == 1);
  CHECK(race.output.find("racecheck (shared-memory races): ") != std::string::npos);
  CHECK(race.output.find("racecheck (shared-memory races): no errors") == std::string::npos);
  auto clean = run_program(std::string(TEST_BIN_DIR) + "/p05_single_block_aat_solution", {"--sanitize"});
  INFO(clean.output);
  CHECK(clean.exit_status == 0);
  CHECK(clean.output.find("memcheck (out-of-bounds and misaligned accesses): no errors") != std::string::npos);
}

TEST_CASE("gpu: an endless loop is stopped by the time limit, and the summary still prints" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  // `timeout` guards the test itself: the checker must end on its own, well before.
  auto r = run_program("timeout", {"60", std::string(TEST_BIN_DIR) + "/broken_p01_endless_loop", "--backend=gpu",
                                   "--size=16", "--timeout=2"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("Time limit: the kernel did not finish within 2.00 s") != std::string::npos);
  CHECK(r.output.find("Result: 0 of 2 cases passed. FAIL") != std::string::npos);
}

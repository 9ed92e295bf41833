// The checkers as students and instructors use them: run the built executables and read
// what they print and how they exit.
#include <doctest/doctest.h>

#include <string>

#include "backend_fixture.h"
#include "checker/puzzle.h"
#include "process.h"

using test_support::run_program;

namespace {

std::string bin(const std::string& name) { return std::string(TEST_BIN_DIR) + "/" + name; }

void check_solution_passes(const checker::PuzzleSpec& p, const std::vector<std::string>& args) {
  auto r = run_program(bin(p.id + "_solution"), args);
  INFO(r.output);
  CHECK(r.exit_status == 0);
  CHECK(r.output.find("PASS") != std::string::npos);
  for (const char* finding : {"Out-of-bounds read:", "Out-of-bounds write:", "Shared-memory race:",
                              "Barrier divergence", "Too many global loads:", "Crash", "Time limit:",
                              "Result depends on thread order", "Unwritten output:", "Wrong values:"})
    CHECK(r.output.find(finding) == std::string::npos);
}

void check_stub_fails_cleanly(const checker::PuzzleSpec& p, const std::string& backend) {
  auto r = run_program(bin(p.id + "_stub"), {"--backend=" + backend});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  // The worked example's buffers: as lists when they are small, else c as a table (a puzzle
  // whose sizes must be multiples of 8 has no worked example small enough for lists).
  const bool as_lists = r.output.find("expected: [") != std::string::npos &&
                        r.output.find("  " + p.output_name + ":") != std::string::npos;
  CHECK((as_lists || r.output.find("(expected above " + p.output_name) != std::string::npos));
  CHECK(r.output.find("Unwritten output") != std::string::npos);
  CHECK(r.output.find("Result: 0 of") != std::string::npos);
  CHECK(r.output.find("Crash") == std::string::npos);
}

}  // namespace

TEST_CASE("cpu: every reference solution passes its checker in every thread order, with no finding") {
  test_support::note_started();
  for (const checker::PuzzleSpec& p : checker::puzzle_table()) {
    CAPTURE(p.id);
    check_solution_passes(p, {"--backend=cpu", "--all-orders"});
  }
}

TEST_CASE("gpu: every reference solution passes its checker" * doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  for (const checker::PuzzleSpec& p : checker::puzzle_table()) {
    CAPTURE(p.id);
    check_solution_passes(p, {"--backend=gpu"});
  }
}

TEST_CASE("cpu: every stub compiles, runs and fails its checker cleanly, printing both buffers") {
  test_support::note_started();
  for (const checker::PuzzleSpec& p : checker::puzzle_table()) {
    CAPTURE(p.id);
    check_stub_fails_cleanly(p, "cpu");
  }
}

TEST_CASE("gpu: every stub fails its checker cleanly" * doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  for (const checker::PuzzleSpec& p : checker::puzzle_table()) {
    CAPTURE(p.id);
    check_stub_fails_cleanly(p, "gpu");
  }
}

TEST_CASE("cpu: the p05 worked example prints the expected A·Aᵀ") {
  test_support::note_started();
  auto r = run_program(bin("p05_single_block_aat_stub"), {"--backend=cpu"});
  CHECK(r.output.find("  a:        [0.0, 1.0, 2.0, 3.0]\n") != std::string::npos);
  CHECK(r.output.find("  out:      [nan, nan, nan, nan]\n") != std::string::npos);
  CHECK(r.output.find("  expected: [1.0, 3.0, 3.0, 13.0]\n") != std::string::npos);
}

TEST_CASE("cpu: the seed is printed, changes the random cases, and repeats them exactly") {
  test_support::note_started();
  auto first = run_program(bin("p05_single_block_aat_stub"), {"--backend=cpu", "--seed=7"});
  auto again = run_program(bin("p05_single_block_aat_stub"), {"--backend=cpu", "--seed=7"});
  auto other = run_program(bin("p05_single_block_aat_stub"), {"--backend=cpu", "--seed=8"});
  CHECK(first.output.find("from seed 7 ") != std::string::npos);
  CHECK(first.output == again.output);
  CHECK(first.output != other.output);
}

TEST_CASE("cpu: bad flags and impossible sizes exit with status 2 and say why") {
  test_support::note_started();
  auto r = run_program(bin("p01_naive_solution"), {"--bogus"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("unknown option '--bogus'") != std::string::npos);
  CHECK(r.output.find("--help") != std::string::npos);
  r = run_program(bin("p01_naive_solution"), {"--backend=tpu"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("unknown backend 'tpu': use gpu, cpu or auto") != std::string::npos);
  r = run_program(bin("p01_naive_solution"), {"--size=zero"});
  CHECK(r.exit_status == 2);
  r = run_program(bin("p03_row_col_shared_solution"), {"--size=300"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("larger than this puzzle allows (n <= 256)") != std::string::npos);
  r = run_program(bin("p01_naive_solution"), {"--help"});
  CHECK(r.exit_status == 0);
  for (const char* flag : {"--backend", "--seed", "--size", "--timeout", "--sanitize", "--all-orders", "--bench",
                           "--bench-csv=FILE"})
    CHECK(r.output.find(flag) != std::string::npos);
}

TEST_CASE("cpu: without a GPU, --backend=gpu is an environment error and auto falls back, saying why") {
  test_support::note_started();
  std::string why = engine::gpu_unavailable_reason();
  if (why.empty()) {
    test_support::note_skipped("this machine has a GPU: the fallback cannot be seen here");
    return;
  }
  auto r = run_program(bin("p05_single_block_aat_solution"), {"--backend=gpu"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("the GPU backend cannot be used: " + why) != std::string::npos);
  r = run_program(bin("p05_single_block_aat_solution"), {});
  CHECK(r.exit_status == 0);
  CHECK(r.output.find("Backend: cpu") != std::string::npos);
  CHECK(r.output.find("auto: " + why + ", so the CPU backend runs the kernel") != std::string::npos);
  r = run_program(bin("p05_single_block_aat_solution"), {"--sanitize"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("--sanitize needs the GPU backend") != std::string::npos);
}

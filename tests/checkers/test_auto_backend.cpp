// --backend=auto with a GPU: every case on the GPU, the small ones again under the CPU
// backend's checks, so that a student with a GPU is told as much as one without. These need
// a GPU and skip, saying why, without one.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "broken_corpus.h"
#include "checker/puzzle.h"
#include "process.h"

using test_support::run_program;

namespace {

std::string bin(const std::string& name) { return std::string(TEST_BIN_DIR) + "/" + name; }

std::size_t count(const std::string& text, const std::string& s) {
  std::size_t n = 0;
  for (auto at = text.find(s); at != std::string::npos; at = text.find(s, at + 1)) ++n;
  return n;
}

// A corpus file is built into the checker of the puzzle whose id starts as its name does.
bool has_spec(const std::string& name) {
  for (const checker::PuzzleSpec& p : checker::puzzle_table())
    if (name.compare(0, 4, p.id, 0, 4) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("gpu: under auto, every broken kernel gives the finding it gives on the CPU backend" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  for (const test_support::CorpusEntry& e : test_support::read_corpus(std::string(BROKEN_DIR) + "/")) {
    CAPTURE(e.name);
    if (!has_spec(e.name)) continue;  // no checker without a spec: the CPU corpus test reports it
    std::vector<std::string> on_cpu_args = e.args;
    on_cpu_args.push_back("--backend=cpu");
    auto cpu = run_program(bin("broken_" + e.name), on_cpu_args);
    auto r = run_program(bin("broken_" + e.name), e.args);  // no --backend: auto
    INFO(r.output);
    if (!e.cpu_only) CHECK(r.output.find("Backend: gpu (") != std::string::npos);
    // What the CPU backend finds, auto finds too. (Whether the CPU backend finds what the
    // corpus expects is the CPU corpus test's question.)
    if (cpu.exit_status == 1) CHECK(r.exit_status == 1);
    for (const std::string& s : e.says) {
      CAPTURE(s);
      if (cpu.output.find(s) != std::string::npos) CHECK(r.output.find(s) != std::string::npos);
    }
    // Where the CPU backend sees a mistake, auto must never say that it saw none.
    if (cpu.exit_status == 1) CHECK(r.output.find("found nothing wrong") == std::string::npos);
  }
}

TEST_CASE("gpu: under auto, every reference solution passes on the GPU and under the CPU backend's checks" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  for (const checker::PuzzleSpec& p : checker::puzzle_table()) {
    CAPTURE(p.id);
    auto r = run_program(bin(p.id + "_solution"), {});
    INFO(r.output);
    CHECK(r.exit_status == 0);
    CHECK(r.output.find("), then cpu (") != std::string::npos);
    CHECK(r.output.find("(GPU and CPU)") != std::string::npos);
    CHECK(r.output.find("Result: ") != std::string::npos);
    CHECK(r.output.find("FAIL") == std::string::npos);
  }
}

TEST_CASE("gpu: a whole auto run of puzzle 4 takes less than 5 seconds" * doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto start = std::chrono::steady_clock::now();
  auto r = run_program(bin("p04_tiled_solution"), {});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(r.output);
  MESSAGE("p04_tiled, --backend=auto: " << seconds << " s");
  CHECK(r.exit_status == 0);
  CHECK(seconds < 5.0);
}

TEST_CASE("gpu: a stub under auto shows the GPU's buffers once, not the CPU backend's again" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto r = run_program(bin("p04_tiled_stub"), {});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(count(r.output, "  expected: [40.0, 34.0") == 1);
  CHECK(count(r.output, "Unwritten output: 16 of 16 elements") == 1);
}

TEST_CASE("gpu: --backend=gpu says once which checks it cannot make, and how to get them" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto r = run_program(bin("broken_p04_missing_first_barrier"), {"--backend=gpu", "--size=16"});
  INFO(r.output);
  CHECK(count(r.output, "Not checked on the GPU alone: out-of-bounds reads, the thread and line of a mistake") == 1);
  CHECK(r.output.find("--backend=auto (the default) adds them from the CPU backend") != std::string::npos);
  CHECK(r.output.find("Shared-memory race") == std::string::npos);
  CHECK(r.output.find("then cpu") == std::string::npos);
}

TEST_CASE("gpu: --bench times the kernel and cuBLAS at the spec's sizes and appends CSV rows" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  std::string csv = std::string(TEST_BIN_DIR) + "/bench-test.csv";
  std::remove(csv.c_str());
  auto r = run_program(bin("p04_tiled_solution"), {"--backend=gpu", "--bench", "--bench-csv=" + csv});
  INFO(r.output);
  CHECK(r.exit_status == 0);
  CHECK(r.output.find("Speed on ") != std::string::npos);
  CHECK(r.output.find("m x n x k") != std::string::npos);
  CHECK(r.output.find("4096 x 4096 x 4096  matmul_tiled") != std::string::npos);
  CHECK(r.output.find("cuBLAS SGEMM") != std::string::npos);
  CHECK(r.output.find("L2 cache holds none of them when it starts") != std::string::npos);
  auto lines = run_program("wc", {"-l", csv});
  CHECK(lines.output.rfind("5 ", 0) == 0);  // a header, then a kernel row and a cuBLAS row per size
}

TEST_CASE("gpu: --bench times nothing for a kernel that fails a case" * doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto r = run_program(bin("p04_tiled_stub"), {"--backend=gpu", "--bench"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("Not timed: --bench times a kernel only once it passes every case.") != std::string::npos);
  CHECK(r.output.find("Speed on ") == std::string::npos);
}

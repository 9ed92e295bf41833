// The speed harness where there is no GPU: --bench's CPU-side measures and its options, the
// table's layout, and checker/run bench's plot, which is drawn from a CSV without a GPU.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "backend_fixture.h"
#include "checker/bench_table.h"
#include "checker/puzzle.h"
#include "process.h"
#include "source_files.h"

using test_support::run_program;

namespace {

std::string bin(const std::string& name) { return std::string(TEST_BIN_DIR) + "/" + name; }
const std::string kRun = std::string(SOURCE_DIR) + "/checker/run";

// A folder of its own under the test binaries, emptied first.
std::string scratch(const std::string& name) {
  std::string dir = std::string(TEST_BIN_DIR) + "/" + name;
  run_program("rm", {"-rf", dir});
  run_program("mkdir", {"-p", dir});
  return dir;
}

const char* kCsv =
    "puzzle,implementation,cublas,m,n,k,milliseconds,tflops,percent_of_baseline,baseline,device,launches\n"
    "p01_naive,matmul_naive,0,1024,1024,1024,0.9000,2.386,12.00,cuBLAS SGEMM,\"Test GPU (sm_90, 132 SMs)\",25\n"
    "p01_naive,cuBLAS SGEMM,1,1024,1024,1024,0.0800,26.844,100.00,cuBLAS SGEMM,\"Test GPU (sm_90, 132 SMs)\",25\n"
    "p04_tiled,matmul_tiled,0,4096,4096,4096,16.8000,8.181,15.89,cuBLAS SGEMM,\"Test GPU (sm_90, 132 SMs)\",25\n"
    "p04_tiled,cuBLAS SGEMM,1,4096,4096,4096,2.6700,51.476,100.00,cuBLAS SGEMM,\"Test GPU (sm_90, 132 SMs)\",25\n";

}  // namespace

TEST_CASE("cpu: --bench without a GPU says it needs one, and prints the CPU backend's loads per multiply-add") {
  test_support::note_started();
  auto r = run_program(bin("p01_naive_solution"), {"--backend=cpu", "--bench"});
  INFO(r.output);
  CHECK(r.exit_status == 0);  // the verdict of the cases: nothing was timed, nothing failed
  CHECK(r.output.find("Not timed: --bench needs the GPU backend, and --backend=cpu asks for the CPU backend.") !=
        std::string::npos);
  CHECK(r.output.find("at n = 256, the largest case that passed:") != std::string::npos);
  if (PUZZLES_INSTRUMENTED) {
    // The naive kernel reads one element of a and one of b for every multiply-add.
    CHECK(r.output.find("global loads per multiply-add:  2.000\n") != std::string::npos);
    auto tiled = run_program(bin("p04_tiled_solution"), {"--backend=cpu", "--bench", "--size=64"});
    INFO(tiled.output);
    CHECK(tiled.output.find("global loads per multiply-add:  0.125\n") != std::string::npos);  // 2 / 16
    // The engine's memory profile, in Nsight Compute's terms.
    CHECK(r.output.find("shared-memory bank conflicts:   none: the kernel does not use shared memory") !=
          std::string::npos);
    CHECK(r.output.find("global sectors per request:     ") != std::string::npos);
    CHECK(r.output.find(" on average for global loads (the fewest their bytes need: ") != std::string::npos);
    CHECK(tiled.output.find("shared-memory bank conflicts:   none: every shared-memory request takes the fewest "
                            "wavefronts it can") != std::string::npos);
  }
  CHECK(r.output.find("TFLOP/s") == std::string::npos);
}

TEST_CASE("cpu: --bench on a failing kernel measures only the cases that passed") {
  test_support::note_started();
  auto r = run_program(bin("p04_tiled_stub"), {"--backend=cpu", "--bench"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("no case passed, so there is nothing to measure yet.") != std::string::npos);
}

TEST_CASE("cpu: --bench's options are checked: a missing file name, and --bench with --sanitize") {
  test_support::note_started();
  auto r = run_program(bin("p01_naive_solution"), {"--bench-csv"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("--bench-csv wants a file name: --bench-csv=results.csv") != std::string::npos);
  r = run_program(bin("p01_naive_solution"), {"--bench-csv="});
  CHECK(r.exit_status == 2);
  r = run_program(bin("p01_naive_solution"), {"--bench", "--sanitize"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("--bench and --sanitize cannot be combined") != std::string::npos);
  r = run_program(bin("p01_naive_solution"), {"--bench=yes"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("unknown option '--bench=yes'") != std::string::npos);
}

TEST_CASE("the --bench table: a shape on its first row only, TFLOP/s from the time, % of the baseline") {
  test_support::note_started();
  checker::Dims big{4096, 4096, 4096};
  std::vector<checker::BenchRow> rows{{big, "matmul_tiled", false, 16.863, 15.85},
                                      {big, "cuBLAS SGEMM", true, 2.0, 100.0}};
  CHECK(rows[0].tflops() == doctest::Approx(2.0 * 4096.0 * 4096.0 * 4096.0 / 16.863e9));
  std::vector<std::string> table = checker::bench_table(rows, "cuBLAS SGEMM");
  REQUIRE(table.size() == 3);
  CHECK(table[0] == "m x n x k           kernel               ms   TFLOP/s % of cuBLAS SGEMM");
  CHECK(table[1] == "4096 x 4096 x 4096  matmul_tiled     16.863      8.15              15.8");
  CHECK(table[2] == "                    cuBLAS SGEMM      2.000     68.72             100.0");
  const checker::PuzzleSpec& spec = checker::find_puzzle("p04_tiled");
  CHECK(checker::bench_csv_line(spec, rows[1], "cuBLAS SGEMM", "GPU (sm_90, 132 SMs)", 25) ==
        "p04_tiled,cuBLAS SGEMM,1,4096,4096,4096,2.0000,68.719,100.00,cuBLAS SGEMM,\"GPU (sm_90, 132 SMs)\",25");
  CHECK(checker::bench_csv_header().rfind("puzzle,implementation,cublas,m,n,k,", 0) == 0);
}

namespace {

// A run folder as checker/run bench writes it (docs/dev/figures.md), with this bench.csv.
std::string run_folder(const std::string& parent, const std::string& csv) {
  std::string dir = parent + "/2026-01-01-test";
  run_program("mkdir", {"-p", dir});
  std::ofstream(dir + "/run.json") << "{\"date\": \"2026-01-01\", \"machine\": \"Test GPU\", \"driver\": \"1\", "
                                      "\"cuda\": \"13.0\", \"command\": \"a test\", \"notes\": \"none\"}\n";
  std::ofstream(dir + "/bench.csv") << csv;
  return dir;
}

}  // namespace

TEST_CASE("checker/run bench --plot-only draws a run's CSV into an SVG, one panel per baseline, the same each time") {
  test_support::note_started();
  std::string dir = run_folder(scratch("bench-plot"), kCsv);
  auto r = run_program(kRun, {"bench", "--plot-only", "--run", dir, "--out", dir + "/speed.svg"});
  INFO(r.output);
  CHECK(r.exit_status == 0);
  std::string svg = test_support::read_file(dir + "/speed.svg");
  for (const char* label : {"p01", "p04", "cuBLAS SGEMM", "TFLOP/s"}) {
    CAPTURE(label);
    CHECK(svg.find(label) != std::string::npos);
  }
  // Drawn twice from the same CSV, the SVG is the same file: the docs keep no noise.
  auto again = run_program(kRun, {"bench", "--plot-only", "--run", dir, "--out", dir + "/again.svg"});
  CHECK(again.exit_status == 0);
  CHECK(test_support::read_file(dir + "/again.svg") == svg);
}

TEST_CASE("checker/run bench --plot-only refuses, with status 2, a run whose bench.csv is not what --bench-csv writes") {
  test_support::note_started();
  std::string dir = run_folder(scratch("bench-plot-bad"), "name,value\nx,1\n");
  auto r = run_program(kRun, {"bench", "--plot-only", "--run", dir, "--out", dir + "/speed.svg"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("the header must be exactly what --bench-csv writes") != std::string::npos);
  std::string mixed = std::string(kCsv) + "p02,k,0,8,8,8,1.0000,1.000,1.00,cuBLAS SGEMM,Other GPU,25\n";
  dir = run_folder(scratch("bench-plot-mixed"), mixed);
  r = run_program(kRun, {"bench", "--plot-only", "--run", dir, "--out", dir + "/speed.svg"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("mixes machines") != std::string::npos);
  r = run_program(kRun, {"bench", "--plot-only", "--run", scratch("bench-plot-none") + "/2026-01-01-none"});
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("missing") != std::string::npos);
}

TEST_CASE("cpu: checker/run bench without a GPU says so and exits with status 2") {
  test_support::note_started();
  auto listed = run_program("sh", {"-c", "nvidia-smi -L 2>/dev/null | grep -c '^GPU '"});
  if (listed.output.find_first_not_of("0\n") != std::string::npos) {
    test_support::note_skipped("nvidia-smi lists a GPU here: checker/run bench would run");
    return;
  }
  auto r = run_program(kRun, {"bench"});
  INFO(r.output);
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("checker/run bench times kernels on an NVIDIA GPU, and this machine has none") !=
        std::string::npos);
  CHECK(r.output.find("checker/run bench --plot-only") != std::string::npos);
}

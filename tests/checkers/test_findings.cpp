// The corpus of broken kernels (tests/broken, see its README): each must produce its
// finding, in words that name the thread, the buffer and the line. Each run also leaves its
// --json report in CORPUS_REPORTS_DIR for grading's summary test (tests/instructor).
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "backend_fixture.h"
#include "broken_corpus.h"
#include "checker/explain.h"
#include "checker/puzzle.h"
#include "process.h"
#include "source_files.h"

using test_support::run_program;

namespace {

using test_support::CorpusEntry;

std::vector<CorpusEntry> corpus() { return test_support::read_corpus(std::string(BROKEN_DIR) + "/"); }

using Place = std::pair<std::string, int>;  // a file's name and a line

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// Every line the explanations name ("at line 21 of p02_missing_barrier.cu (called from line 30)").
std::set<Place> lines_named(const std::string& output) {
  static const std::regex mention(
      R"((?:at|near) line (\d+) of ([\w.]+)( \(called from line \d+(?:, from line \d+)*\))?)");
  static const std::regex number(R"(line (\d+))");
  std::set<Place> named;
  for (std::sregex_iterator m(output.begin(), output.end(), mention), end; m != end; ++m) {
    std::string file = (*m)[2];
    if (!file.empty() && file.back() == '.') file.pop_back();  // the sentence's full stop
    named.insert({file, std::stoi((*m)[1])});
    std::string calls = (*m)[3];
    for (std::sregex_iterator n(calls.begin(), calls.end(), number); n != end; ++n)
      named.insert({file, std::stoi((*n)[1])});
  }
  return named;
}

// The lines that the diagnostic lines mark, as VS Code's $gcc problem matcher reads them (and
// the notes, which it leaves to the reader).
std::set<Place> lines_marked(const std::string& output) {
  static const std::regex diagnostic(R"(^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error|note):\s+(.*)$)");
  std::set<Place> marked;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, diagnostic)) marked.insert({base_name(m[1]), std::stoi(m[2])});
  }
  return marked;
}

void check_corpus_entry(const CorpusEntry& e) {
  REQUIRE_MESSAGE(!e.says.empty(), e.name << ".cu has no '// Expect:' line");
  if (!PUZZLES_INSTRUMENTED && e.needs_instrumentation) {
    MESSAGE("not checked in this build (kernels not instrumented: configure with clang++): " << e.name);
    return;
  }
  std::vector<std::string> args = e.args;
  args.push_back("--backend=cpu");
  args.push_back("--json=" + std::string(CORPUS_REPORTS_DIR) + "/" + e.name + ".json");
  auto r = run_program(std::string(TEST_BIN_DIR) + "/broken_" + e.name, args);
  INFO(r.output);
  CHECK(r.exit_status == 1);
  for (const std::string& s : e.says) {
    CAPTURE(s);
    CHECK(r.output.find(s) != std::string::npos);
  }
  // Every line a finding names is also on a diagnostic line, for editors and CI.
  std::set<Place> marked = lines_marked(r.output);
  for (const Place& place : lines_named(r.output)) {
    CAPTURE(place.first);
    CAPTURE(place.second);
    CHECK(marked.count(place) == 1);
  }
}

}  // namespace

TEST_CASE("cpu: every broken kernel in the corpus produces its finding") {
  test_support::note_started();
  if (test_support::skip_in_handout()) return;
  // Reports from an earlier run must not stand in for this one's.
  std::filesystem::remove_all(CORPUS_REPORTS_DIR);
  std::filesystem::create_directories(CORPUS_REPORTS_DIR);
  for (const CorpusEntry& e : corpus()) {
    CAPTURE(e.name);
    check_corpus_entry(e);
  }
}

TEST_CASE("every puzzle has at least three broken kernels in the corpus") {
  test_support::note_started();
  if (test_support::skip_in_handout()) return;
  std::vector<CorpusEntry> entries = corpus();
  for (const checker::PuzzleSpec& p : checker::puzzle_table()) {
    CAPTURE(p.id);
    int count = 0;
    for (const CorpusEntry& e : entries) count += e.name.compare(0, 4, p.id.substr(0, 4)) == 0;
    CHECK(count >= 3);
  }
}

TEST_CASE("gpu: canaries catch an out-of-bounds write without any tool" * doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip() || test_support::skip_in_handout()) return;
  auto r = run_program(std::string(TEST_BIN_DIR) + "/broken_p05_missing_guard", {"--backend=gpu"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("Out-of-bounds write: a thread (the GPU cannot say which) wrote out[") != std::string::npos);
  CHECK(r.output.find("run with --backend=cpu, or with --sanitize") != std::string::npos);
}

TEST_CASE("gpu: a fault on the GPU is one clear sentence, and the summary still prints" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip() || test_support::skip_in_handout()) return;
  auto r = run_program(std::string(TEST_BIN_DIR) + "/broken_p05_bad_pointer", {"--backend=gpu"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("Crash: the kernel crashed on the GPU: an illegal memory access was encountered") !=
        std::string::npos);
  CHECK(r.output.find("Run with --sanitize (compute-sanitizer) or --backend=cpu") != std::string::npos);
  CHECK(r.output.find("Result: 0 of") != std::string::npos);
}

TEST_CASE("gpu: --sanitize summarises compute-sanitizer's findings" * doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip() || test_support::skip_in_handout()) return;
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
  if (!test_support::gpu_or_skip() || test_support::skip_in_handout()) return;
  // `timeout` guards the test itself: the checker must end on its own, well before.
  auto r = run_program("timeout", {"60", std::string(TEST_BIN_DIR) + "/broken_p01_endless_loop", "--backend=gpu",
                                   "--size=16", "--timeout=2"});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("Time limit: the kernel did not finish within 2.00 s") != std::string::npos);
  CHECK(r.output.find("Result: 0 of 2 cases passed. FAIL") != std::string::npos);
}

TEST_CASE("a refused cluster launch is said with the shapes and the limit it broke") {
  test_support::note_started();
  using Why = engine::LaunchRejection::Why;
  engine::LaunchRejection r;
  r.kernel = "matmul_warp_specialized";
  r.why = Why::grid_not_whole_clusters;
  r.shape = engine::Dim3(3, 2);
  r.cluster = engine::Dim3(2, 1);
  CHECK(checker::refusal_words(r) ==
        "invalid cluster configuration: the grid (3,2,1) is not a whole number of clusters (2,1,1): each dimension "
        "of the grid must be a multiple of the cluster's");
  r = {};
  r.why = Why::cluster_too_large;
  r.shape = engine::Dim3(4, 4);
  r.requested = 16;
  r.limit = 8;
  CHECK(checker::refusal_words(r) ==
        "invalid cluster configuration: the cluster (4,4,1) has 16 blocks; the limit is 8 blocks per cluster");
  r = {};
  r.why = Why::empty_cluster;
  r.shape = engine::Dim3(0, 1);
  CHECK(checker::refusal_words(r) ==
        "invalid cluster configuration: the cluster (0,1,1) is empty; every dimension must be at least 1");
}

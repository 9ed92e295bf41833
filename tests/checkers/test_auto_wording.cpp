// Under auto with a GPU, the CPU backend's run of a case can get values wrong that the GPU got
// right (a race the GPU's timing hid). Those values are said as that run's, so that they do
// not contradict the GPU's buffers printed above them.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "checker/explain.h"
#include "checker/matrices.h"
#include "checker/puzzle.h"
#include "process.h"

using test_support::run_program;

namespace {

const checker::Style kPlain(false);

// A 2 x 2 output whose marks are given, e.g. "X.?." (X wrong, ? never written).
checker::Comparison comparison_of(const std::string& marks) {
  checker::Comparison c;
  c.dims = checker::Dims{2, 2, 2};
  c.marks.assign(marks.begin(), marks.end());
  for (std::size_t i = 0; i < marks.size(); ++i) {
    if (marks[i] == 'X') c.first_wrong.push_back(i), ++c.wrong;
    if (marks[i] == '?') c.first_unwritten.push_back(i), ++c.unwritten;
  }
  return c;
}

std::string bin(const std::string& name) { return std::string(TEST_BIN_DIR) + "/" + name; }

// The output of one case: from its "[i/N]" line to the next.
std::vector<std::string> case_blocks(const std::string& output) {
  std::vector<std::string> blocks;
  for (std::size_t at = output.find("\n["); at != std::string::npos;) {
    std::size_t next = output.find("\n[", at + 1);
    blocks.push_back(output.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1));
    at = next;
  }
  return blocks;
}

// The list printed after `label` in a case block ("  c:        [1.0, 2.0]"), or "".
std::string printed_list(const std::string& block, const std::string& label) {
  std::size_t at = block.find("\n  " + label);
  if (at == std::string::npos) return "";
  std::size_t open = block.find('[', at), close = block.find(']', at);
  return open == std::string::npos || close == std::string::npos ? "" : block.substr(open, close - open + 1);
}

}  // namespace

TEST_CASE("the CPU backend's wrong values beside the GPU's right ones are said as that run's, with an example") {
  const checker::PuzzleSpec& spec = checker::find_puzzle("p05_single_block_aat");
  checker::Reference ref;
  ref.value = {1.0, 3.0, 3.0, 13.0};
  std::vector<float> out = {std::nanf(""), 3.0f, 3.0f, 13.0f};
  std::string s = checker::explain_cpu_run_values(comparison_of("X..."), ref, out, spec, kPlain, true);
  CHECK(s == "In the CPU backend's run of this case, 1 of 4 elements of out came out wrong (e.g. (row 0, col 0): "
             "expected 1.0, got nan). The GPU's values were right this time: with the mistake above, that is luck, "
             "and another run or another GPU can get them wrong.");
}

TEST_CASE("the CPU backend's unwritten elements are counted too, and without a finding the sentence says what differs") {
  const checker::PuzzleSpec& spec = checker::find_puzzle("p05_single_block_aat");
  checker::Reference ref;
  ref.value = {1.0, 3.0, 3.0, 13.0};
  std::vector<float> out = {2.0f, 3.0f, checker::unwritten_marker(), 13.0f};
  std::string s = checker::explain_cpu_run_values(comparison_of("X.?."), ref, out, spec, kPlain, false);
  CHECK(s.find("1 of 4 elements of out came out wrong (e.g. (row 0, col 0): expected 1.0, got 2.0), and 1 of 4 "
               "elements of out were never written.") != std::string::npos);
  CHECK(s.find("such as the order of the threads or memory read before it is written. Run with --sanitize") !=
        std::string::npos);
  CHECK(s.find("mistake above") == std::string::npos);
}

TEST_CASE("gpu: under auto, a case whose GPU values are right never prints the CPU run's values as wrong values" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  std::size_t right_on_gpu = 0, said_as_cpu_run = 0;
  for (const char* name : {"broken_p03_barrier_in_if", "broken_p04_missing_first_barrier", "broken_p05_missing_barrier"}) {
    CAPTURE(name);
    auto r = run_program(bin(name), {});
    INFO(r.output);
    CHECK(r.exit_status == 1);
    for (const std::string& block : case_blocks(r.output)) {
      std::string expected = printed_list(block, "expected:");
      if (expected.empty()) continue;  // a large case: no buffers printed
      std::string got = block.substr(0, block.find("\n  expected:"));
      bool gpu_right = got.find(expected) != std::string::npos;
      if (!gpu_right) continue;
      CAPTURE(block);
      ++right_on_gpu;
      CHECK(block.find("Wrong values:") == std::string::npos);
      CHECK(block.find("Unwritten output:") == std::string::npos);
      said_as_cpu_run += block.find("In the CPU backend's run of this case") != std::string::npos;
    }
  }
  // The barrier inside an if (p03's worked example) leaves c unwritten on the CPU backend,
  // where the block is stopped, while GPUs since Volta finish it with the right values.
  CHECK(right_on_gpu > 0);
  CHECK(said_as_cpu_run > 0);
}

TEST_CASE("gpu: under auto, a case too large for the CPU backend says once where to look further" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  // The missing guard writes past the end of c at n = 1000: the canaries see it on the GPU.
  auto r = run_program(bin("broken_p01_missing_guard"), {});
  INFO(r.output);
  CHECK(r.exit_status == 1);
  std::size_t large_cases = 0;
  for (const std::string& block : case_blocks(r.output)) {
    CAPTURE(block);
    std::size_t advice = 0;
    for (auto at = block.find("--sanitize"); at != std::string::npos; at = block.find("--sanitize", at + 1)) ++advice;
    CHECK(advice <= 1);
    large_cases += block.find("not on a case this large") != std::string::npos;
  }
  CHECK(large_cases == 1);  // said for the first large case that fails, not again
}

// --profile: the checker's table of bank conflicts and sectors per source line (CPU backend),
// its tables of Hopper's tensor copies and warpgroup MMAs, and Nsight Compute's counters for the
// same launch (GPU).
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "backend_fixture.h"
#include "process.h"

using test_support::run_program;

namespace {

std::string bin(const std::string& name) { return std::string(TEST_BIN_DIR) + "/" + name; }

// The number of the first line of a file that holds `text` (0: none).
int line_in(const std::string& path, const std::string& text) {
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  return 0;
}

// The table's row for a line: from its line number to the end of that line of output.
std::string row_of(const std::string& output, const std::string& starts) {
  auto at = output.find("\n" + starts);
  if (at == std::string::npos) return "";
  auto end = output.find('\n', at + 1);
  return output.substr(at + 1, end - at - 1);
}

}  // namespace

TEST_CASE("cpu: --profile puts the bank-conflicted store first, with its line, its n-way and its code") {
  test_support::note_started();
  // The padded kernel of puzzle 7 without its padding: one line stores a column of a_tile, 8-way.
  const std::string line = std::to_string(line_in(std::string(BROKEN_DIR) + "/p07_obvious_layout.cu", "a_tile[kk][r] = "));
  auto r = run_program(bin("broken_p07_obvious_layout"), {"--backend=cpu", "--profile", "--size=64"});
  INFO(r.output);
  CHECK(r.exit_status == 1);  // the conflicts fail the puzzle; --profile does not change the verdict
  if (!PUZZLES_INSTRUMENTED) {
    CHECK(r.output.find("Not measured: this build's kernels are not instrumented") != std::string::npos);
    return;
  }
  auto heading = r.output.find("Memory profile of matmul_padded_tile (CPU backend, every warp request of one "
                               "launch at m = 64, n = 64, k = 64)\n   line  memory access     requests  cost               code\n");
  REQUIRE(heading != std::string::npos);
  // The first row after the heading is the costliest.
  std::string table = r.output.substr(r.output.find("code\n", heading) + 5);
  std::string first = table.substr(0, table.find('\n'));
  CHECK(first.rfind(std::string(6 - line.size(), ' ') + line + "   shared store ", 0) == 0);
  CHECK(first.find("8.0-way (worst 8)") != std::string::npos);
  CHECK(first.find("a_tile[kk][r] = ") != std::string::npos);
  CHECK(r.output.find("The costliest: the shared-memory stores at line " + line + " of p07_obvious_layout.cu take 8.0 times "
                      "the wavefronts they need (up to 8-way bank conflicts)") != std::string::npos);
  // Its second kernel is swizzled and has no conflicts: no shared row costs more than 1-way.
  auto second = r.output.find("Memory profile of matmul_swizzled_tile");
  REQUIRE(second != std::string::npos);
  CHECK(r.output.find("-way (worst 2", second) == std::string::npos);
  CHECK(r.output.find("-way (worst 8", second) == std::string::npos);
}

TEST_CASE("cpu: --profile of the tiled kernel: no conflicts, 4 sectors per warp load, and the loop's shared load") {
  test_support::note_started();
  auto r = run_program(bin("p04_tiled_solution"), {"--backend=cpu", "--profile", "--size=48"});
  INFO(r.output);
  CHECK(r.exit_status == 0);
  if (!PUZZLES_INSTRUMENTED) return;
  CHECK(r.output.find("Memory profile (CPU backend, every warp request of one launch at n = 48)") != std::string::npos);
  // 3 x 3 blocks of 8 warps, 3 steps along k of 16 multiply-adds, each with two shared loads on one
  // line: 9 * 8 * 3 * 16 * 2 warp requests.
  std::string loop = row_of(r.output, "    29   shared load ");
  CHECK(loop.find("   6912  1.0-way (worst 1)") != std::string::npos);
  // A half-warp reads 16 neighbouring floats of one row of a: 64 bytes, 2 sectors; two rows, 4.
  std::string load_a = row_of(r.output, "    26   global load ");
  CHECK(load_a.find("4.0 sectors/req") != std::string::npos);
  CHECK(r.output.find("Every request takes the fewest wavefronts or sectors it can: no bank conflicts, no "
                      "scattered loads.") != std::string::npos);
  // No tensor copies, no wgmma: no tables for them.
  CHECK(r.output.find("Tensor copies") == std::string::npos);
  CHECK(r.output.find("Warpgroup MMA") == std::string::npos);
}

TEST_CASE("cpu: --profile of the TMA and wgmma kernel adds its tensor copies per stage use and its wgmmas") {
  test_support::note_started();
  const std::string json_path = std::string(TEST_BIN_DIR) + "/p12_profile_view.json";
  std::remove(json_path.c_str());
  auto r = run_program(bin("p12_tma_wgmma_solution"),
                       {"--backend=cpu", "--profile", "--size=256", "--json=" + json_path});
  INFO(r.output);
  CHECK(r.exit_status == 0);
  if (!PUZZLES_INSTRUMENTED) return;
  // 2 x 2 blocks, 4 steps of k each on 3 stages: stage 0's "full" mbarrier completes twice per
  // block (steps 0 and 3), the others once, each time receiving a's tile and b's two boxes,
  // 16 KB + 2 x 8 KB.
  auto copies = r.output.find("Tensor copies (TMA), per line and mbarrier\n");
  REQUIRE(copies != std::string::npos);
  CHECK(r.output.find(" load      shared[98304]         24     262,144       8      32,768  ", copies) !=
        std::string::npos);
  CHECK(r.output.find(" load      shared[98312]         12     131,072       4      32,768  ", copies) !=
        std::string::npos);
  auto mma = r.output.find("Warpgroup MMA (wgmma), per warpgroup and line\n", copies);
  REQUIRE(mma != std::string::npos);
  // One consumer warpgroup: 2 m64n128k16 per slice of 16, 4 slices per step, 16 steps in all;
  // their flops are the product's 2 m n k.
  CHECK(r.output.find("  m64n128k16           128      33,554,432  ", mma) != std::string::npos);
  CHECK(r.output.find("  commit_group          16  ", mma) != std::string::npos);
  CHECK(r.output.find("  wait_group 1          16  ", mma) != std::string::npos);

  std::ifstream in(json_path);
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json kernel = nlohmann::json::parse(text.str())["profile"]["cpu"][0];
  std::uint64_t bytes = 0, flops = 0, commits = 0, phases = 0;
  for (const nlohmann::json& row : kernel["tensor_copies"]) {
    CHECK(row["store"] == false);
    phases += row["phases"].get<std::uint64_t>();
    bytes += row["bytes"].get<std::uint64_t>();
  }
  CHECK(phases == 4 * 4);  // blocks x steps: one use of a stage each
  for (const nlohmann::json& row : kernel["warpgroup_mma"]) {
    CHECK(row["warpgroup"] == 0);
    flops += row["flops"].get<std::uint64_t>();
    if (row["instruction"] == "commit_group") commits += row["issued"].get<std::uint64_t>();
  }
  CHECK(bytes == 4 * 4 * 32768);  // blocks x steps x (A_BYTES + B_BYTES)
  CHECK(flops == 2ull * 256 * 256 * 256);
  CHECK(commits == 16);
}

TEST_CASE("gpu: --profile on the GPU adds Nsight Compute's counters, or says why it could not read them" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto r = run_program(bin("p07_bank_conflicts_solution"), {"--backend=gpu", "--profile", "--size=256"});
  INFO(r.output);
  CHECK(r.exit_status == 0);
  auto at = r.output.find("Nsight Compute's counters (GPU, the launch at m = 256, n = 256, k = 256)");
  REQUIRE(at != std::string::npos);
  std::string rest = r.output.substr(at);
  if (rest.find("Not measured:") != std::string::npos) {
    // No ncu, or no permission to read the counters: the reason, and no numbers.
    MESSAGE("ncu did not measure here: " << rest.substr(0, rest.find("\n\n")));
    CHECK(rest.find("shared loads") == std::string::npos);
    return;
  }
  CHECK(rest.find("  matmul_padded_tile\n") != std::string::npos);
  CHECK(rest.find("  matmul_swizzled_tile\n") != std::string::npos);
  CHECK(rest.find("shared loads") != std::string::npos);
  CHECK(rest.find("global loads") != std::string::npos);
}

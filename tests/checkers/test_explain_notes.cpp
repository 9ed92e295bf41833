// --explain: after each case on the CPU backend, the notes on what the kernel did that is legal
// but worth knowing (tensor copies over the tensor's edges); without it, none. --json carries
// the notes always.
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

}  // namespace

TEST_CASE("cpu: --explain says where puzzle 12's tensor copies filled zeros past a's and b's edges") {
  test_support::note_started();
  const std::vector<std::string> args{"--backend=cpu", "--size=100x136x72"};
  std::vector<std::string> explained = args;
  explained.push_back("--explain");
  auto r = run_program(bin("p12_tma_wgmma_solution"), explained);
  INFO(r.output);
  CHECK(r.exit_status == 0);
  // a is 100 x 72, loaded in 64 x 128 boxes: both of each block's boxes hang over (8 columns
  // and 100 rows of the second inside). b is 72 x 136 in 64 x 64 boxes: 6 of 8 hang over, the
  // first the second k step of block 0.
  const std::string case_2 = "[2/2] random";
  auto at = r.output.find(case_2);
  REQUIRE(at != std::string::npos);
  CHECK(r.output.find("  PASS\n  Note: the tensor copies at line ", at) != std::string::npos);
  CHECK(r.output.find(" hung over the edge of a in 4 of 4 boxes (first at column 0, row 0 of a 100 x 72 tensor): "
                      "they filled 18,368 elements with zeros, which is how this kernel handles the edges.\n",
                      at) != std::string::npos);
  CHECK(r.output.find(" hung over the edge of b in 6 of 8 boxes (first at column 0, row 64 of a 72 x 136 tensor): "
                      "they filled 22,976 elements with zeros, which is how this kernel handles the edges.\n",
                      at) != std::string::npos);

  auto plain = run_program(bin("p12_tma_wgmma_solution"), args);
  INFO(plain.output);
  CHECK(plain.exit_status == 0);
  CHECK(plain.output.find("Note:") == std::string::npos);
  CHECK(plain.output.find("hung over") == std::string::npos);
}

TEST_CASE("cpu: --help lists --explain") {
  test_support::note_started();
  auto r = run_program(bin("p12_tma_wgmma_solution"), {"--help"});
  CHECK(r.exit_status == 0);
  CHECK(r.output.find("\n  --explain  ") != std::string::npos);
}

TEST_CASE("cpu: --json carries the tensor-edge notes with or without --explain") {
  test_support::note_started();
  const std::string json_path = std::string(TEST_BIN_DIR) + "/p12_explain_notes.json";
  std::remove(json_path.c_str());
  auto r = run_program(bin("p12_tma_wgmma_solution"), {"--backend=cpu", "--size=100x136x72", "--json=" + json_path});
  INFO(r.output);
  CHECK(r.exit_status == 0);
  std::ifstream in(json_path);
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json doc = nlohmann::json::parse(text.str());
  CHECK(doc["options"]["explain"] == false);
  const nlohmann::json& run = doc["kernels"][0]["cases"][1]["runs"][0];
  CHECK(run["tensor_edges_truncated"] == false);
  REQUIRE(run["tensor_edges"].size() == 2);
  for (const nlohmann::json& n : run["tensor_edges"]) {
    CAPTURE(n.dump());
    CHECK(n["store"] == false);
    CHECK(n["box"][0] == 64);
    if (n["tensor"] == "a") {
      CHECK(n["dims"] == nlohmann::json{72, 100});
      CHECK(n["first_box"] == nlohmann::json{0, 0});
      CHECK(n["boxes"] == 4);
      CHECK(n["boxes_over_edge"] == 4);
      CHECK(n["elements_outside"] == 18368);
    } else {
      CHECK(n["tensor"] == "b");
      CHECK(n["dims"] == nlohmann::json{136, 72});
      CHECK(n["first_box"] == nlohmann::json{0, 64});
      CHECK(n["first_block"] == nlohmann::json{0, 0, 0});
      CHECK(n["boxes"] == 8);
      CHECK(n["boxes_over_edge"] == 6);
      CHECK(n["elements_outside"] == 22976);
    }
  }
}

// --explain: after each case on the CPU backend, the notes on what the kernel did that is legal
// but worth knowing (tensor copies over the tensor's edges); without it, none. --json carries
// the notes always. The engine's exact counts are tested in tests/engine/test_hopper.cpp; here
// the words are checked against the same run's JSON, so that a retuned tile keeps the test.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend_fixture.h"
#include "process.h"

using test_support::run_program;

namespace {

std::string bin(const std::string& name) { return std::string(TEST_BIN_DIR) + "/" + name; }

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

// "18,368"
std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v), s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

}  // namespace

TEST_CASE("cpu: --explain says where puzzle 12's tensor copies filled zeros past a's and b's edges") {
  test_support::note_started();
  const std::string json_path = std::string(TEST_BIN_DIR) + "/p12_explain_notes.json";
  std::remove(json_path.c_str());
  const std::vector<std::string> args{"--backend=cpu", "--size=100x136x72"};
  std::vector<std::string> explained = args;
  explained.push_back("--explain");
  explained.push_back("--json=" + json_path);
  auto r = run_program(bin("p12_tma_wgmma_solution"), explained);
  INFO(r.output);
  CHECK(r.exit_status == 0);
  auto at = r.output.find("[2/2] random");
  REQUIRE(at != std::string::npos);
  CHECK(r.output.find("  PASS\n  Note: the tensor copies at line ", at) != std::string::npos);

  // a is 100 x 72 and b 72 x 136: neither is a whole number of 64-wide boxes, so both hang over.
  nlohmann::json doc = read_json(json_path);
  CHECK(doc["options"]["explain"] == true);
  const nlohmann::json& run = doc["kernels"][0]["cases"][1]["runs"][0];
  CHECK(run["tensor_edges_truncated"] == false);
  REQUIRE(run["tensor_edges"].size() == 2);
  for (const nlohmann::json& n : run["tensor_edges"]) {
    CAPTURE(n.dump());
    const std::string tensor = n["tensor"];
    CHECK((tensor == "a" || tensor == "b"));
    CHECK(n["store"] == false);
    CHECK(n["dims"] == (tensor == "a" ? nlohmann::json{72, 100} : nlohmann::json{136, 72}));
    const std::uint64_t boxes = n["boxes"], over = n["boxes_over_edge"], outside = n["elements_outside"];
    const std::uint64_t box_elements = n["box"][0].get<std::uint64_t>() * n["box"][1].get<std::uint64_t>();
    CHECK(over >= 1);
    CHECK(over <= boxes);
    CHECK(outside >= over);
    CHECK(outside <= over * box_elements);
    const std::string sentence =
        " hung over the edge of " + tensor + " in " + grouped(over) + " of " + grouped(boxes) + " boxes (first at column " +
        std::to_string(n["first_box"][0].get<long>()) + ", row " + std::to_string(n["first_box"][1].get<long>()) +
        " of a " + (tensor == "a" ? "100 x 72" : "72 x 136") + " tensor): they filled " + grouped(outside) +
        " elements with zeros, which is how this kernel handles the edges.\n";
    CHECK(r.output.find(sentence, at) != std::string::npos);
  }

  auto plain = run_program(bin("p12_tma_wgmma_solution"), args);
  INFO(plain.output);
  CHECK(plain.exit_status == 0);
  CHECK(plain.output.find("Note:") == std::string::npos);
  CHECK(plain.output.find("hung over") == std::string::npos);
}

TEST_CASE("cpu: --json carries the tensor-edge notes without --explain too") {
  test_support::note_started();
  const std::string json_path = std::string(TEST_BIN_DIR) + "/p12_explain_notes_plain.json";
  std::remove(json_path.c_str());
  auto r = run_program(bin("p12_tma_wgmma_solution"), {"--backend=cpu", "--size=100x136x72", "--json=" + json_path});
  INFO(r.output);
  CHECK(r.exit_status == 0);
  nlohmann::json doc = read_json(json_path);
  CHECK(doc["options"]["explain"] == false);
  const nlohmann::json& run = doc["kernels"][0]["cases"][1]["runs"][0];
  CHECK(run["tensor_edges"].size() == 2);
  CHECK(r.output.find("hung over") == std::string::npos);
}

TEST_CASE("cpu: --help lists --explain") {
  test_support::note_started();
  auto r = run_program(bin("p12_tma_wgmma_solution"), {"--help"});
  CHECK(r.exit_status == 0);
  CHECK(r.output.find("\n  --explain  ") != std::string::npos);
}

// A puzzle is a spec (checker/specs), a stub, a solution, a doc page and its broken kernels:
// these tests fail when one of them is missing or disagrees with the spec.
#include <doctest/doctest.h>

#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "backend_fixture.h"
#include "checker/expression.h"
#include "checker/puzzle.h"
#include "source_files.h"

using test_support::files_in;
using test_support::read_file;

namespace {

const std::string kSource = SOURCE_DIR;

// The functions whose bodies the student writes: every kernel of the spec, and every other
// function of the stub whose top-level body holds the marker (a swizzle or tile-order helper).
std::vector<std::string> functions_to_fill(const std::string& stub, const checker::PuzzleSpec& spec) {
  std::vector<std::string> names;
  for (const std::string& kernel : spec.kernels) names.push_back(checker::PuzzleSpec::kernel_name(kernel));
  int depth = 0;
  std::size_t open = 0;
  for (std::size_t i = 0; i < stub.size(); ++i) {
    if (stub[i] == '{' && depth++ == 0) open = i;
    if (stub[i] != '}' || --depth != 0) continue;
    if (stub.substr(open, i - open).find("FILL ME IN") == std::string::npos) continue;
    std::smatch m;
    std::string head = stub.substr(open > 400 ? open - 400 : 0, open > 400 ? 400 : open);
    std::regex last_call("\\b([A-Za-z_]\\w*)\\s*\\([^()]*(\\([^()]*\\)[^()]*)*\\)[^;{}()]*$");
    if (std::regex_search(head, m, last_call)) names.push_back(m[1]);
  }
  return names;
}

// The text with the bodies of those functions emptied, so that a stub and its solution can be
// compared outside them.
std::string without_bodies(std::string text, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    std::smatch m;
    std::regex head("\\b" + name + "\\s*\\([^;{]*\\{");
    if (!std::regex_search(text, m, head)) continue;
    std::size_t open = static_cast<std::size_t>(m.position(0) + m.length(0)) - 1;
    int depth = 0;
    std::size_t close = open;
    for (; close < text.size(); ++close) {
      if (text[close] == '{') ++depth;
      if (text[close] == '}' && --depth == 0) break;
    }
    text = text.substr(0, open + 1) + text.substr(close);
  }
  return text;
}

}  // namespace

TEST_CASE("the spec files load, and their numbers run 1, 2, 3, ... with ids that match the files") {
  test_support::note_started();
  const auto& table = checker::puzzle_table();
  REQUIRE(!table.empty());
  std::vector<std::string> spec_files;
  for (const std::string& f : files_in(kSource + "/checker/specs"))
    if (f.size() > 5 && f.compare(f.size() - 5, 5, ".json") == 0) spec_files.push_back(f);
  CHECK(spec_files.size() == table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    CAPTURE(table[i].id);
    CHECK(table[i].number == static_cast<int>(i) + 1);
    char prefix[8];
    std::snprintf(prefix, sizeof prefix, "p%02d_", table[i].number);
    CHECK(table[i].id.rfind(prefix, 0) == 0);
  }
}

TEST_CASE("every puzzle has a stub with the marker, a solution without it, and a doc page with a walkthrough") {
  test_support::note_started();
  for (const checker::PuzzleSpec& p : checker::puzzle_table()) {
    CAPTURE(p.id);
    std::string stub = read_file(kSource + "/puzzles/" + p.id + ".cu");
    std::string doc = read_file(kSource + "/docs/" + p.id + ".md");
    REQUIRE_MESSAGE(!stub.empty(), "puzzles/" << p.id << ".cu is missing");
    REQUIRE_MESSAGE(!doc.empty(), "docs/" << p.id << ".md is missing");
    CHECK(stub.find("// FILL ME IN (roughly ") != std::string::npos);
    CHECK(doc.find("<details>") != std::string::npos);
    for (const std::string& kernel : p.kernels) {
      std::regex declared("__global__[^;{]*\\b" + checker::PuzzleSpec::kernel_name(kernel) + "\\s*\\(");
      CHECK(std::regex_search(stub, declared));
    }
    if (test_support::is_handout()) continue;  // no solutions/ to compare with
    std::string solution = read_file(kSource + "/solutions/" + p.id + ".cu");
    REQUIRE_MESSAGE(!solution.empty(), "solutions/" << p.id << ".cu is missing");
    CHECK(solution.find("FILL ME IN") == std::string::npos);
    for (const std::string& kernel : p.kernels) {
      std::regex declared("__global__[^;{]*\\b" + checker::PuzzleSpec::kernel_name(kernel) + "\\s*\\(");
      CHECK(std::regex_search(solution, declared));
    }
    // A stub and its solution differ only inside the bodies the student writes.
    const std::vector<std::string> to_fill = functions_to_fill(stub, p);
    CAPTURE(to_fill.size());
    CHECK(without_bodies(stub, to_fill) == without_bodies(solution, to_fill));
  }
}

TEST_CASE("the constants in the spec are the ones the kernel files define") {
  test_support::note_started();
  for (const checker::PuzzleSpec& p : checker::puzzle_table()) {
    CAPTURE(p.id);
    for (const char* dir : {"/puzzles/", "/solutions/"}) {
      if (test_support::is_handout() && std::string(dir) == "/solutions/") continue;
      std::string text = read_file(kSource + dir + p.id + ".cu");
      for (const auto& constant : p.constants) {
        const std::string& name = constant.first;
        CAPTURE(name);
        std::regex definition("constexpr\\s+(?:int|unsigned)\\s+" + name + "\\s*=\\s*" +
                              std::to_string(constant.second) + "\\s*;");
        CHECK(std::regex_search(text, definition));
      }
    }
  }
}

TEST_CASE("spec formulas evaluate, and bad ones are refused with the formula in the message") {
  test_support::note_started();
  checker::Variables v{{"n", 33}, {"TILE", 16}};
  CHECK(checker::evaluate("ceil(n / TILE)", v) == 3);
  CHECK(checker::evaluate("2 * ceil(n / TILE) + min(n, 4) - max(1, 2)", v) == 8);
  CHECK(checker::evaluate("-(n - 1) / 4", v) == -8);
  CHECK(checker::substitute("ceil(n / TILE)", {{"TILE", 16}}) == "ceil(n / 16)");
  checker::Variables tiles{{"BM", 128}, {"BN", 128}, {"BK", 8}, {"TM", 8}, {"TN", 8}, {"TILE", 16}};
  CHECK(checker::fold_constants("(BM / TM) * (BN / TN)", tiles) == "256");
  CHECK(checker::fold_constants("(BM * BK + BK * BN) / ((BM / TM) * (BN / TN)) * ceil(k / BK)", tiles) ==
        "8 * ceil(k / 8)");
  CHECK(checker::fold_constants("2 * ceil(n / TILE)", tiles) == "2 * ceil(n / 16)");
  CHECK(checker::fold_constants("ceil(n / 256) * (n + 1)", tiles) == "ceil(n / 256) * (n + 1)");
  CHECK(checker::fold_constants("n - (k - 1)", tiles) == "n - (k - 1)");
  CHECK_THROWS_WITH(checker::evaluate("ceil(n / BLOCK)", v),
                    "cannot evaluate the formula 'ceil(n / BLOCK)': 'BLOCK' is not known here");
  CHECK_THROWS_WITH(checker::evaluate("n / (TILE - 16)", v),
                    "cannot evaluate the formula 'n / (TILE - 16)': division by zero");
  CHECK_THROWS(checker::evaluate("ceil(n", v));
}

TEST_CASE("spec formulas give the shared table's values and refusals, as the Python reader's evaluator does") {
  test_support::note_started();
  // tests/specs/test_formulas.py holds checker/cli/course/specs.py to the same table.
  std::string text = read_file(kSource + "/tests/support/formula_cases.json");
  REQUIRE(!text.empty());
  nlohmann::json table = nlohmann::json::parse(text)["cases"];
  REQUIRE(table.size() > 10);
  for (const nlohmann::json& c : table) {
    std::string formula = c["formula"];
    CAPTURE(formula);
    checker::Variables v;
    for (const auto& [name, value] : c["variables"].items()) v[name] = value.get<double>();
    if (c.contains("error")) {
      std::string message;
      try {
        checker::evaluate(formula, v);
      } catch (const engine::Error& e) {
        message = e.what();
      }
      CHECK(message.find(c["error"].get<std::string>()) != std::string::npos);
      CHECK(message.rfind("cannot evaluate the formula '" + formula + "'", 0) == 0);
    } else {
      CHECK(checker::evaluate(formula, v) == c["value"].get<double>());
    }
  }
}

TEST_CASE("a spec with a mistake is refused, naming the file and the field") {
  test_support::note_started();
  std::string good = read_file(kSource + "/checker/specs/p04_tiled.json");
  REQUIRE(!good.empty());
  CHECK_NOTHROW(checker::parse_spec(good, "p04_tiled.json"));
  auto refused = [&](const std::string& from, const std::string& to) {
    std::string bad = good;
    auto at = bad.find(from);
    REQUIRE(at != std::string::npos);
    bad.replace(at, from.size(), to);
    try {
      checker::parse_spec(bad, "p04_tiled.json");
    } catch (const engine::Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK(refused("\"TILE\", \"TILE\"]", "\"TILE\", \"TILES\"]").rfind("p04_tiled.json: launch.block: ", 0) == 0);
  CHECK(refused("int n)", "double n)").rfind("p04_tiled.json: signature: ", 0) == 0);
  CHECK(refused("\"worked\": 4", "\"worked\": 0").rfind("p04_tiled.json: cases.worked: ", 0) == 0);
  CHECK(refused("\"title\"", "\"titel\"").rfind("p04_tiled.json: title: missing", 0) == 0);
}

TEST_CASE("launch.cluster is read as formulas, fills the launch's cluster and shows on the Launch line") {
  test_support::note_started();
  std::string text = read_file(kSource + "/checker/specs/p12_tma_wgmma.json");
  REQUIRE(!text.empty());
  nlohmann::json doc = nlohmann::json::parse(text);
  checker::PuzzleSpec plain = checker::parse_spec(doc.dump(), "p12_tma_wgmma.json");
  CHECK(plain.launch.cluster.empty());
  CHECK(plain.launch_for(plain.cases.worked, engine::DeviceLimits{}).cluster == engine::Dim3(1, 1, 1));
  CHECK(plain.launch_words().find("cluster") == std::string::npos);

  doc["constants"]["CLUSTER_M"] = 2;
  doc["launch"]["cluster"] = nlohmann::json::array({"CLUSTER_M", 1});
  checker::PuzzleSpec clustered = checker::parse_spec(doc.dump(), "p12_tma_wgmma.json");
  CHECK(clustered.launch.cluster == std::vector<std::string>{"CLUSTER_M", "1"});
  engine::LaunchConfig c = clustered.launch_for(clustered.cases.worked, engine::DeviceLimits{});
  CHECK(c.cluster == engine::Dim3(2, 1, 1));
  CHECK(c.grid == plain.launch_for(plain.cases.worked, engine::DeviceLimits{}).grid);
  CHECK(clustered.launch_words().find(", cluster (2,1)") != std::string::npos);

  doc["launch"]["cluster"] = nlohmann::json::array({2});  // one dimension: y and z are 1
  checker::PuzzleSpec one = checker::parse_spec(doc.dump(), "p12_tma_wgmma.json");
  CHECK(one.launch_for(one.cases.worked, engine::DeviceLimits{}).cluster == engine::Dim3(2, 1, 1));
  CHECK(one.launch_words().find(", cluster (2,1)") != std::string::npos);
}

TEST_CASE("bench.target_at is one of bench.shapes, or \"every\": the target holds at every timed shape") {
  test_support::note_started();
  nlohmann::json doc = nlohmann::json::parse(read_file(kSource + "/checker/specs/p13_warp_specialization.json"));
  checker::PuzzleSpec every = checker::parse_spec(doc.dump(), "p13_warp_specialization.json");
  CHECK(every.bench.target_everywhere);
  CHECK(!every.bench.target_at);
  doc["bench"]["target_at"] = nlohmann::json::array({8192, 8192, 8192});
  checker::PuzzleSpec one = checker::parse_spec(doc.dump(), "p13_warp_specialization.json");
  CHECK(!one.bench.target_everywhere);
  REQUIRE(one.bench.target_at);
  CHECK(*one.bench.target_at == checker::Dims{8192, 8192, 8192});
  doc["bench"]["target_at"] = "all";  // neither a shape nor "every"
  CHECK_THROWS_AS(checker::parse_spec(doc.dump(), "p13_warp_specialization.json"), engine::Error);
}

TEST_CASE("a cluster that is not one to three whole numbers of at least 1, or without sm_90, is refused") {
  test_support::note_started();
  nlohmann::json good = nlohmann::json::parse(read_file(kSource + "/checker/specs/p12_tma_wgmma.json"));
  auto refused = [&](const nlohmann::json& cluster, const std::string& requires_gpu = "sm_90a") {
    nlohmann::json doc = good;
    doc["launch"]["cluster"] = cluster;
    if (requires_gpu.empty())
      doc.erase("requires_gpu");
    else
      doc["requires_gpu"] = requires_gpu;
    try {
      checker::parse_spec(doc.dump(), "p12_tma_wgmma.json");
    } catch (const engine::Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string field = "p12_tma_wgmma.json: launch.cluster: ";
  CHECK(refused(nlohmann::json::array({2, 1})) == "(accepted)");
  CHECK(refused(nlohmann::json::array({2, 1}), "sm_90") == "(accepted)");
  CHECK(refused(nlohmann::json::array({2, 1}), "sm_100") == "(accepted)");
  CHECK(refused(nlohmann::json::array()).rfind(field + "one to three", 0) == 0);
  CHECK(refused(nlohmann::json::array({1, 1, 1, 1})).rfind(field + "one to three", 0) == 0);
  CHECK(refused(2).rfind(field + "one to three", 0) == 0);
  CHECK(refused(nlohmann::json::array({0, 1})) == field + "every dimension of a cluster is at least 1");
  CHECK(refused(nlohmann::json::array({1.5})) == field + "must be a whole number");
  CHECK(refused(nlohmann::json::array({"BM / 256"})).rfind(field + "'BM / 256' is 0.5 at m = ", 0) == 0);
  CHECK(refused(nlohmann::json::array({"CLUSTERS"})).find("'CLUSTERS' is not known here") != std::string::npos);
  const std::string needs = field + "thread block clusters need a Hopper GPU or newer: set requires_gpu to sm_90 or sm_90a";
  CHECK(refused(nlohmann::json::array({2, 1}), "sm_80") == needs);
  CHECK(refused(nlohmann::json::array({2, 1}), "") == needs);
}

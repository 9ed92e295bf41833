// The diagnostic lines after each located finding (checker/diagnostic.h, diagnostic_lines.h):
// every kind gets its own words, the notes name the other lines, and the lines follow gcc's and
// GitHub's formats, escaping included. tests/report/test_diagnostic_lines.py runs real checkers.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>

#include "checker/diagnostic.h"
#include "checker/diagnostic_lines.h"
#include "checker/explain.h"

namespace {

using engine::Finding;
using engine::FindingKind;

engine::SourceLocation at(int line, std::vector<int> called_from = {}) {
  return engine::SourceLocation{"/course/puzzles/p04_tiled.cu", line, false, std::move(called_from)};
}

// A finding of `kind` with every fact a kind may use filled in, as the CPU backend reports them.
Finding full_finding(FindingKind kind) {
  Finding f;
  f.kind = kind;
  f.where = {engine::Dim3(1, 0, 0), engine::Dim3(3, 2, 0)};
  f.at = at(30);
  f.buffer = "a_tile";
  f.index = 17;
  f.dims = {16, 16};
  f.buffer_elements = 256;
  f.op = "__shfl_sync";
  f.detail = "integer division by zero";
  f.other = {engine::Dim3(1, 0, 0), engine::Dim3(0, 0, 0)};
  f.other_is_write = true;
  f.other_at = at(26);
  engine::ThreadGroup waiting;
  waiting.waits_for = "__syncthreads()";
  waiting.barrier = at(28);
  waiting.count = 4;
  waiting.sample = {engine::Dim3(0, 0, 0), engine::Dim3(1, 0, 0)};
  engine::ThreadGroup gone;
  gone.returned = true;
  gone.count = 5;
  gone.sample = {engine::Dim3(2, 0, 0)};
  f.groups = {waiting, gone};
  f.async_use = Finding::AsyncUse::tma_write_pending;
  f.cluster_use = Finding::ClusterUse::before_cluster_barrier;
  return f;
}

}  // namespace

TEST_CASE("every finding kind has a title and a one-line summary of its own, and a located one a diagnostic") {
  for (std::size_t k = 0; k < engine::kFindingKinds; ++k) {
    Finding f = full_finding(static_cast<FindingKind>(k));
    CAPTURE(k);
    // A new kind gets its words in explain.cpp's finding_title and finding_fact; until then it
    // still gets generic_finding_summary's line, but this test asks for its own.
    CHECK(!checker::finding_title(f).empty());
    std::string summary = checker::finding_summary(f);
    CHECK(!summary.empty());
    CHECK(summary.find('\n') == std::string::npos);
    CHECK(summary != checker::generic_finding_summary(f));
    auto d = checker::finding_diagnostic(f);
    REQUIRE(d.has_value());
    CHECK(d->at.line == 30);
    CHECK(d->kind != "unknown");
    CHECK(d->summary == summary);
    // Not located: no line to print.
    f.at = {};
    f.groups.clear();
    CHECK(!checker::finding_diagnostic(f).has_value());
  }
}

TEST_CASE("the summary is the explanation's first sentence, from the same words") {
  Finding f = full_finding(FindingKind::shared_race);
  f.is_write = false;
  std::string summary = checker::finding_summary(f);
  CHECK(summary ==
        "shared-memory race: in block (1,0), a_tile[1][1] was written by thread (0,0) at line 26 of p04_tiled.cu and "
        "read by thread (3,2) at line 30 of p04_tiled.cu, with no __syncthreads() between the two");
  checker::PuzzleSpec spec;
  checker::Dims dims{16, 16, 16};
  engine::LaunchResult result;
  result.add(f);
  auto paragraphs = checker::explain_findings(result, spec, dims, checker::Style(false), engine::BackendKind::cpu);
  REQUIRE(paragraphs.size() == 1);
  CHECK(paragraphs[0].rfind("Shared-memory race: " + summary.substr(std::string("shared-memory race: ").size()) + ".",
                            0) == 0);
}

TEST_CASE("a kind without words of its own still gets a correct generic line") {
  Finding f = full_finding(FindingKind::fault);
  std::string generic = checker::generic_finding_summary(f);
  CHECK(generic == "fault in thread (3,2) of block (1,0) (a_tile[17]): integer division by zero");
}

TEST_CASE("notes name the other thread's line and the call chain") {
  Finding f = full_finding(FindingKind::shared_race);
  f.at = at(56, {187, 200});
  auto d = checker::finding_diagnostic(f);
  REQUIRE(d.has_value());
  REQUIRE(d->notes.size() == 4);
  CHECK(d->notes[0].at.line == 187);
  CHECK(d->notes[0].message == "called from here");
  CHECK(d->notes[1].at.line == 200);
  CHECK(d->notes[2].at.line == 26);
  CHECK(d->notes[2].message == "thread (0,0) of block (1,0) wrote a_tile[1][1] here, the other side of the race");
  CHECK(d->notes[3].at.line == 28);  // the waiting group (a race has none in practice; the notes take all)

  // A barrier finding has no line of its own: the error is on the first waiting group's.
  Finding b = full_finding(FindingKind::barrier_divergence);
  b.at = {};
  b.other_at = {};
  auto db = checker::finding_diagnostic(b);
  REQUIRE(db.has_value());
  CHECK(db->at.line == 28);
  CHECK(db->notes.empty());
}

TEST_CASE("gcc's line format, on one line, with relative paths") {
  CHECK(checker::gcc_line("puzzles/p04_tiled.cu", 12, "error", "two\nlines [shared_race]") ==
        "puzzles/p04_tiled.cu:12: error: two lines [shared_race]");
  CHECK(checker::relative_path("/course/puzzles/p04_tiled.cu", "/course") == "puzzles/p04_tiled.cu");
  CHECK(checker::relative_path("/course/puzzles/p04_tiled.cu", "/course/puzzles") == "p04_tiled.cu");
  CHECK(checker::relative_path("/course/puzzles/p04_tiled.cu", "/course/build") == "../puzzles/p04_tiled.cu");
  CHECK(checker::relative_path("/course/puzzles/p04_tiled.cu", "/course/build/") == "../puzzles/p04_tiled.cu");
  CHECK(checker::relative_path("p04_tiled.cu", "/course") == "p04_tiled.cu");  // not absolute: as it is
}

TEST_CASE("GitHub's workflow commands escape % CR LF in the message, and : , too in properties") {
  CHECK(checker::github_escape_data("100% done\r\nline 2: a, b") == "100%25 done%0D%0Aline 2: a, b");
  CHECK(checker::github_escape_property("100% done\r\nline 2: a, b") == "100%25 done%0D%0Aline 2%3A a%2C b");
  CHECK(checker::github_escape_data("%0A") == "%250A");  // an escape in the text is not taken for one
  CHECK(checker::github_error("dir,x/p:1.cu", 7, "Race: a, b", "m%\nn") ==
        "::error file=dir%2Cx/p%3A1.cu,line=7,title=Race%3A a%2C b::m%25%0An");
}

TEST_CASE("the lines of a diagnostic: the error, its notes, and once per line and kind the workflow command") {
  checker::Diagnostic d{"shared_race", "Shared-memory race", at(30), "shared-memory race: x", {{at(26), "the other"}}};
  checker::DiagnosticLines plain("/course", false, "/course");
  CHECK(plain.lines(d) == std::vector<std::string>{"puzzles/p04_tiled.cu:30: error: shared-memory race: x [shared_race]",
                                                   "puzzles/p04_tiled.cu:26: note: the other"});
  checker::DiagnosticLines github("/course/build", true, "/course");
  auto first = github.lines(d);
  REQUIRE(first.size() == 3);
  CHECK(first[0] == "../puzzles/p04_tiled.cu:30: error: shared-memory race: x [shared_race]");
  CHECK(first[2] ==
        "::error file=puzzles/p04_tiled.cu,line=30,title=Shared-memory race::shared-memory race: x%0Aline 26: the other");
  CHECK(github.lines(d).size() == 2);  // the same line and kind again: marked once
  d.at.line = 31;
  CHECK(github.lines(d).size() == 3);
}

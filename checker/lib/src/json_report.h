// --json: the checker's results as one JSON document for tools (grading, the command line),
// which then never read the sentences meant for people. docs/dev/report-json.md is the schema;
// kSchemaVersion changes when a field changes meaning or goes away.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "case_runner.h"
#include "checker/backend_reason.h"
#include "checker/bench_table.h"
#include "checker/puzzle.h"
#include "engine/findings.h"

namespace checker {

inline constexpr int kReportSchemaVersion = 1;

// Where the document goes. To stdout: what the checker prints for people moves to stderr, so
// that stdout carries the document alone. To a file: the text for people stays where it is.
class JsonStdout {
 public:
  explicit JsonStdout(std::string file);  // empty: stdout, redirected now
  ~JsonStdout();
  JsonStdout(const JsonStdout&) = delete;
  JsonStdout& operator=(const JsonStdout&) = delete;
  // Returns false when the file cannot be written.
  bool write(const nlohmann::json& document);

 private:
  std::string file_;
  int saved_ = -1;
};

// "shared_race": a finding kind's name, as --json writes it and the diagnostic lines end with.
const char* finding_kind_name(engine::FindingKind kind);
nlohmann::json dims_json(const Dims& d);
// `gpu`: the GPU's backend made it (its summary says why the thread is not named).
nlohmann::json finding_json(const engine::Finding& f, bool gpu = false);
nlohmann::json rejection_json(const engine::LaunchRejection& r);
nlohmann::json reason_json(const BackendReason& r);
nlohmann::json bench_row_json(const BenchRow& r);
// One case: its shape, verdict, and what each backend that ran it found.
nlohmann::json case_json(const PuzzleSpec& spec, const Case& c, std::size_t index, bool passed, const CaseInputs& in,
                         const BackendOutcome* gpu, const BackendOutcome* cpu);
// The per-line memory profile of one launch (profile_report.h's rows), and its tensor copies and
// warpgroup MMAs (async_profile_report.h).
nlohmann::json profile_json(const engine::LaunchResult& profiled);

}  // namespace checker

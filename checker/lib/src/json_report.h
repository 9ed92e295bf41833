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

// Moves what the checker prints for people from stdout to stderr, so that stdout carries the
// document alone; `write` puts the document on the real stdout.
class JsonStdout {
 public:
  JsonStdout();  // redirects now
  ~JsonStdout();
  JsonStdout(const JsonStdout&) = delete;
  JsonStdout& operator=(const JsonStdout&) = delete;
  void write(const nlohmann::json& document);

 private:
  int saved_ = -1;
};

nlohmann::json dims_json(const Dims& d);
nlohmann::json finding_json(const engine::Finding& f);
nlohmann::json rejection_json(const engine::LaunchRejection& r);
nlohmann::json reason_json(const BackendReason& r);
nlohmann::json bench_row_json(const BenchRow& r);
// One case: its shape, verdict, and what each backend that ran it found.
nlohmann::json case_json(const PuzzleSpec& spec, const Case& c, std::size_t index, bool passed, const CaseInputs& in,
                         const BackendOutcome* gpu, const BackendOutcome* cpu);
// The per-line memory profile of one launch (profile_report.h's rows).
nlohmann::json profile_json(const engine::LaunchResult& profiled);

}  // namespace checker

// A finding as a compiler reports a mistake: the source line it happened on with a one-line
// summary, and notes for the other lines it involves (the other side of a race, a call chain).
// The checker prints it after the finding's explanation (diagnostic_lines.h), for editors'
// problem lists and CI annotations. The words come from explain.cpp's, one place for each.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/puzzle.h"
#include "engine/findings.h"

namespace checker {

struct DiagnosticNote {
  engine::SourceLocation at;
  std::string message;  // "thread (0,0) of block (0,0) wrote a_row[0] here"
};

struct Diagnostic {
  std::string kind;   // "shared_race": the kind's name in --json
  std::string title;  // "Shared-memory race"
  engine::SourceLocation at;
  std::string summary;  // one line, no full stop
  std::vector<DiagnosticNote> notes;
};

// None when the finding's line is unknown (the GPU's findings, canaries). `gpu`: the backend
// that made it was the GPU's.
std::optional<Diagnostic> finding_diagnostic(const engine::Finding& f, bool gpu = false);
std::optional<Diagnostic> bank_conflicts_diagnostic(const engine::AccessProfile& worst, const PuzzleSpec& spec);
std::optional<Diagnostic> scattered_loads_diagnostic(const engine::AccessProfile& worst, double sectors_per_request,
                                                     const PuzzleSpec& spec);

// The summary of a kind that explain.cpp has no words for yet: its name and the facts every
// finding carries ("async proxy fence in thread (0,0) of block (0,0): ..."). Correct, not helpful:
// a new kind gets its words as a case of finding_title and of finding_fact (explain.cpp; the
// compiler's -Wswitch names the switches that miss it), and, where it has another thread's line,
// of other_words (diagnostic.cpp). tests/checkers/test_diagnostics.cpp checks every kind has them.
std::string generic_finding_summary(const engine::Finding& f);

}  // namespace checker

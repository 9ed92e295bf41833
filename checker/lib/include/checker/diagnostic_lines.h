// Diagnostics (diagnostic.h) as the lines that tools read:
//   gcc's and clang's  "path:line: error: summary [kind]" and "path:line: note: ...", which VS Code's
//                      $gcc problem matcher, vim's quickfix list and Emacs' compilation mode take;
//   GitHub Actions'    "::error file=path,line=n,title=...::message" workflow command, which marks
//                      the line in a pull request or commit (only with GITHUB_ACTIONS=true).
// The checker does not know columns (the debug information it reads gives lines), so the lines
// have none, as gcc's own do when it has none.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "checker/diagnostic.h"

namespace checker {

class DiagnosticLines {
 public:
  // `base`: the folder paths are relative to; `github`: also write workflow commands, with paths
  // relative to `github_base` (the repository's root).
  DiagnosticLines(std::string base, bool github, std::string github_base);
  // From the environment: CHECKER_RUN_CWD (where checker/run was typed), else the working
  // directory; GITHUB_ACTIONS=true, and GITHUB_WORKSPACE (else the same base).
  static DiagnosticLines from_environment();

  // The lines for one diagnostic, in order: the error, its notes, then (under GitHub Actions,
  // the first time this kind is marked on this line) the workflow command.
  std::vector<std::string> lines(const Diagnostic& d);

 private:
  std::string base_;
  bool github_;
  std::string github_base_;
  // GitHub shows only the first 10 error annotations of a step: each case repeats the same
  // mistake, so each line is marked once for each kind.
  std::set<std::string> marked_;
};

// `file` relative to the folder `base` ("puzzles/p04_tiled.cu", "../p04_tiled.cu"); `file`
// itself when either is not absolute or they share no root.
std::string relative_path(const std::string& file, const std::string& base);
// "path:12: error: message" (severity: "error" or "note"), on one line whatever `message` holds.
std::string gcc_line(const std::string& path, int line, const std::string& severity, const std::string& message);
// GitHub's escaping of a workflow command's message (%, CR, LF) and of a property's value
// (those, and : and ,), as @actions/core writes them.
std::string github_escape_data(const std::string& text);
std::string github_escape_property(const std::string& text);
// "::error file=...,line=12,title=...::message".
std::string github_error(const std::string& path, int line, const std::string& title, const std::string& message);

}  // namespace checker

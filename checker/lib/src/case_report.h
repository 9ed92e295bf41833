// One case in words: the buffers (small outputs) or a window of values and a tile map
// (large ones), then the findings. Either one backend alone, or, for --backend=auto with a
// GPU, the GPU's run followed by what the CPU backend's checks of the same case add, each
// fact said once.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "case_runner.h"
#include "checker/diagnostic.h"
#include "checker/diagnostic_lines.h"
#include "checker/explain.h"
#include "checker/output.h"
#include "checker/puzzle.h"

namespace checker {

class CaseReport {
 public:
  // `cpu_sizes`: the sizes the CPU backend checks in auto mode ("n = 1, 16, 33, 100").
  CaseReport(const PuzzleSpec& spec, const Style& style,
             std::string cpu_sizes);

  // One backend alone; returns whether the case passed.
  bool print_single(const Case& c, const CaseInputs& in, const BackendOutcome& outcome, FollowUp follow_up);
  // auto with a GPU: the GPU's outcome, and the CPU backend's when it ran this case (null
  // otherwise). Returns whether the case passed on both.
  bool print_auto(const Case& c, const CaseInputs& in, const BackendOutcome& gpu, const BackendOutcome* cpu);

 private:
  void print_buffers(const CaseInputs& in, const std::vector<float>& out) const;
  // The paragraphs about the output's values, and the window and tile map below them.
  void print_values(const Case& c, const CaseInputs& in, const BackendOutcome& values,
                    const std::vector<engine::Dim3>& out_of_bounds_blocks);
  // How the CPU backend's values are worded under auto: left out (the GPU's wrong values are
  // already shown), as the only values there are (the GPU stopped), or as that run's alone,
  // beside the GPU's right ones.
  enum class CpuValues { omit, only_values, beside_right_gpu_values };
  // A paragraph, and the diagnostic lines of the findings it explains, printed after it.
  struct Paragraph {
    std::string text;
    std::vector<Diagnostic> diagnostics;
  };
  // Findings, the values as `values` says, budget, thread order.
  std::vector<Paragraph> paragraphs(const Case& c, const CaseInputs& in, const BackendOutcome& o,
                                    FollowUp follow_up, CpuValues values) const;
  std::vector<Paragraph> finding_paragraphs(const engine::LaunchResult& launch, const Dims& d,
                                            engine::BackendKind backend, FollowUp follow_up) const;
  std::vector<Paragraph> memory_paragraphs(const BackendOutcome& o) const;
  void print_paragraph(const std::string& text) const;
  void print_paragraph(const Paragraph& p);
  void print_lines(const std::vector<std::string>& lines) const;
  bool small(const CaseInputs& in) const;

  const PuzzleSpec& spec_;
  Style st_;
  std::string cpu_sizes_;
  // A window and a map are shown for the first failing case that needs them: the same
  // mistake in the next cases would only repeat them.
  bool window_shown_ = false;
  bool map_shown_ = false;
  bool too_large_said_ = false;
  DiagnosticLines lines_ = DiagnosticLines::from_environment();
};

}  // namespace checker

// Findings in words a student understands on day one: what happened, where, and the
// likely fix. At most a few instances of each kind, then a count. The engine reports facts;
// every piece of advice (which option to run next) is worded here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/backend_reason.h"
#include "checker/matrices.h"
#include "checker/output.h"
#include "checker/puzzle.h"
#include "engine/backend.h"
#include "engine/findings.h"

namespace checker {

// What to say after a finding whose thread the backend cannot name (the GPU's).
enum class FollowUp {
  other_runs,  // --backend=gpu alone: name the runs that find the thread
  none,        // the caller says it (auto: the CPU backend's run of the same case)
};

// The order in which findings are explained (and listed in --json): what stopped the kernel
// first, then the accesses, then the rest. Every kind is in it.
const std::vector<engine::FindingKind>& finding_order();

// `backend`: the one that made the findings.
std::vector<std::string> explain_findings(const engine::LaunchResult& result, const PuzzleSpec& spec, const Dims& d,
                                          const Style& style, engine::BackendKind backend,
                                          FollowUp follow_up = FollowUp::other_runs);
// The same paragraphs, each with the findings it words (pointers into `result`, in order): what the
// diagnostic lines after it mark (diagnostic.h).
struct FindingParagraph {
  std::string text;
  std::vector<const engine::Finding*> shown;
};
std::vector<FindingParagraph> explain_finding_paragraphs(const engine::LaunchResult& result, const PuzzleSpec& spec,
                                                        const Dims& d, const Style& style,
                                                        engine::BackendKind backend,
                                                        FollowUp follow_up = FollowUp::other_runs);
// What a finding is, as its explanation starts: "Shared-memory race", "Out-of-bounds read".
// Empty for a kind that has no words yet.
std::string finding_title(const engine::Finding& f);
// A finding in one line, without the advice, for the diagnostic lines that editors and CI read
// (diagnostic.h): its explanation's first sentence, from the same code, in lower case like gcc's
// messages ("shared-memory race: in block (0,0), ..."). Empty for a kind that has no words yet.
std::string finding_summary(const engine::Finding& f, bool gpu = false);
// The same for the memory limits' findings (explain_bank_conflicts, explain_scattered_loads).
std::string bank_conflicts_summary(const engine::AccessProfile& worst, const PuzzleSpec& spec);
std::string scattered_loads_summary(const engine::AccessProfile& worst, double sectors_per_request,
                                    const PuzzleSpec& spec);
std::string explain_unwritten(const Comparison& c, const PuzzleSpec& spec, const Style& style);
// The GPU a puzzle's kernels need, in words: "an Ampere GPU or newer (sm_80)".
std::string gpu_requirement_words(const PuzzleSpec& spec);
// `examples`: how many wrong elements to list with their values (fewer when a window of
// values is printed too).
std::string explain_wrong(const Comparison& c, const Reference& ref, const std::vector<float>& out,
                          const PuzzleSpec& spec, const Style& style, std::size_t examples = 5);
// auto with a GPU, when the GPU's values were right and the CPU backend's run of the same case
// got wrong or unwritten elements: said as that run's, so that it does not contradict the
// GPU's buffers printed above it. `after_finding`: a finding printed before it explains them.
std::string explain_cpu_run_values(const Comparison& c, const Reference& ref, const std::vector<float>& out,
                                   const PuzzleSpec& spec, const Style& style, bool after_finding);
std::string explain_budget(const engine::LaunchStats& stats, std::uint64_t budget, const PuzzleSpec& spec,
                           const Dims& d, const Style& style);
// The spec's memory limits, from the engine's profile of the worst source location.
std::string explain_bank_conflicts(const engine::AccessProfile& worst, const PuzzleSpec& spec, const Style& style);
std::string explain_scattered_loads(const engine::AccessProfile& worst, double sectors_per_request,
                                    const PuzzleSpec& spec, const Style& style);
std::string explain_order_dependence(engine::ThreadOrder first, engine::ThreadOrder other, const Style& style);
std::string explain_refused(const engine::LaunchRejection& rejection, const Style& style);
// CUDA's error and the rule the launch broke, in one sentence without a full stop:
// "invalid configuration argument: the block (1025,1,1) has 1025 threads; ...".
std::string refusal_words(const engine::LaunchRejection& rejection);
// "Every tile of c (one per block) has elements never written."
std::string explain_uniform_map(char mark, const std::string& output_name);

// --backend=auto with a GPU: each case runs on the GPU, then (the small ones) under the CPU
// backend's checks. These word how the two runs relate.
//
// A GPU crash or time limit, said once, before what the CPU backend made of the same case.
std::string explain_gpu_stop(const engine::Finding& f, const Style& style);
// Before the CPU backend's findings for a case: `names_thread` when it reproduced the
// GPU's crash or time limit and names the thread.
std::string cpu_lead_in(bool names_thread);
// The CPU backend ran the case and found nothing, though the GPU's run failed.
std::string cpu_found_nothing(bool gpu_stopped);
// The GPU's run failed on a case too large for the CPU backend's checks.
std::string too_large_for_cpu(const PuzzleSpec& spec, const Dims& d, const std::string& cpu_sizes, bool gpu_stopped);
// A GPU canary write that the CPU backend's run of the same case did not reproduce.
std::string canary_not_reproduced();

// Why this backend, in one line under "Backend:" ("auto: a CUDA device was found."); empty
// when the student named the backend.
std::string backend_reason_words(const BackendReason& reason, const PuzzleSpec& spec);
// Why no GPU can be used, in one clause: "no CUDA device was found".
std::string gpu_unavailable_words(const engine::GpuUnavailable& facts);

// The header's list of checks per backend, and what the GPU alone cannot check.
std::string cpu_checks(const PuzzleSpec& spec, bool instrumented);
std::string gpu_checks();
std::string gpu_alone_cannot_check();

// "line 23 of p04_tiled.cu", or "" when unknown.
std::string where_in_source(const engine::SourceLocation& at);

}  // namespace checker

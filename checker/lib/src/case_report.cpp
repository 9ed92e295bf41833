#include "case_report.h"

#include <cstdio>
#include <set>

#include "checker/tile_map.h"
#include "checker/value_window.h"

namespace checker {
namespace {

using engine::Finding;
using engine::FindingKind;

// Outputs and inputs up to this many elements are printed whole, as flat lists.
constexpr std::size_t kSmallBuffer = 16;

const Finding* stopping_finding(const engine::LaunchResult& r) {
  for (FindingKind kind : {FindingKind::fault, FindingKind::timeout})
    for (const Finding& f : r.findings)
      if (f.kind == kind) return &f;
  return nullptr;
}

bool has_out_of_bounds(const engine::LaunchResult& r) {
  for (const Finding& f : r.findings)
    if (f.kind == FindingKind::out_of_bounds || f.kind == FindingKind::shared_out_of_bounds) return true;
  return false;
}

// The result without the GPU's out-of-bounds findings: the CPU backend's say the same with
// the thread and the line.
engine::LaunchResult without_out_of_bounds(const engine::LaunchResult& r) {
  engine::LaunchResult kept;
  kept.stats = r.stats;
  for (const Finding& f : r.findings)
    if (f.kind != FindingKind::out_of_bounds) kept.add(f);
  return kept;
}

}  // namespace

CaseReport::CaseReport(const PuzzleSpec& spec, const Style& style,
                       std::string cpu_sizes)
    : spec_(spec), st_(style), cpu_sizes_(std::move(cpu_sizes)) {}

bool CaseReport::small(const CaseInputs& in) const {
  const Problem& p = in.problem;
  return p.a.size() <= kSmallBuffer && p.b.size() <= kSmallBuffer && p.c_in.size() <= kSmallBuffer;
}

bool CaseReport::print_single(const Case& c, const CaseInputs& in, const BackendOutcome& o, FollowUp follow_up) {
  if (o.refused()) {
    print_paragraph(explain_refused(o.launch.rejected, st_));
    return false;
  }
  if (small(in) && !o.out.empty() && !o.later_order) print_buffers(in, o.out);
  if (o.later_order && !o.launch.findings.empty())
    std::printf("  With the threads in %s order:\n", engine::to_string(o.order));
  for (const Paragraph& p : finding_paragraphs(o.launch, c.dims, o.backend, follow_up)) print_paragraph(p);
  if (o.stopped()) return false;
  print_values(c, in, o, o.out_of_bounds_blocks());
  if (o.over_budget) print_paragraph(explain_budget(o.launch.stats, o.load_budget, spec_, c.dims, st_));
  for (const Paragraph& p : memory_paragraphs(o)) print_paragraph(p);
  if (o.order_dependent) print_paragraph(explain_order_dependence(o.first_order, o.order, st_));
  return o.passed();
}

bool CaseReport::print_auto(const Case& c, const CaseInputs& in, const BackendOutcome& gpu, const BackendOutcome* cpu) {
  if (gpu.refused()) {  // the same check runs on both backends: once is enough
    print_paragraph(explain_refused(gpu.launch.rejected, st_));
    return false;
  }
  if (small(in) && !gpu.out.empty()) print_buffers(in, gpu.out);

  if (gpu.stopped()) {
    if (const Finding* f = stopping_finding(gpu.launch)) print_paragraph(explain_gpu_stop(*f, st_));
    if (!cpu) {
      print_paragraph(too_large_for_cpu(spec_, c.dims, cpu_sizes_, true));
      return false;
    }
    std::vector<Paragraph> found = paragraphs(c, in, *cpu, FollowUp::none, CpuValues::only_values);
    const Finding* cpu_stop = stopping_finding(cpu->launch);
    if (found.empty() && cpu->passed()) {
      print_paragraph(cpu_found_nothing(true));
    } else {
      print_paragraph(cpu_lead_in(cpu_stop && cpu_stop->thread_known));
      for (const Paragraph& p : found) print_paragraph(p);
    }
    return false;
  }

  // The GPU's own findings (canaries), unless the CPU backend names the same mistake better.
  bool cpu_saw_bounds = cpu && has_out_of_bounds(cpu->launch);
  engine::LaunchResult gpu_findings = cpu_saw_bounds ? without_out_of_bounds(gpu.launch) : gpu.launch;
  // Where to look further is said once: by the CPU backend's findings below, or by the
  // paragraph on cases too large for it, or (that said already) after each GPU finding.
  bool too_large_said_now = !cpu && !gpu.passed() && !too_large_said_;
  FollowUp follow_up = cpu || too_large_said_now ? FollowUp::none : FollowUp::other_runs;
  for (const Paragraph& p : finding_paragraphs(gpu_findings, c.dims, engine::BackendKind::gpu, follow_up))
    print_paragraph(p);
  if (cpu && !cpu_saw_bounds && has_out_of_bounds(gpu.launch)) print_paragraph(canary_not_reproduced());

  std::vector<engine::Dim3> blocks = cpu ? cpu->out_of_bounds_blocks() : std::vector<engine::Dim3>{};
  print_values(c, in, gpu, blocks);

  bool gpu_values_ok = gpu.compared && gpu.comparison.ok();
  if (cpu) {
    std::vector<Paragraph> found = paragraphs(c, in, *cpu, FollowUp::none,
                                              gpu_values_ok ? CpuValues::beside_right_gpu_values : CpuValues::omit);
    if (!found.empty()) {
      print_paragraph(cpu_lead_in(false));
      for (const Paragraph& p : found) print_paragraph(p);
    } else if (!gpu.passed() && cpu->passed()) {
      print_paragraph(cpu_found_nothing(false));
    }
    return gpu.passed() && cpu->passed();
  }
  if (!gpu.passed() && !too_large_said_) {
    print_paragraph(too_large_for_cpu(spec_, c.dims, cpu_sizes_, false));
    too_large_said_ = true;
  }
  return gpu.passed();
}

std::vector<CaseReport::Paragraph> CaseReport::paragraphs(const Case& c, const CaseInputs& in,
                                                          const BackendOutcome& o, FollowUp follow_up,
                                                          CpuValues values) const {
  if (o.refused()) return {{explain_refused(o.launch.rejected, st_), {}}};
  std::vector<Paragraph> out = finding_paragraphs(o.launch, c.dims, o.backend, follow_up);
  if (o.later_order && !out.empty())
    out.front().text = "With the threads in " + std::string(engine::to_string(o.order)) + " order:\n" + out.front().text;
  if (o.compared && !o.comparison.ok()) {
    if (values == CpuValues::only_values) {
      if (o.comparison.unwritten) out.push_back({explain_unwritten(o.comparison, spec_, st_), {}});
      if (o.comparison.wrong) out.push_back({explain_wrong(o.comparison, in.reference, o.out, spec_, st_), {}});
    } else if (values == CpuValues::beside_right_gpu_values) {
      out.push_back({explain_cpu_run_values(o.comparison, in.reference, o.out, spec_, st_, !out.empty()), {}});
    }
  }
  if (o.over_budget) out.push_back({explain_budget(o.launch.stats, o.load_budget, spec_, c.dims, st_), {}});
  for (Paragraph& p : memory_paragraphs(o)) out.push_back(std::move(p));
  if (o.order_dependent) out.push_back({explain_order_dependence(o.first_order, o.order, st_), {}});
  return out;
}

std::vector<CaseReport::Paragraph> CaseReport::finding_paragraphs(const engine::LaunchResult& launch, const Dims& d,
                                                                  engine::BackendKind backend,
                                                                  FollowUp follow_up) const {
  std::vector<Paragraph> out;
  bool gpu = backend == engine::BackendKind::gpu;
  for (const FindingParagraph& fp : explain_finding_paragraphs(launch, spec_, d, st_, backend, follow_up)) {
    Paragraph p{fp.text, {}};
    // An editor marks lines: the instances shown that fall on the same lines (four elements of
    // one race, say) give one mark, not four.
    std::set<std::string> marked;
    for (const Finding* f : fp.shown) {
      std::optional<Diagnostic> diagnostic = finding_diagnostic(*f, gpu);
      if (!diagnostic) continue;
      std::string lines = diagnostic->kind + ' ' + diagnostic->at.file + ':' + std::to_string(diagnostic->at.line);
      for (const DiagnosticNote& n : diagnostic->notes) lines += ' ' + n.at.file + ':' + std::to_string(n.at.line);
      if (marked.insert(lines).second) p.diagnostics.push_back(std::move(*diagnostic));
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<CaseReport::Paragraph> CaseReport::memory_paragraphs(const BackendOutcome& o) const {
  std::vector<Paragraph> out;
  if (o.bank_conflicts) {
    Paragraph p{explain_bank_conflicts(*o.bank_conflicts, spec_, st_), {}};
    if (auto d = bank_conflicts_diagnostic(*o.bank_conflicts, spec_)) p.diagnostics.push_back(*d);
    out.push_back(std::move(p));
  }
  if (o.scattered_loads) {
    double per_request = sectors_per_request(*o.scattered_loads);
    Paragraph p{explain_scattered_loads(*o.scattered_loads, per_request, spec_, st_), {}};
    if (auto d = scattered_loads_diagnostic(*o.scattered_loads, per_request, spec_)) p.diagnostics.push_back(*d);
    out.push_back(std::move(p));
  }
  return out;
}

void CaseReport::print_values(const Case& c, const CaseInputs& in, const BackendOutcome& o,
                              const std::vector<engine::Dim3>& out_of_bounds_blocks) {
  if (!o.compared || o.comparison.ok()) return;
  const Comparison& cmp = o.comparison;
  bool views = !small(in);
  bool window_now = views && !window_shown_;
  if (cmp.unwritten) print_paragraph(explain_unwritten(cmp, spec_, st_));
  if (cmp.wrong) print_paragraph(explain_wrong(cmp, in.reference, o.out, spec_, st_, window_now ? 1 : 5));
  if (!views) return;
  if (window_now) {
    print_lines(render_window(cmp, in.reference, o.out, spec_.output_name, st_));
    window_shown_ = true;
  }
  WindowSpan span = window_around(c.dims, 0);
  bool window_is_all = span.rows == c.dims.m && span.cols == c.dims.n;
  TileMap map = make_tile_map(cmp, spec_.tile_for(c.dims), out_of_bounds_blocks, o.config.grid);
  if (map_shown_ || window_is_all || map.tiles_down * map.tiles_across < 2) return;
  map_shown_ = true;
  if (map.uniform() && !map.has(TileMark::out_of_bounds)) {
    print_paragraph(explain_uniform_map(map.lines[0][0], spec_.output_name));
    return;
  }
  print_lines(render_tile_map(map, spec_.output_name, st_));
}

void CaseReport::print_buffers(const CaseInputs& in, const std::vector<float>& out) const {
  const Problem& p = in.problem;
  std::printf("  a:        %s\n", format_list(p.a).c_str());
  std::printf("  b:        %s\n", format_list(p.b).c_str());
  if (spec_.epilogue == Epilogue::alpha_beta)
    std::printf("  alpha = %s, beta = %s, %s before the launch: %s\n", format_value(p.alpha).c_str(),
                format_value(p.beta).c_str(), spec_.output_name.c_str(), format_list(p.c_in).c_str());
  std::string name = spec_.output_name + ":";
  std::printf("  %-9s %s\n", name.c_str(), format_list(out).c_str());
  std::printf("  expected: %s\n", format_list(in.reference.value).c_str());
}

void CaseReport::print_paragraph(const std::string& text) const {
  std::string indented = "  ";
  for (char ch : text) {
    indented += ch;
    if (ch == '\n') indented += "  ";
  }
  std::printf("%s\n", indented.c_str());
}

// The diagnostic lines start at the line's start, unstyled: that is where tools look for them.
void CaseReport::print_paragraph(const Paragraph& p) {
  print_paragraph(p.text);
  for (const Diagnostic& d : p.diagnostics)
    for (const std::string& line : lines_.lines(d)) std::printf("%s\n", line.c_str());
}

void CaseReport::print_lines(const std::vector<std::string>& lines) const {
  for (const std::string& line : lines) std::printf("  %s\n", line.c_str());
}

}  // namespace checker

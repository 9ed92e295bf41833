#include "checker/program_report.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "checker/explain.h"
#include "checker/output.h"
#include "cuda_cpu/host_launch.h"
#include "json_report.h"

namespace checker {
namespace {

using nlohmann::json;

std::mutex report_lock;
unsigned launches = 0;

Style stderr_style() {
  const char* no_colour = std::getenv("NO_COLOR");
  return Style(isatty(2) && (no_colour == nullptr || *no_colour == '\0'));
}

// One line of facts, appended to the report file (opened for each line: the program may
// fork, crash or _exit at any point, and every line written must be whole).
void record(const json& line) {
  const char* path = std::getenv("PUZZLES_PROGRAM_REPORT");
  if (path == nullptr || *path == '\0') return;
  if (std::FILE* f = std::fopen(path, "a")) {
    std::fputs((line.dump() + "\n").c_str(), f);
    std::fclose(f);
  }
}

json dim3_json(const engine::Dim3& d) { return json::array({d.x, d.y, d.z}); }

// A program has no puzzle: no matrices to name and no puzzle's fix to suggest.
const PuzzleSpec& program_spec() {
  static const PuzzleSpec spec = [] {
    PuzzleSpec s;
    s.id = "program";
    s.guard_hint = "check the index against the buffer's size before the access";
    return s;
  }();
  return spec;
}

std::string config_words(const cuda_cpu::HostLaunch& l) {
  std::string s = "<<<" + l.grid.index_str() + ", " + l.block.index_str();
  if (l.dynamic_shared_bytes) s += ", " + std::to_string(l.dynamic_shared_bytes);
  return s + ">>>";
}

void on_launch(const cuda_cpu::HostLaunch& l) {
  std::lock_guard<std::mutex> hold(report_lock);
  const unsigned number = ++launches;
  const engine::LaunchResult& r = *l.result;
  json findings = json::array(), totals = json::object();
  for (engine::FindingKind kind : finding_order())
    for (const engine::Finding& f : r.findings)
      if (f.kind == kind) findings.push_back(finding_json(f));
  for (std::size_t k = 0; k < r.totals.size(); ++k)
    if (r.totals[k]) {
      engine::Finding probe;
      probe.kind = static_cast<engine::FindingKind>(k);
      totals[finding_json(probe)["kind"].get<std::string>()] = r.totals[k];
    }
  json at = l.line ? json{{"file", l.file}, {"line", l.line}} : json(nullptr);
  record({{"event", "launch"},
          {"index", number},
          {"kernel", l.kernel},
          {"at", at},
          {"grid", dim3_json(l.grid)},
          {"block", dim3_json(l.block)},
          {"dynamic_shared_bytes", l.dynamic_shared_bytes},
          {"cluster", l.cluster.count() > 1 ? dim3_json(l.cluster) : json(nullptr)},
          {"ran", l.ran},
          {"cuda_error", l.cuda_error_name},
          {"refused", r.rejected.refused() ? rejection_json(r.rejected) : json(nullptr)},
          {"findings", findings},
          {"finding_totals", totals}});

  const bool skipped = !l.ran && !r.rejected.refused() && l.cuda_error != 0;
  if (r.clean() && !skipped && l.cuda_error == 0) return;
  const Style st = stderr_style();
  std::string where = l.line ? " (line " + std::to_string(l.line) + ")" : "";
  std::string head = st.bold("Launch " + std::to_string(number)) + ": " + l.kernel + config_words(l) + where;
  std::string text;
  if (r.rejected.refused()) {
    text = explain_refused(r.rejected, st);
  } else if (skipped) {
    text = std::string("not run: an earlier launch left the error ") + l.cuda_error_name +
           ", and every later launch returns it, as on a GPU.";
  } else {
    for (const std::string& s : explain_findings(r, program_spec(), Dims{}, st, engine::BackendKind::cpu))
      text += (text.empty() ? "" : "\n") + s;
  }
  if (l.cuda_error != 0 && !skipped)
    text += std::string(text.empty() ? "" : "\n") + "The launch returns " + l.cuda_error_name + ".";
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n%s\n", head.c_str(), text.c_str());
  std::fflush(stderr);
}

void on_not_modelled(const char* call) {
  record({{"event", "not_modelled"}, {"call", call}});
  const Style st = stderr_style();
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s is not modelled by the CPU backend, so the program stops here (exit status 125). "
                       "docs/programs.md lists what is.\n",
               st.bold("Not modelled").c_str(), call);
}

}  // namespace

bool install_program_report() {
  cuda_cpu::observe_host_launches(&on_launch);
  cuda_cpu::observe_not_modelled(&on_not_modelled);
  return true;
}

}  // namespace checker

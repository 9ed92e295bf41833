#include "checker/program_report.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

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
// Findings, a refusal or a CUDA error: said above. Never destroyed: the summary at exit runs
// after the static destructors of files initialized later, which this one may be.
std::vector<unsigned>& launches_with_findings = *new std::vector<unsigned>;
bool any_finding = false;                     // findings or a refusal: the status says so
pid_t program_pid = 0;                        // the process whose exit is the program's

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
    s.warp_race_hint = true;
    s.guard_hint = "check the index against the buffer's size before the access";
    // A program's launches do their authors' sizes, which can take the CPU backend far longer
    // than a GPU: the limit is each block's (runtime_api.cpp), scaled by the environment
    // (isolated_launch.cpp).
    s.timeout_hint = "PUZZLES_TIME_LIMIT_SCALE=N in the environment gives each block N times as long";
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
  launches_with_findings.push_back(number);
  if (!r.clean() || r.rejected.refused()) any_finding = true;
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

// Once a limit: a program may ask again and again (a buffer per row), and the reason is the same.
void on_allocation_refused(const cuda_cpu::AllocationRefusal& r) {
  using Limit = cuda_cpu::AllocationRefusal::Limit;
  static bool said[3] = {};
  const char* limit = r.limit == Limit::buffer_size    ? "buffer_size"
                      : r.limit == Limit::buffer_count ? "buffer_count"
                                                       : "host_memory";
  record({{"event", "allocation_refused"}, {"limit", limit}, {"bytes", r.bytes}, {"most", r.most}});
  bool& once = said[static_cast<int>(r.limit)];
  if (once) return;
  once = true;
  std::string why;
  if (r.limit == Limit::buffer_size)
    why = "a buffer of " + std::to_string(r.bytes) + " bytes is more than the CPU backend gives one buffer (" +
          std::to_string(r.most >> 20) + " MiB)";
  else if (r.limit == Limit::buffer_count)
    why = "the CPU backend holds at most " + std::to_string(r.most) + " buffers at once";
  else
    why = "this machine has no memory left for a buffer of " + std::to_string(r.bytes) + " bytes";
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s, so the allocation returns cudaErrorMemoryAllocation where a GPU with the memory "
                       "would give it (docs/programs.md).\n",
               stderr_style().bold("Note").c_str(), why.c_str());
  std::fflush(stderr);
}

// At the program's exit, as compute-sanitizer's summary: the launches, and which found
// something. A program that exits 0 after a finding exits 1 instead, so that a script or a
// Makefile can test it, unless a report file is named: then the tool reading it decides
// (checker/run, whose summary gives the program's own status too).
void summary_at_exit(int status, void*) {
  if (getpid() != program_pid) return;  // a child the program forked
  std::lock_guard<std::mutex> hold(report_lock);
  const Style st = stderr_style();
  std::string line = std::to_string(launches) + (launches == 1 ? " launch" : " launches");
  if (launches == 0) {
    line = "No kernel launches.";
  } else if (launches_with_findings.empty()) {
    line += ", no findings.";
  } else {
    std::string numbers;
    for (unsigned n : launches_with_findings) numbers += (numbers.empty() ? "" : ", ") + std::to_string(n);
    line = st.red(line + "; findings or errors in launch" + (launches_with_findings.size() > 1 ? "es " : " ") +
                  numbers + " (above).");
  }
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  const char* report = std::getenv("PUZZLES_PROGRAM_REPORT");
  if (status == 0 && any_finding && (report == nullptr || *report == '\0')) {
    std::fflush(nullptr);
    _exit(1);
  }
}

}  // namespace

bool install_program_report() {
  cuda_cpu::observe_host_launches(&on_launch);
  cuda_cpu::observe_not_modelled(&on_not_modelled);
  cuda_cpu::observe_allocation_refusals(&on_allocation_refused);
  program_pid = getpid();
  on_exit(&summary_at_exit, nullptr);
  return true;
}

}  // namespace checker

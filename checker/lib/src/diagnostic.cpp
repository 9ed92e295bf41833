#include "checker/diagnostic.h"

#include "checker/explain.h"
#include "explain_words.h"
#include "json_report.h"

namespace checker {
namespace {

using engine::Finding;
using engine::FindingKind;
using words::plural;
using words::shared_element;
using words::thread_list;

bool placed(const engine::SourceLocation& at) { return at.known() && !at.file.empty(); }

// "async_proxy" -> "async proxy": a kind's name, for kinds without words of their own.
std::string kind_words(FindingKind kind) {
  std::string s = finding_kind_name(kind);
  for (char& c : s)
    if (c == '_') c = ' ';
  return s;
}

// Where the line's function was called from, innermost first: a note on each call.
void add_calls(const engine::SourceLocation& at, std::vector<DiagnosticNote>& notes) {
  for (int line : at.called_from) {
    engine::SourceLocation call{at.file, line, false, {}};
    notes.push_back({call, "called from here"});
  }
}

// The note on the other thread's line: what it did there.
std::string other_words(const Finding& f) {
  using Use = Finding::AsyncUse;
  std::string who = f.other.str();
  switch (f.kind) {
    case FindingKind::shared_race:
      return who + (f.other_is_write ? " wrote " : " read ") + shared_element(f) + " here, the other side of the race";
    case FindingKind::async_copy: return who + " issued the asynchronous copy here";
    case FindingKind::async_proxy:
      switch (f.async_use) {
        case Use::tma_write_pending: return who + " issued the tensor copy here";
        case Use::wgmma_reading: return "the wgmma of the warpgroup of " + who + " was issued here";
        case Use::bulk_store_reading: return who + " issued the tensor store here";
        case Use::swizzle_mismatch: return who + " issued the tensor copy that wrote " + shared_element(f) + " here";
        case Use::none: break;
      }
      break;
    case FindingKind::proxy_fence:
      return "thread " + f.other.thread.index_str() + " wrote " + shared_element(f) +
             " here, with no fence.proxy.async after it";
    case FindingKind::wgmma_accumulator: return "the wgmma that owns the register was issued here";
    default: break;
  }
  return "the other thread, " + who + ", was here";
}

// A group of threads that wait (or were stopped) at a line: who they are and where they wait.
std::string group_words(const engine::ThreadGroup& g) {
  std::string who = plural(g.count, "thread", "threads") + " (" + thread_list(g.sample, g.count) + ")";
  bool one = g.count == 1;
  if (g.waits_for.empty()) return who + (one ? " was stopped here" : " were stopped here");
  return who + (one ? " waits at " : " wait at ") + g.waits_for + " here";
}

}  // namespace

std::string generic_finding_summary(const Finding& f) {
  std::string s = kind_words(f.kind);
  if (f.thread_known) s += " in " + f.where.str();
  if (!f.buffer.empty()) s += " (" + (f.is_shared ? shared_element(f) : words::element(f)) + ")";
  if (!f.detail.empty()) s += ": " + f.detail;
  return s;
}

std::optional<Diagnostic> finding_diagnostic(const Finding& f, bool gpu) {
  Diagnostic d;
  d.kind = finding_kind_name(f.kind);
  d.title = finding_title(f);
  if (d.title.empty()) {
    d.title = kind_words(f.kind);
    d.title[0] = static_cast<char>(d.title[0] - 'a' + 'A');
  }
  d.summary = finding_summary(f, gpu);
  if (d.summary.empty()) d.summary = generic_finding_summary(f);
  // The line it happened on; barrier findings have none of their own, but their waiting groups do.
  const engine::ThreadGroup* at_group = nullptr;
  if (placed(f.at)) {
    d.at = f.at;
  } else {
    for (const engine::ThreadGroup& g : f.groups)
      if (!g.returned && placed(g.barrier)) {
        at_group = &g;
        d.at = g.barrier;
        break;
      }
    if (!at_group) return std::nullopt;
  }
  add_calls(d.at, d.notes);
  if (placed(f.other_at)) {
    d.notes.push_back({f.other_at, other_words(f)});
    add_calls(f.other_at, d.notes);
  }
  for (const engine::ThreadGroup& g : f.groups) {
    if (&g == at_group || g.returned || !placed(g.barrier)) continue;
    d.notes.push_back({g.barrier, group_words(g)});
    add_calls(g.barrier, d.notes);
  }
  return d;
}

std::optional<Diagnostic> bank_conflicts_diagnostic(const engine::AccessProfile& worst, const PuzzleSpec& spec) {
  if (!placed(worst.at)) return std::nullopt;
  Diagnostic d{"bank_conflicts", "Bank conflicts", worst.at, bank_conflicts_summary(worst, spec), {}};
  add_calls(d.at, d.notes);
  return d;
}

std::optional<Diagnostic> scattered_loads_diagnostic(const engine::AccessProfile& worst, double sectors_per_request,
                                                     const PuzzleSpec& spec) {
  if (!placed(worst.at)) return std::nullopt;
  Diagnostic d{"scattered_loads", "Scattered global loads", worst.at,
               scattered_loads_summary(worst, sectors_per_request, spec), {}};
  add_calls(d.at, d.notes);
  return d;
}

}  // namespace checker

#include "checker/explain.h"

#include <cstdio>

#include "checker/shared_shapes.h"

namespace checker {
namespace {

using engine::Finding;
using engine::FindingKind;

std::string basename_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string at_line(const engine::SourceLocation& at) {
  std::string w = where_in_source(at);
  return w.empty() ? "" : " at " + w;
}

std::string plural(std::uint64_t count, const std::string& one, const std::string& many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string thread_list(const std::vector<engine::Dim3>& sample, std::uint64_t count) {
  std::string s;
  for (std::size_t i = 0; i < sample.size(); ++i) s += (i ? ", " : "") + sample[i].index_str();
  if (count > sample.size()) s += " and " + std::to_string(count - sample.size()) + " more";
  return s;
}

std::string element(const Finding& f) {
  std::string s = f.buffer + "[" + std::to_string(f.index) + "]";
  return s;
}

// The rows and columns of the buffer a finding names, when it is one of the puzzle's matrices.
std::pair<long, long> matrix_shape(const std::string& buffer, const PuzzleSpec& spec, const Dims& d) {
  if (buffer == "a") return {d.m, d.k};
  if (buffer == "b") return {d.k, d.n};
  if (buffer == spec.output_name) return {d.m, d.n};
  return {0, 0};
}

std::string out_of_bounds(const Finding& f, const PuzzleSpec& spec, const Dims& d, const Style& st, bool first) {
  std::string what = f.is_write ? "wrote" : "read";
  std::string who = f.thread_known ? f.where.str() : "a thread (the GPU cannot say which)";
  std::string s = who + " " + what + " " + element(f) + at_line(f.at);
  if (!first) return s;
  s = st.bold(f.is_write ? "Out-of-bounds write" : "Out-of-bounds read") + ": " + s + ", but " + f.buffer +
      " has " + std::to_string(f.buffer_elements) + " elements (" + f.buffer + "[0] to " + f.buffer + "[" +
      std::to_string(f.buffer_elements - 1) + "])";
  auto [rows, cols] = matrix_shape(f.buffer, spec, d);
  if (rows > 0 && f.buffer_elements == static_cast<long long>(rows) * cols)
    s += "; as a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix, index " + std::to_string(f.index) +
         " would be " + element_name(f.index, cols);
  s += f.thread_known ? ". The access was stopped before it happened." : ".";
  if (!f.detail.empty()) s += " (" + f.detail + ".)";
  s += "\nFix: " + spec.guard_hint + ".";
  if (!f.thread_known) s += "\nTo find the thread, run with --backend=cpu, or with --sanitize.";
  return s;
}

std::string shared_out_of_bounds(const Finding& f, const Style& st, bool first) {
  std::string s = f.where.str() + (f.is_write ? " wrote" : " read") + " element " + std::to_string(f.index) +
                  " of the extern __shared__ memory" + at_line(f.at);
  if (!first) return s;
  return st.bold("Out-of-bounds shared memory") + ": " + s + ", but the launch gave the block only " +
         std::to_string(f.buffer_elements) + " elements of it.\nFix: size the launch's dynamic shared memory "
         "for every element the block uses, or guard the index.";
}

std::string race(const Finding& f, const std::map<std::string, std::vector<long>>& shapes, const Style& st,
                 bool first) {
  std::string elem = shared_element(f.buffer, f.index, shapes);
  auto access = [](bool write, const engine::Dim3& thread, const engine::SourceLocation& at) {
    return std::string(write ? "written" : "read") + " by thread " + thread.index_str() + at_line(at);
  };
  std::string s = "in block " + f.where.block.index_str() + ", " + elem + " was " +
                  access(f.other_is_write, f.other.thread, f.other_at) + " and " +
                  access(f.is_write, f.where.thread, f.at) + ", with no __syncthreads() between the two";
  if (!first) return s;
  std::string why = f.is_write && f.other_is_write
                        ? "Which value stays depends on which thread runs last. Give each element one writer, "
                          "or separate the writes with __syncthreads()."
                        : "What the reader gets depends on which thread runs first. A block needs a "
                          "__syncthreads() between writing shared memory and reading what other threads wrote, "
                          "and, in a loop, another between the last read and the next overwrite.";
  return st.bold("Shared-memory race") + ": " + s + ".\n" + why;
}

std::string divergence(const Finding& f, const Style& st) {
  std::string s = st.bold("Barrier divergence") + " in block " + f.where.block.index_str() + ": ";
  bool any_returned = false;
  for (std::size_t g = 0; g < f.groups.size(); ++g) {
    const engine::ThreadGroup& group = f.groups[g];
    s += g == 0 ? "" : (g + 1 == f.groups.size() ? ", while " : ", ");
    s += plural(group.count, "thread", "threads") + " (" + thread_list(group.sample, group.count) + ") ";
    if (group.state == "returned") {
      s += group.count == 1 ? "has returned" : "have returned";
      any_returned = true;
    } else {
      s += (group.count == 1 ? "waits" : "wait") + std::string(" at __syncthreads()") + at_line(group.barrier);
    }
  }
  s += ". The waiting threads would wait forever: every thread of a block must reach the same __syncthreads().";
  s += any_returned ? "\nFix: do not return early, and do not put __syncthreads() inside an if that only "
                      "some threads enter; guard the loads and the store instead, and let every thread "
                      "reach every barrier."
                    : "\nFix: use one __syncthreads() that all threads reach, outside any if or loop "
                      "that threads leave at different times.";
  return s + "\nThe block was stopped.";
}

std::string fault(const Finding& f, const Style& st) {
  std::string who = f.thread_known ? " in " + f.where.str() : "";
  return st.bold("Crash") + who + at_line(f.at) + ": " + f.detail + ".\nThe kernel was stopped.";
}

std::string timeout(const Finding& f, const Style& st, bool first) {
  std::string s = f.thread_known ? f.where.str() + " was " + f.detail : f.detail;
  if (!first) return s;
  return st.bold("Time limit") + ": " + s +
         " (change the limit with --timeout). An endless loop? Check that every loop's condition "
         "eventually fails, and that no thread waits for something that never happens.";
}

}  // namespace

std::string where_in_source(const engine::SourceLocation& at) {
  if (!at.known()) return "";
  return "line " + std::to_string(at.line) + (at.file.empty() ? "" : " of " + basename_of(at.file));
}

std::vector<std::string> explain_findings(const engine::LaunchResult& result, const PuzzleSpec& spec, const Dims& d,
                                          const std::map<std::string, std::vector<long>>& shapes,
                                          const Style& st) {
  std::vector<std::string> out;
  const FindingKind order[] = {FindingKind::fault,        FindingKind::timeout,
                               FindingKind::out_of_bounds, FindingKind::shared_out_of_bounds,
                               FindingKind::barrier_divergence, FindingKind::shared_race};
  for (FindingKind kind : order) {
    std::vector<const Finding*> of_kind;
    for (const Finding& f : result.findings)
      if (f.kind == kind) of_kind.push_back(&f);
    if (of_kind.empty()) continue;
    std::string text;
    for (std::size_t i = 0; i < of_kind.size(); ++i) {
      const Finding& f = *of_kind[i];
      std::string piece;
      switch (kind) {
        case FindingKind::out_of_bounds: piece = out_of_bounds(f, spec, d, st, i == 0); break;
        case FindingKind::shared_out_of_bounds: piece = shared_out_of_bounds(f, st, i == 0); break;
        case FindingKind::shared_race: piece = race(f, shapes, st, i == 0); break;
        case FindingKind::barrier_divergence: piece = i == 0 ? divergence(f, st) : ""; break;
        case FindingKind::fault: piece = i == 0 ? fault(f, st) : ""; break;
        case FindingKind::timeout: piece = timeout(f, st, i == 0); break;
      }
      if (piece.empty()) continue;
      text += i == 0 ? piece : "\nAlso: " + piece + ".";
    }
    std::uint64_t total = result.total(kind);
    if (total > of_kind.size() && kind != FindingKind::fault && kind != FindingKind::barrier_divergence)
      text += "\n(" + std::to_string(total) + " such findings in all; the first " +
              std::to_string(of_kind.size()) + " are shown.)";
    out.push_back(text);
  }
  return out;
}

std::string explain_unwritten(const Comparison& c, const PuzzleSpec& spec, const Style& st) {
  std::string held = spec.epilogue == Epilogue::alpha_beta ? "they still hold their value from before the launch"
                                                           : "they still hold the NaN the checker put there";
  std::string s = st.bold("Unwritten output") + ": " + std::to_string(c.unwritten) + " of " +
                  std::to_string(c.marks.size()) + " elements of " + spec.output_name + " were never written (" + held +
                  "), e.g. ";
  for (std::size_t i = 0; i < c.first_unwritten.size(); ++i)
    s += (i ? ", " : "") + element_name(static_cast<long long>(c.first_unwritten[i]), c.dims.n);
  return s + ".\nDoes every element of " + spec.output_name +
         " have a thread that writes it? Check the grid, the loops and the guards.";
}

std::string explain_wrong(const Comparison& c, const Reference& ref, const std::vector<float>& out,
                          const PuzzleSpec& spec, const Style& st) {
  std::string s = st.bold("Wrong values") + ": " + std::to_string(c.wrong) + " of " +
                  std::to_string(c.marks.size()) + " elements of " + spec.output_name + " are wrong, e.g.";
  for (std::size_t i : c.first_wrong)
    s += "\n  " + element_name(static_cast<long long>(i), c.dims.n) + ": expected " + format_value(ref.value[i]) +
         ", got " + format_value(out[i]);
  return s;
}

std::string explain_budget(const engine::LaunchStats& stats, std::uint64_t budget, const PuzzleSpec& spec,
                           const Dims& d, const Style& st) {
  const Limit& limit = *spec.limits.global_loads_per_thread;
  return st.bold("Too many global loads") + ": " + stats.max_loads_thread.str() + " read global memory " +
         std::to_string(stats.max_global_loads) + " times; this puzzle allows " + std::to_string(budget) + " (" +
         spec.formula_words(limit.max) + " at " + spec.size_words(d) + ": " + limit.why +
         ").\nThe values are right, but the kernel reads a and b straight from global memory, which is "
         "what this puzzle teaches you to avoid: load each element into shared memory once, then read it "
         "from there.";
}

}  // namespace checker

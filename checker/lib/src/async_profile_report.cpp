#include "async_profile_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

#include "profile_report.h"

namespace checker {
namespace {

using Op = engine::WarpgroupMmaProfile::Op;

// The kernel's own line: where a PTX wrapper was called from (its outermost caller in the
// kernel's file), else the instruction's line. The loads of a and of b go through one wrapper.
int kernel_line(const engine::SourceLocation& at) { return at.called_from.empty() ? at.line : at.called_from.back(); }

std::string copy_words(const TensorCopyRow& r) { return r.store ? "store" : r.multicast ? "multicast" : "load"; }

}  // namespace

std::vector<TensorCopyRow> tensor_copy_rows(const engine::LaunchResult& profiled) {
  std::map<std::tuple<int, bool, bool, std::string>, TensorCopyRow> merged;
  for (const engine::TensorCopyProfile& t : profiled.tensor_copies) {
    TensorCopyRow& r = merged[{kernel_line(t.at), t.store, t.multicast, t.barrier}];
    r.line = kernel_line(t.at);
    r.approximate = r.approximate || t.at.approximate;
    r.store = t.store;
    r.multicast = t.multicast;
    r.barrier = t.barrier;
    r.copies += t.copies;
    r.bytes += t.bytes;
    r.phases = std::max(r.phases, t.phases);
  }
  std::vector<TensorCopyRow> rows;
  for (const auto& [key, r] : merged) rows.push_back(r);
  return rows;  // by line, loads before stores, then by mbarrier
}

std::vector<WarpgroupMmaRow> warpgroup_mma_rows(const engine::LaunchResult& profiled) {
  std::map<std::tuple<unsigned, int, Op, unsigned>, WarpgroupMmaRow> merged;
  for (const engine::WarpgroupMmaProfile& w : profiled.warpgroup_mma) {
    WarpgroupMmaRow& r = merged[{w.warpgroup, kernel_line(w.at), w.op, w.n}];
    r.warpgroup = w.warpgroup;
    r.line = kernel_line(w.at);
    r.approximate = r.approximate || w.at.approximate;
    r.op = w.op;
    r.n = w.n;
    r.instructions += w.instructions;
    r.flops += w.flops;
  }
  std::vector<WarpgroupMmaRow> rows;
  for (const auto& [key, r] : merged) rows.push_back(r);
  return rows;  // by warpgroup, then line
}

std::string instruction_words(const WarpgroupMmaRow& r) {
  switch (r.op) {
    case Op::mma: return "m64n" + std::to_string(r.n) + "k16";
    case Op::commit_group: return "commit_group";
    case Op::wait_group: return "wait_group " + std::to_string(r.n);
  }
  return "";
}

void print_async_profile(const CpuMeasure& measure, const std::string& source, const Style& st) {
  if (!measure.profiled) return;
  std::vector<TensorCopyRow> copies = tensor_copy_rows(measure.profile_run);
  std::vector<WarpgroupMmaRow> mmas = warpgroup_mma_rows(measure.profile_run);
  if (copies.empty() && mmas.empty()) return;
  std::vector<std::string> lines = read_lines(source);
  const char* moved = "~: the compiler moved this code; the line is the nearest one. ";
  if (!copies.empty()) {
    bool approximate = false;
    std::printf("%s\n", st.bold("Tensor copies (TMA), per line and mbarrier").c_str());
    std::printf("  %5s  %-9s %-16s %7s %11s %7s %11s  %s\n", "line", "copy", "mbarrier", "copies", "bytes", "phases",
                "bytes/phase", "code");
    // An mbarrier that copies of several lines complete: what one phase receives from all of them.
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> per_barrier;  // bytes, phases
    std::map<std::string, unsigned> lines_per_barrier;
    for (const TensorCopyRow& r : copies) {
      approximate = approximate || r.approximate;
      std::string per_phase = r.store || r.phases == 0 ? "" : count_words(double(r.bytes) / double(r.phases));
      std::printf("  %4d%s  %-9s %-16s %7s %11s %7s %11s  %s\n", r.line, r.approximate ? "~" : " ",
                  copy_words(r).c_str(), r.store ? "-" : r.barrier.c_str(), count_words(double(r.copies)).c_str(),
                  count_words(double(r.bytes)).c_str(), r.store ? "" : count_words(double(r.phases)).c_str(),
                  per_phase.c_str(), source_line(lines, r.line).c_str());
      if (r.store) continue;
      auto& b = per_barrier[r.barrier];
      b.first += r.bytes;
      b.second = std::max(b.second, r.phases);
      ++lines_per_barrier[r.barrier];
    }
    std::string shared;
    for (const auto& [barrier, b] : per_barrier)
      if (lines_per_barrier[barrier] > 1 && b.second)
        shared += (shared.empty() ? "" : ", ") + barrier + " " + count_words(double(b.first) / double(b.second));
    if (!shared.empty())
      std::printf("  Bytes per phase from all lines together (what expect_tx should announce): %s.\n", shared.c_str());
    std::printf("  (%sA phase is one use of a stage: the bytes that one completion of its mbarrier waited for. A "
                "multicast copy counts once per CTA it lands in.)\n\n",
                approximate ? moved : "");
  }
  if (!mmas.empty()) {
    bool approximate = false;
    std::printf("%s\n", st.bold("Warpgroup MMA (wgmma), per warpgroup and line").c_str());
    std::printf("  %9s  %5s  %-14s %9s %15s  %s\n", "warpgroup", "line", "instruction", "issued", "flops", "code");
    for (const WarpgroupMmaRow& r : mmas) {
      approximate = approximate || r.approximate;
      std::printf("  %9u  %4d%s  %-14s %9s %15s  %s\n", r.warpgroup, r.line, r.approximate ? "~" : " ",
                  instruction_words(r).c_str(), count_words(double(r.instructions)).c_str(),
                  r.op == Op::mma ? count_words(double(r.flops)).c_str() : "", source_line(lines, r.line).c_str());
    }
    std::printf("  (%sIssued: once per warpgroup of 128 threads, summed over the blocks. An m64nNk16 does 2 x 64 x "
                "N x 16 flops.)\n\n",
                approximate ? moved : "");
  }
}

}  // namespace checker

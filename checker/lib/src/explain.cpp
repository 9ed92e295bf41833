#include "checker/explain.h"

#include <cstdio>

#include "explain_words.h"

namespace checker {
namespace {

using engine::Finding;
using engine::FindingKind;

std::string basename_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

using words::at_line;
using words::element;
using words::plural;
using words::shared_element;
using words::thread_list;

// The engine's sentence for a GPU crash or time limit: a fact. The advice that goes with it
// depends on how the checker was run, so it is worded here.
std::string gpu_fact(const Finding& f) { return f.detail; }

// CUDA's own words for a GPU crash, which the engine reports as they are: "an illegal memory
// access was encountered (...)".
std::string gpu_error(const Finding& f) { return gpu_fact(f); }

std::string bank_conflicts_fact(const engine::AccessProfile& worst, const Style& st) {
  std::string where = where_in_source(worst.at);
  std::string ratio =
      format_tenths(worst.ideal_wavefronts ? static_cast<double>(worst.wavefronts) / worst.ideal_wavefronts : 0.0);
  return st.bold("Bank conflicts") + ": the shared-memory " + (worst.write ? "stores" : "loads") +
         (where.empty() ? "" : " at " + where) + " have " + std::to_string(worst.worst_ways) +
         "-way bank conflicts: a warp's request takes " + ratio + " times the wavefronts it needs";
}

std::string bank_conflicts_allowed(const PuzzleSpec& spec) {
  int allowed = spec.limits.bank_conflict_ways.value_or(1);
  return allowed <= 1 ? std::string("none") : "up to " + std::to_string(allowed) + "-way";
}

std::string scattered_loads_fact(const engine::AccessProfile& worst, double sectors_per_request, const Style& st) {
  std::string where = where_in_source(worst.at);
  return st.bold("Scattered global loads") + ": the loads" + (where.empty() ? "" : " at " + where) + " touch " +
         format_tenths(sectors_per_request) + " sectors of 32 bytes per warp request";
}

// The rows and columns of the buffer a finding names, when it is one of the puzzle's matrices.
std::pair<long, long> matrix_shape(const std::string& buffer, const PuzzleSpec& spec, const Dims& d) {
  if (buffer == "a") return {d.m, d.k};
  if (buffer == "b") return {d.k, d.n};
  if (buffer == spec.output_name) return {d.m, d.n};
  return {0, 0};
}

// Who made an access: the thread, or why the backend cannot name it.
std::string who_did(const Finding& f, bool gpu) {
  return f.thread_known ? f.where.str()
         : gpu          ? "a thread (the GPU cannot say which)"
                        : "a thread (this build's kernels are not instrumented, so it cannot say which)";
}

// Each kind's fact sentence (without its full stop) starts its explanation and is, in one line,
// its diagnostic line's summary; `first` pieces of a kind add the why and the fix to it.
std::string out_of_bounds_clause(const Finding& f, bool gpu) {
  return who_did(f, gpu) + (f.is_write ? " wrote " : " read ") + element(f) + at_line(f.at);
}

std::string out_of_bounds_fact(const Finding& f, const Style& st, bool gpu) {
  return st.bold(finding_title(f)) + ": " + out_of_bounds_clause(f, gpu) + ", but " + f.buffer + " has " +
         std::to_string(f.buffer_elements) + " elements (" + f.buffer + "[0] to " + f.buffer + "[" +
         std::to_string(f.buffer_elements - 1) + "])";
}

std::string out_of_bounds(const Finding& f, const PuzzleSpec& spec, const Dims& d, const Style& st, bool first,
                          bool gpu, FollowUp follow_up) {
  if (!first) return out_of_bounds_clause(f, gpu);
  std::string s = out_of_bounds_fact(f, st, gpu);
  auto [rows, cols] = matrix_shape(f.buffer, spec, d);
  if (rows > 0 && f.buffer_elements == static_cast<long long>(rows) * cols)
    s += "; as a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix, index " + std::to_string(f.index) +
         " would be " + element_name(f.index, cols);
  s += f.thread_known ? ". The access was stopped before it happened." : ".";
  if (!f.detail.empty()) s += " (" + f.detail + ".)";
  s += "\nFix: " + spec.guard_hint + ".";
  if (!f.thread_known && gpu && follow_up == FollowUp::other_runs)
    s += "\nTo find the thread, run with --backend=cpu, or with --sanitize.";
  return s;
}

std::string shared_out_of_bounds_clause(const Finding& f) {
  std::string memory = f.buffer.empty() || f.buffer == "extern __shared__ memory"
                           ? "the extern __shared__ memory"
                           : f.buffer + ", the extern __shared__ memory,";
  return f.where.str() + (f.is_write ? " wrote" : " read") + " element " + std::to_string(f.index) + " of " + memory +
         at_line(f.at);
}

std::string shared_out_of_bounds_fact(const Finding& f, const Style& st) {
  return st.bold(finding_title(f)) + ": " + shared_out_of_bounds_clause(f) + ", but the launch gave the block only " +
         std::to_string(f.buffer_elements) + " elements of it";
}

std::string shared_out_of_bounds(const Finding& f, const Style& st, bool first) {
  if (!first) return shared_out_of_bounds_clause(f);
  return shared_out_of_bounds_fact(f, st) + ".\nFix: size the launch's dynamic shared memory "
         "for every element the block uses, or guard the index.";
}

std::string race_clause(const Finding& f) {
  auto access = [](bool write, const engine::Dim3& thread, const engine::SourceLocation& at) {
    return std::string(write ? "written" : "read") + " by thread " + thread.index_str() + at_line(at);
  };
  return "in block " + f.where.block.index_str() + ", " + shared_element(f) + " was " +
         access(f.other_is_write, f.other.thread, f.other_at) + " and " + access(f.is_write, f.where.thread, f.at) +
         ", with no __syncthreads() between the two";
}

// within_warps: say that every race of the launch was between lanes of one warp.
std::string race(const Finding& f, const Style& st, bool first, bool within_warps) {
  if (!first) return race_clause(f);
  std::string why = f.is_write && f.other_is_write
                        ? "Which value stays depends on which thread runs last. Give each element one writer, "
                          "or separate the writes with __syncthreads()."
                        : "What the reader gets depends on which thread runs first. A block needs a "
                          "__syncthreads() between writing shared memory and reading what other threads wrote, "
                          "and, in a loop, another between the last read and the next overwrite.";
  if (within_warps)
    why += " Every such race here is between lanes of one warp, and a warp's lanes do not run in lockstep "
           "(not since Volta): where only a warp shares the data, a __syncwarp() between the two accesses "
           "orders them.";
  return st.bold(finding_title(f)) + ": " + race_clause(f) + ".\n" + why;
}

std::string divergence_fact(const Finding& f, const Style& st) {
  std::string s = st.bold(finding_title(f)) + " in block " + f.where.block.index_str() + ": ";
  for (std::size_t g = 0; g < f.groups.size(); ++g) {
    const engine::ThreadGroup& group = f.groups[g];
    s += g == 0 ? "" : (g + 1 == f.groups.size() ? ", while " : ", ");
    s += plural(group.count, "thread", "threads") + " (" + thread_list(group.sample, group.count) + ") ";
    if (group.returned)
      s += group.count == 1 ? "has returned" : "have returned";
    else
      s += (group.count == 1 ? "waits" : "wait") + std::string(" at __syncthreads()") + at_line(group.barrier);
  }
  return s;
}

std::string divergence(const Finding& f, const Style& st) {
  bool any_returned = false;
  for (const engine::ThreadGroup& group : f.groups) any_returned |= group.returned;
  std::string s = divergence_fact(f, st);
  s += ". The waiting threads would wait forever: every thread of a block must reach the same __syncthreads().";
  s += any_returned ? "\nFix: do not return early, and do not put __syncthreads() inside an if that only "
                      "some threads enter; guard the loads and the store instead, and let every thread "
                      "reach every barrier."
                    : "\nFix: use one __syncthreads() that all threads reach, outside any if or loop "
                      "that threads leave at different times.";
  return s + "\nThe block was stopped.";
}

std::string fault_fact(const Finding& f, const Style& st, bool gpu) {
  if (gpu) return st.bold(finding_title(f)) + ": the kernel crashed on the GPU: " + gpu_error(f);
  std::string who = f.thread_known ? " in " + f.where.str() : "";
  return st.bold(finding_title(f)) + who + at_line(f.at) + ": " + f.detail;
}

std::string fault(const Finding& f, const Style& st, bool gpu, FollowUp follow_up) {
  std::string s = fault_fact(f, st, gpu) + ".";
  if (gpu && follow_up == FollowUp::other_runs)
    s += " Run with --sanitize (compute-sanitizer) or --backend=cpu to find the thread.";
  return s + "\nThe kernel was stopped.";
}

const char* kEndlessLoop =
    "An endless loop? Check that every loop's condition eventually fails, and that no thread waits for "
    "something that never happens.";

std::string timeout_clause(const Finding& f) {
  return f.thread_known ? f.where.str() + " was " + f.detail : gpu_fact(f);
}

std::string timeout(const Finding& f, const PuzzleSpec& spec, const Style& st, bool first, bool gpu,
                    FollowUp follow_up) {
  if (!first) return timeout_clause(f);
  std::string s = st.bold(finding_title(f)) + ": " + timeout_clause(f) + " (" + spec.timeout_hint + "). " +
                  kEndlessLoop;
  if (gpu && follow_up == FollowUp::other_runs)
    s += "\nA GPU kernel cannot be stopped from outside, so the checker stops here. --backend=cpu names a thread "
         "that was still running.";
  return s;
}

std::string misaligned_clause(const Finding& f) {
  std::string place = f.is_shared ? shared_element(f) : element(f);
  return f.where.str() + (f.is_write ? " wrote " : " read ") + std::to_string(f.access_size) + " bytes at once at " +
         place + at_line(f.at);
}

std::string misaligned_fact(const Finding& f, const Style& st) {
  return st.bold(finding_title(f)) + ": " + misaligned_clause(f) + ", but an access of " +
         std::to_string(f.access_size) + " bytes needs an address that is a multiple of " +
         std::to_string(f.access_size);
}

std::string misaligned(const Finding& f, const Style& st, bool first) {
  if (!first) return misaligned_clause(f);
  return misaligned_fact(f, st) + ". On the GPU this stops the kernel (misaligned address).\nFix: start each vector "
         "access (float4, float2) at an element index that is a multiple of its width.";
}

std::string groups_words(const std::vector<engine::ThreadGroup>& groups, const char* who_one, const char* who_many) {
  std::string s;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const engine::ThreadGroup& group = groups[g];
    s += g == 0 ? "" : (g + 1 == groups.size() ? ", while " : ", ");
    s += plural(group.count, who_one, who_many) + " (" + thread_list(group.sample, group.count) + ") ";
    if (group.returned)
      s += group.count == 1 ? "has returned" : "have returned";
    else if (!group.waits_for.empty())
      s += (group.count == 1 ? "waits at " : "wait at ") + group.waits_for + at_line(group.barrier);
    else if (group.barrier.line > 0)
      s += (group.count == 1 ? "was stopped" : "were stopped") + at_line(group.barrier);
    else
      s += "had not arrived yet";
  }
  return s;
}

std::string warp_divergence_fact(const Finding& f, const Style& st) {
  return st.bold(finding_title(f)) + " in " + f.where.str() + "'s warp " + std::to_string(f.warp) + ": " +
         (f.groups.empty() ? "its lanes did not all reach " + f.op : groups_words(f.groups, "thread", "threads"));
}

std::string warp_divergence(const Finding& f, const Style& st) {
  return warp_divergence_fact(f, st) + ". Every lane named in the mask must reach the same " +
         (f.op.empty() ? "warp function" : f.op) +
         ", or the waiting lanes wait forever.\nFix: call it outside any if that only some lanes enter, or "
         "pass a mask of exactly the lanes that call it.\nThe block was stopped.";
}

// The rule a warp collective's call broke, from the engine's facts (or its words, for the
// rules it reports only in words: PTX operands, asynchronous copies).
std::string misuse_rule(const Finding& f) {
  using M = Finding::Misuse;
  switch (f.misuse) {
    case M::other: return f.detail;
    case M::own_lane_not_in_mask: return "its own lane is not in the mask";
    case M::source_lane_not_in_mask:
      return "it reads lane " + std::to_string(f.misuse_value) + ", which is not in the mask";
    case M::bad_shuffle_width:
      return "width must be a power of 2 from 1 to 32 (it is " + std::to_string(f.misuse_value) + ")";
    case M::wmma_arguments_differ:
      return "lane " + std::to_string(f.misuse_value) + " passes a different " + f.misuse_subject +
             " than lane 0: all lanes must pass the same";
    case M::wmma_pointer_misaligned: return "its pointer must be 256-bit (32-byte) aligned";
    case M::wmma_bad_ldm:
      return "ldm = " + std::to_string(f.misuse_value) + " must be a multiple of " + std::to_string(f.misuse_limit) +
             " (16 bytes of " + f.misuse_subject + ") and at least 16";
    case M::wmma_partial_warp:
      return "wmma needs all 32 lanes of a full warp (the block's size is not a multiple of 32)";
  }
  return f.detail;
}

std::string warp_misuse_fact(const Finding& f, const Style& st) {
  return st.bold(finding_title(f)) + ": " + f.where.str() + at_line(f.at) + ": " + misuse_rule(f);
}

std::string warp_misuse(const Finding& f, const Style& st) { return warp_misuse_fact(f, st) + ".\nThe kernel was stopped."; }

std::string async_copy_clause(const Finding& f) {
  if (f.op == "source written")
    return f.where.str() + " wrote " + element(f) + at_line(f.at) + " while an asynchronous copy was still reading it";
  return f.where.str() + (f.is_write ? " wrote " : " read ") + shared_element(f) + at_line(f.at) +
         " before the asynchronous copy into it, issued by thread " + f.other.thread.index_str() + at_line(f.other_at) +
         ", had been waited for";
}

std::string async_copy(const Finding& f, const Style& st, bool first) {
  if (!first) return async_copy_clause(f);
  return st.bold(finding_title(f)) + ": " + async_copy_clause(f) +
         ".\nFix: wait for the copy (__pipeline_wait_prior, or cp.async.wait_group) and then __syncthreads() "
         "before any thread uses what it copies.";
}

std::string unwritten_shared_clause(const Finding& f) {
  return f.where.str() + " read " + shared_element(f) + at_line(f.at) +
         ", but no thread of the block had written it since the block started";
}

std::string unwritten_shared(const Finding& f, const Style& st, bool first) {
  if (!first) return unwritten_shared_clause(f);
  return st.bold(finding_title(f)) + ": " + unwritten_shared_clause(f) +
         ". On a GPU it holds whatever an earlier block left there (here its bytes are 0xFF: NaN as a float, -1 "
         "as an integer).\nFix: have the block write every element it reads (0 where there is nothing to load, "
         "such as outside the matrices) before the __syncthreads() that comes before the reads.";
}

// One group of a deadlock: who, and what they wait for, with the barrier's state.
std::string deadlock_group(const engine::ThreadGroup& g) {
  std::string who = plural(g.count, "thread", "threads") + " (" + thread_list(g.sample, g.count) + ")";
  bool one = g.count == 1;
  if (g.returned) return who + (one ? " has returned" : " have returned");
  if (g.waits_for.empty()) return who + (one ? " was stopped" : " were stopped") + at_line(g.barrier);
  std::string s = who + (one ? " waits at " : " wait at ") + g.waits_for + at_line(g.barrier);
  const auto& w = g.wait;
  using Kind = engine::ThreadGroup::BarrierWait::Kind;
  if (w.kind == Kind::mbarrier) {
    s += " for " + w.barrier + " to complete its phase of parity " + std::to_string(w.parity);
    if (!w.initialized) return s + " (it was never initialized)";
    std::vector<std::string> missing;
    if (w.pending_arrivals > 0)
      missing.push_back(std::to_string(w.pending_arrivals) + " more arrival" + (w.pending_arrivals == 1 ? "" : "s") +
                        " (of " + std::to_string(w.expected_arrivals) + ")");
    if (w.bytes_expected > w.bytes_delivered)
      missing.push_back(std::to_string(w.bytes_expected - w.bytes_delivered) + " more bytes (the copies delivered " +
                        std::to_string(w.bytes_delivered) + " of the " + std::to_string(w.bytes_expected) +
                        " bytes announced with expect_tx)");
    if (w.bytes_delivered > w.bytes_expected)
      missing.push_back("a transaction count that balances: the copies delivered " +
                        std::to_string(w.bytes_delivered) + " bytes, more than the " +
                        std::to_string(w.bytes_expected) + " announced with expect_tx");
    if (!missing.empty()) {
      s += ", which still needs ";
      for (std::size_t i = 0; i < missing.size(); ++i) s += (i ? " and " : "") + missing[i];
    }
  } else if (w.kind == Kind::named_barrier) {
    s += " (barrier " + w.barrier + ": " + std::to_string(w.arrived) + " of " + std::to_string(w.count) +
         " threads have arrived)";
  }
  return s;
}

std::string deadlock_fact(const Finding& f, const Style& st) {
  std::string s = st.bold(finding_title(f)) + " in block " + f.where.block.index_str() + ": ";
  for (std::size_t g = 0; g < f.groups.size(); ++g)
    s += (g == 0 ? "" : (g + 1 == f.groups.size() ? ", while " : ", ")) + deadlock_group(f.groups[g]);
  return s;
}

std::string deadlock(const Finding& f, const Style& st) {
  std::string s = deadlock_fact(f, st);
  bool bytes = false, arrivals = false, warpgroup = false, cluster = false;
  for (std::size_t g = 0; g < f.groups.size(); ++g) {
    cluster |= f.groups[g].waits_for.rfind("barrier.cluster", 0) == 0;
    const auto& w = f.groups[g].wait;
    bytes |= w.bytes_expected != w.bytes_delivered;
    arrivals |= w.pending_arrivals > 0;
    warpgroup |= w.kind == engine::ThreadGroup::BarrierWait::Kind::none && !f.groups[g].returned &&
                 (f.groups[g].waits_for.rfind("wgmma", 0) == 0 || f.groups[g].waits_for.rfind("setmaxnreg", 0) == 0);
  }
  s += ". No thread can still arrive or deliver what they wait for: on a GPU the kernel would hang.";
  // A warpgroup instruction that part of the warpgroup skipped comes first: the waits on
  // mbarriers behind it are its consequence.
  if (warpgroup)
    s += "\nFix: wgmma (with its fence, commit and wait) and setmaxnreg are executed by all 128 threads of a "
         "warpgroup together: take them out of any branch that only some of its threads enter.";
  else if (bytes)
    s += "\nFix: expect_tx must announce exactly the bytes the copies bring: every tensor copy delivers its whole box "
         "(box sizes times the element size), also where the box leaves the tensor.";
  else if (arrivals)
    s += "\nFix: check who arrives on that mbarrier and the parity waited for. A barrier starts in phase 0: a wait for "
         "parity 0 waits for its first completion, a wait for parity 1 returns at once (it means the phase before). "
         "A producer waiting for a free stage starts at parity 1; its consumers, waiting for data, at 0."
         + std::string(cluster ? " An arrival for another CTA of the cluster goes to the address mapa gives for "
                                 "that CTA's rank." : "");
  else if (cluster)
    s += "\nFix: the cluster barrier waits for every thread of every CTA in the cluster (threads that have returned "
         "count as arrived): no CTA may wait for another at an mbarrier while that one waits at barrier.cluster.wait.";
  return s + "\nThe block was stopped.";
}

std::string async_proxy_clause(const Finding& f) {
  using Use = Finding::AsyncUse;
  std::string elem = shared_element(f);
  std::string other = "thread " + f.other.thread.index_str() + at_line(f.other_at);
  switch (f.async_use) {
    case Use::tma_write_pending:
      return f.where.str() + (f.is_write ? " wrote " : " read ") + elem + at_line(f.at) +
             " before the mbarrier phase that brings the tensor copy into it (issued by " + other +
             ") had completed for it";
    case Use::wgmma_reading:
      return f.where.str() + at_line(f.at) + (f.is_write ? " overwrote " : " read ") + elem +
             " while a wgmma of the warpgroup of " + other + " was still reading it";
    case Use::bulk_store_reading:
      return f.where.str() + " wrote " + elem + at_line(f.at) + " while the tensor store issued by " + other +
             " was still reading it";
    case Use::swizzle_mismatch: {
      auto words = [](unsigned b) { return b ? std::to_string(b) + "-byte swizzle" : std::string("no swizzle"); };
      return "the wgmma of " + f.where.str() + at_line(f.at) + " reads " + elem + " with a descriptor of " +
             words(f.swizzle_read) + ", but the tensor copy issued by " + other + " wrote it with " +
             words(f.swizzle_written);
    }
    case Use::none: break;
  }
  return "";
}

std::string async_proxy(const Finding& f, const Style& st, bool first) {
  using Use = Finding::AsyncUse;
  std::string s = async_proxy_clause(f);
  if (!first || f.async_use == Use::none) return s;
  s = st.bold(finding_title(f)) + ": " + s;
  switch (f.async_use) {
    case Use::tma_write_pending:
      return s + ".\nFix: wait on the copy's mbarrier (mbarrier.try_wait.parity with the stage's phase) before using "
                 "the stage, in every thread that uses it.";
    case Use::wgmma_reading:
      return s + ".\nFix: a wgmma reads its operands until a wgmma.wait_group covers its group: wait (wait_group 0, "
                 "or the depth you keep in flight) before releasing the stage to be refilled.";
    case Use::bulk_store_reading: return s + ".\nFix: cp.async.bulk.wait_group.read before writing the buffer again.";
    case Use::swizzle_mismatch:
      return s + ".\nFix: the descriptor's layout (bits 62-63: 1 for 128-byte, 2 for 64-byte, 3 for 32-byte swizzles) "
                 "must be the swizzle of the tensor map that filled the tile.\nThe kernel was stopped.";
    case Use::none: break;
  }
  return s;
}

std::string inline_ptx_fact(const Finding& f, const Style& st) {
  return st.bold(finding_title(f)) + ": " + f.where.str() + at_line(f.at) + ": " + f.detail;
}

// The async proxy (tensor stores, wgmma's shared operands) reads shared memory apart from the
// threads' ordinary stores: each writer must fence them before the async operation is issued.
std::string proxy_fence_clause(const Finding& f) {
  std::string reader = f.proxy_reader == Finding::ProxyReader::wgmma
                           ? "the wgmma issued by the warpgroup of " + f.where.str() + at_line(f.at)
                           : "the tensor store issued by " + f.where.str() + at_line(f.at);
  return "thread " + f.other.thread.index_str() + " wrote " + shared_element(f) + at_line(f.other_at) + ", and " +
         reader + " read it without a fence.proxy.async by thread " + f.other.thread.index_str() + " in between";
}

std::string proxy_fence(const Finding& f, const Style& st, bool first) {
  std::string s = proxy_fence_clause(f);
  if (!first) return s;
  return st.bold(finding_title(f)) + ": " + s +
         ".\nTensor stores and wgmma read shared memory through the async proxy, which is not ordered with the "
         "threads' ordinary stores: on a GPU it can read stale bytes. Fix: every thread that wrote the data executes "
         "fence.proxy.async.shared::cta after its writes, then a barrier (__syncthreads(), __syncwarp() or a named "
         "barrier), then one thread issues the store or the wgmma.";
}

// Registers that a wgmma writes belong to it until the wait_group that retires its group.
std::string wgmma_accumulator_clause(const Finding& f) {
  return f.where.str() + (f.is_write ? " wrote" : " read") + " an accumulator register" + at_line(f.at) +
         " of the wgmma" + at_line(f.other_at) + " before a wgmma.wait_group had retired it";
}

std::string wgmma_accumulator(const Finding& f, const Style& st, bool first) {
  std::string s = wgmma_accumulator_clause(f);
  if (!first) return s;
  return st.bold(finding_title(f)) + ": " + s +
         ".\nA wgmma.mma_async writes its accumulators asynchronously: until wgmma.wait_group N leaves at most N "
         "newer groups in flight, reading or writing them is undefined (on a GPU the values are anything). Only "
         "further wgmmas on the same accumulators may use them before that. Fix: wgmma.wait_group 0 (or the depth "
         "that retires that group) before the accumulators are read, stored or reset.";
}

std::string inline_ptx(const Finding& f, const Style& st) { return inline_ptx_fact(f, st) + ".\nThe kernel was stopped."; }

std::string cluster_order_fact(const Finding& f, const Style& st) {
  using U = Finding::ClusterUse;
  const std::string rank = "block rank " + std::to_string(f.other_rank) + " of its cluster";
  std::string s = f.where.str() + at_line(f.at) + " ";
  if (f.cluster_mbarrier)
    s += (f.op.rfind("cp.async.bulk", 0) == 0 ? "copied into shared memory completing an mbarrier of "
                                               : "used an mbarrier of ") + rank;
  else
    s += std::string(f.is_write ? "wrote" : "read") + " shared memory of " + rank;
  switch (f.cluster_use) {
    case U::before_cluster_barrier:
      s += " before waiting at any cluster barrier: that block may not have started yet";
      break;
    case U::mbarrier_not_initialized: s += " before that block initialized it"; break;
    case U::mbarrier_init_unordered:
      s += ", and no cluster barrier this thread waited at comes after that block initialized it";
      break;
    case U::cta_exited: s += " after that block had exited: its shared memory is gone"; break;
    case U::none: break;
  }
  return st.bold(finding_title(f)) + ": " + s;
}

std::string cluster_order(const Finding& f, const Style& st) {
  std::string s = cluster_order_fact(f, st) + ".";
  if (f.cluster_use == Finding::ClusterUse::cta_exited)
    return s + "\nFix: end the kernel with barrier.cluster.arrive and barrier.cluster.wait in every block, so that "
               "no block exits while another can still use its shared memory.";
  return s + "\nFix: set up what other blocks use (mbarrier.init, then fence.mbarrier_init.release.cluster), then "
             "barrier.cluster.arrive and barrier.cluster.wait in every block, before any block touches another's "
             "shared memory.";
}

std::string assertion_fact(const Finding& f, const Style& st) {
  return st.bold(finding_title(f)) + " in " + f.where.str() + at_line(f.at) + ": " + f.detail;
}

std::string assertion(const Finding& f, const Style& st) { return assertion_fact(f, st) + ".\nThe kernel was stopped."; }

}  // namespace

std::string gpu_requirement_words(const PuzzleSpec& spec) {
  std::string arch = "sm_" + std::to_string(spec.requires_gpu) + (spec.requires_gpu_specific ? "a" : "");
  std::string family = spec.requires_gpu >= 90 ? "Hopper" : spec.requires_gpu >= 80 ? "Ampere" : "";
  if (spec.requires_gpu_specific) return "a " + family + " GPU (" + arch + ": compute capability " +
                                          std::to_string(spec.requires_gpu / 10) + "." + std::to_string(spec.requires_gpu % 10) + ")";
  return "an " + family + " GPU or newer (" + arch + ")";
}

std::string where_in_source(const engine::SourceLocation& at) {
  if (!at.known()) return "";
  // The compiler moved or merged the instruction: the nearest line is all that is known.
  std::string w = std::string(at.approximate ? "near line " : "line ") + std::to_string(at.line) +
                  (at.file.empty() ? "" : " of " + basename_of(at.file));
  // A helper's line (a PTX wrapper's asm): also where the kernel called it.
  for (std::size_t i = 0; i < at.called_from.size(); ++i)
    w += (i ? ", from line " : " (called from line ") + std::to_string(at.called_from[i]) +
         (i + 1 == at.called_from.size() ? ")" : "");
  return w;
}

std::vector<FindingParagraph> explain_finding_paragraphs(const engine::LaunchResult& result, const PuzzleSpec& spec,
                                                        const Dims& d, const Style& st, engine::BackendKind backend,
                                                        FollowUp follow_up) {
  const bool gpu = backend == engine::BackendKind::gpu;
  std::vector<FindingParagraph> out;
  for (FindingKind kind : finding_order()) {
    std::vector<const Finding*> of_kind;
    for (const Finding& f : result.findings)
      if (f.kind == kind) of_kind.push_back(&f);
    if (of_kind.empty()) continue;
    std::string text;
    std::vector<const Finding*> shown;
    for (std::size_t i = 0; i < of_kind.size(); ++i) {
      const Finding& f = *of_kind[i];
      bool first = i == 0;
      std::string piece;
      switch (kind) {
        case FindingKind::out_of_bounds: piece = out_of_bounds(f, spec, d, st, first, gpu, follow_up); break;
        case FindingKind::shared_out_of_bounds: piece = shared_out_of_bounds(f, st, first); break;
        case FindingKind::shared_race:
          piece = race(f, st, first, spec.warp_race_hint && result.races_across_warps == 0);
          break;
        case FindingKind::barrier_divergence: piece = first ? divergence(f, st) : ""; break;
        case FindingKind::fault: piece = first ? fault(f, st, gpu, follow_up) : ""; break;
        case FindingKind::timeout: piece = timeout(f, spec, st, first, gpu, follow_up); break;
        case FindingKind::misaligned: piece = misaligned(f, st, first); break;
        case FindingKind::warp_divergence: piece = first ? warp_divergence(f, st) : ""; break;
        case FindingKind::warp_misuse: piece = first ? warp_misuse(f, st) : ""; break;
        case FindingKind::async_copy: piece = async_copy(f, st, first); break;
        case FindingKind::assertion: piece = first ? assertion(f, st) : ""; break;
        case FindingKind::uninitialized_shared: piece = unwritten_shared(f, st, first); break;
        case FindingKind::inline_ptx: piece = first ? inline_ptx(f, st) : ""; break;
        case FindingKind::deadlock: piece = first ? deadlock(f, st) : ""; break;
        case FindingKind::async_proxy: piece = async_proxy(f, st, first); break;
        case FindingKind::cluster_order: piece = first ? cluster_order(f, st) : ""; break;
        case FindingKind::proxy_fence: piece = proxy_fence(f, st, first); break;
        case FindingKind::wgmma_accumulator: piece = wgmma_accumulator(f, st, first); break;
      }
      if (piece.empty()) continue;
      shown.push_back(&f);
      text += first ? piece : "\nAlso: " + piece + ".";
    }
    std::uint64_t total = result.total(kind);
    bool one_stops_all = kind == FindingKind::fault || kind == FindingKind::barrier_divergence ||
                         kind == FindingKind::warp_divergence || kind == FindingKind::warp_misuse ||
                         kind == FindingKind::assertion || kind == FindingKind::inline_ptx ||
                         kind == FindingKind::deadlock || kind == FindingKind::cluster_order;
    if (total > of_kind.size() && !one_stops_all)
      text += "\n(" + std::to_string(total) + " such findings in all; the first " +
              std::to_string(of_kind.size()) + " are shown.)";
    out.push_back({text, shown});
  }
  return out;
}

std::vector<std::string> explain_findings(const engine::LaunchResult& result, const PuzzleSpec& spec, const Dims& d,
                                          const Style& st, engine::BackendKind backend, FollowUp follow_up) {
  std::vector<std::string> texts;
  for (FindingParagraph& p : explain_finding_paragraphs(result, spec, d, st, backend, follow_up))
    texts.push_back(std::move(p.text));
  return texts;
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
                          const PuzzleSpec& spec, const Style& st, std::size_t examples) {
  std::string s = st.bold("Wrong values") + ": " + std::to_string(c.wrong) + " of " +
                  std::to_string(c.marks.size()) + " elements of " + spec.output_name + " are wrong, e.g.";
  for (std::size_t n = 0; n < c.first_wrong.size() && n < examples; ++n)
    s += "\n  " + element_name(static_cast<long long>(c.first_wrong[n]), c.dims.n) + ": expected " +
         format_value(ref.value[c.first_wrong[n]]) + ", got " + format_value(out[c.first_wrong[n]]);
  return s;
}

std::string explain_cpu_run_values(const Comparison& c, const Reference& ref, const std::vector<float>& out,
                                   const PuzzleSpec& spec, const Style& st, bool after_finding) {
  std::string total = std::to_string(c.marks.size());
  std::string s = st.bold("In the CPU backend's run") + " of this case, ";
  if (c.wrong) {
    std::size_t i = c.first_wrong.front();
    s += std::to_string(c.wrong) + " of " + total + " elements of " + spec.output_name + " came out wrong (e.g. " +
         element_name(static_cast<long long>(i), c.dims.n) + ": expected " + format_value(ref.value[i]) + ", got " +
         format_value(out[i]) + ")";
  }
  if (c.wrong && c.unwritten) s += ", and ";
  if (c.unwritten)
    s += std::to_string(c.unwritten) + " of " + total + " elements of " + spec.output_name + " were never written";
  if (after_finding)
    return s + ". The GPU's values were right this time: with the mistake above, that is luck, and another run or "
               "another GPU can get them wrong.";
  return s + ". The GPU's values were right this time, so the result depends on something in which the two runs "
             "differ, such as the order of the threads or memory read before it is written. Run with --sanitize "
             "to check the GPU's own run.";
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

std::string explain_bank_conflicts(const engine::AccessProfile& worst, const PuzzleSpec& spec, const Style& st) {
  return bank_conflicts_fact(worst, st) + ". Allowed: " + bank_conflicts_allowed(spec) + " (" +
         spec.limits.bank_conflict_why + ").\nThe values are right; the layout makes the threads of a warp wait "
         "for each other. Lay the tile out so that the 32 threads of a warp touch 32 different banks (a bank is "
         "a 4-byte word's index modulo 32).";
}

std::string explain_scattered_loads(const engine::AccessProfile& worst, double sectors_per_request,
                                    const PuzzleSpec& spec, const Style& st) {
  return scattered_loads_fact(worst, sectors_per_request, st) + ". Allowed: " +
         format_tenths(spec.limits.sectors_per_request.value_or(0)) + " (" + spec.limits.sectors_why +
         ").\nThe values are right; make neighbouring threads read neighbouring addresses.";
}

std::string explain_order_dependence(engine::ThreadOrder first, engine::ThreadOrder other, const Style& st) {
  return st.bold("Result depends on thread order") + ": the result changes when the threads of a block run in " +
         engine::to_string(other) + " order instead of " + engine::to_string(first) +
         " order. Threads that share data must wait for each other with __syncthreads().";
}

const std::vector<FindingKind>& finding_order() {
  // The one that stopped the kernel first, then the accesses, then the rest.
  static const std::vector<FindingKind> order{
      FindingKind::fault,          FindingKind::timeout,         FindingKind::assertion,
      FindingKind::out_of_bounds,  FindingKind::shared_out_of_bounds, FindingKind::misaligned,
      FindingKind::barrier_divergence, FindingKind::warp_divergence, FindingKind::warp_misuse,
      FindingKind::inline_ptx,     FindingKind::cluster_order,   FindingKind::deadlock,
      FindingKind::async_proxy,    FindingKind::proxy_fence,     FindingKind::wgmma_accumulator,
      FindingKind::shared_race,    FindingKind::async_copy,      FindingKind::uninitialized_shared};
  return order;
}

std::string refusal_words(const engine::LaunchRejection& r) {
  using W = engine::LaunchRejection::Why;
  const std::string bad = "invalid configuration argument: ";
  const std::string resources = "too many resources requested for launch: ";
  const std::string clusters = "invalid cluster configuration: ";
  auto bytes = [](std::uint64_t n) { return std::to_string(n) + " bytes"; };
  auto kib = [&](std::uint64_t n) { return bytes(n) + " (" + std::to_string(n / 1024) + " KiB)"; };
  switch (r.why) {
    case W::none: return "";
    case W::empty_grid: return bad + "the grid " + r.shape.str(true) + " is empty; every dimension must be at least 1";
    case W::empty_block: return bad + "the block " + r.shape.str(true) + " is empty; every dimension must be at least 1";
    case W::too_many_threads:
      return bad + "the block " + r.shape.str(true) + " has " + std::to_string(r.requested) + " threads; the limit is " +
             std::to_string(r.limit) + " threads per block";
    case W::block_too_large:
      return bad + "the block " + r.shape.str(true) + " is larger than " + r.limit_shape.str(true) + " in some dimension";
    case W::grid_too_large:
      return bad + "the grid " + r.shape.str(true) + " is larger than " + r.limit_shape.str(true) + " in some dimension";
    case W::static_shared_too_large:
      return "too much shared data: " + r.kernel + " declares " + bytes(r.requested) +
             " of __shared__ memory; the limit is " + kib(r.limit) + " per block";
    case W::dynamic_shared_too_large: {
      std::string s = resources + r.kernel + " asks for " + bytes(r.requested) + " of dynamic shared memory";
      if (r.static_shared) s += " (and declares " + bytes(r.static_shared) + " of static)";
      s += "; its limit is " + bytes(r.limit);
      if (r.attribute_would_help)
        s += ". Above 48 KiB, a kernel must first be allowed more with cudaFuncSetAttribute(" + r.kernel +
             ", cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)";
      return s;
    }
    case W::shared_too_large:
      return resources + r.kernel + " needs " + bytes(r.static_shared) + " of static and " + bytes(r.requested) +
             " of dynamic shared memory; the limit is " + bytes(r.limit) + " per block";
    case W::attribute_too_large:
      return "invalid argument: cudaFuncSetAttribute(" + r.kernel + ", cudaFuncAttributeMaxDynamicSharedMemorySize, " +
             std::to_string(r.requested) + ") asks for more than the " + kib(r.limit) +
             " of shared memory a block may have";
    case W::no_extern_shared:
      return "invalid argument: the launch asks for " + bytes(r.requested) + " of dynamic shared memory, but " +
             r.kernel + " declares no extern __shared__ array to hold them";
    case W::registers_limit_threads:
      return resources + r.kernel + " uses " + std::to_string(r.registers) +
             " registers per thread, which allows at most " + std::to_string(r.limit) + " threads per block";
    case W::launch_failed: return "the launch failed: " + r.cuda_error;
    case W::tensor_map_refused: return r.cuda_error;
    case W::empty_cluster:
      return clusters + "the cluster " + r.shape.str(true) + " is empty; every dimension must be at least 1";
    case W::cluster_too_large:
      return clusters + "the cluster " + r.shape.str(true) + " has " + std::to_string(r.requested) +
             " blocks; the limit is " + std::to_string(r.limit) + " blocks per cluster";
    case W::grid_not_whole_clusters:
      return clusters + "the grid " + r.shape.str(true) + " is not a whole number of clusters " +
             r.cluster.str(true) + ": each dimension of the grid must be a multiple of the cluster's";
  }
  return "";
}

const char* to_string(BackendReason::Code code) {
  switch (code) {
    case BackendReason::Code::requested: return "requested";
    case BackendReason::Code::gpu_found: return "gpu_found";
    case BackendReason::Code::gpu_unavailable: return "gpu_unavailable";
    case BackendReason::Code::gpu_too_old: return "gpu_too_old";
    case BackendReason::Code::no_gpu_code: return "no_gpu_code";
  }
  return "?";
}

std::string gpu_unavailable_words(const engine::GpuUnavailable& facts) {
  using W = engine::GpuUnavailable::Why;
  switch (facts.why) {
    case W::none: return "";
    case W::not_built: return "this build has no GPU backend (it was configured without the CUDA toolkit)";
    case W::no_device: return "no CUDA device was found";
    case W::no_driver: return "no usable NVIDIA driver was found (" + facts.cuda_error + ")";
    case W::runtime_error: return "the CUDA runtime could not find a device: " + facts.cuda_error;
  }
  return "";
}

std::string backend_reason_words(const BackendReason& reason, const PuzzleSpec& spec) {
  switch (reason.code) {
    case BackendReason::Code::requested: return "";
    case BackendReason::Code::gpu_found: return "auto: a CUDA device was found.";
    case BackendReason::Code::gpu_unavailable:
      return "auto: " + gpu_unavailable_words(reason.gpu) + ", so the CPU backend runs the kernel";
    case BackendReason::Code::gpu_too_old:
      return "auto: this puzzle's kernel needs " + gpu_requirement_words(spec) + "; this GPU is sm_" +
             std::to_string(reason.device_sm) + ", so the CPU backend runs it";
    case BackendReason::Code::no_gpu_code:
      return spec.requires_gpu ? "auto: this build has no GPU code for this kernel (it needs " +
                                     gpu_requirement_words(spec) + "), so the CPU backend runs it"
                               : "auto: this kernel was built for the CPU backend only, so the CPU backend runs it";
  }
  return "";
}

std::string explain_refused(const engine::LaunchRejection& rejection, const Style& st) {
  return st.bold("The launch was refused") + ": " + refusal_words(rejection) + ".";
}

std::string explain_uniform_map(char mark, const std::string& output_name) {
  std::string what = mark == '?' ? "elements never written" : mark == 'X' ? "wrong values" : "no mistake";
  return "Every tile of " + output_name + " (one per block) has " + what + ".";
}

std::string finding_title(const Finding& f) {
  using Use = Finding::AsyncUse;
  switch (f.kind) {
    case FindingKind::out_of_bounds: return f.is_write ? "Out-of-bounds write" : "Out-of-bounds read";
    case FindingKind::shared_out_of_bounds: return "Out-of-bounds shared memory";
    case FindingKind::shared_race: return "Shared-memory race";
    case FindingKind::barrier_divergence: return "Barrier divergence";
    case FindingKind::fault: return "Crash";
    case FindingKind::timeout: return "Time limit";
    case FindingKind::misaligned: return "Misaligned access";
    case FindingKind::warp_divergence: return "Warp divergence";
    case FindingKind::warp_misuse: return "Wrong use of " + (f.op.empty() ? std::string("a warp function") : f.op);
    case FindingKind::async_copy:
      // A read of what a copy is still writing is a race with the copy: said in the same words.
      return f.op == "source written" ? "Asynchronous copy's source overwritten"
                                      : "Shared-memory race with an asynchronous copy";
    case FindingKind::assertion: return "Assertion failed";
    case FindingKind::uninitialized_shared: return "Read of unwritten shared memory";
    case FindingKind::inline_ptx: return "Inline PTX error";
    case FindingKind::deadlock: return "Deadlock";
    case FindingKind::async_proxy:
      switch (f.async_use) {
        case Use::tma_write_pending: return "Shared-memory race with a tensor copy";
        case Use::wgmma_reading: return "Shared memory overwritten under a wgmma";
        case Use::bulk_store_reading: return "Shared memory overwritten under a tensor store";
        case Use::swizzle_mismatch: return "Descriptor and tensor map disagree";
        case Use::none: break;
      }
      return "Shared memory used against the asynchronous units";
    case FindingKind::cluster_order: return "Cluster synchronization missing";
    case FindingKind::proxy_fence: return "Async proxy: missing fence.proxy.async";
    case FindingKind::wgmma_accumulator: return "wgmma accumulator used before wgmma.wait_group";
  }
  return "";  // a kind without words yet: diagnostic.cpp says what the facts alone say
}

namespace {

// A kind's first sentence, without its full stop: what explain_findings starts with.
std::string finding_fact(const Finding& f, const Style& st, bool gpu) {
  switch (f.kind) {
    case FindingKind::out_of_bounds: return out_of_bounds_fact(f, st, gpu);
    case FindingKind::shared_out_of_bounds: return shared_out_of_bounds_fact(f, st);
    case FindingKind::shared_race: return st.bold(finding_title(f)) + ": " + race_clause(f);
    case FindingKind::barrier_divergence: return divergence_fact(f, st);
    case FindingKind::fault: return fault_fact(f, st, gpu);
    case FindingKind::timeout: return st.bold(finding_title(f)) + ": " + timeout_clause(f);
    case FindingKind::misaligned: return misaligned_fact(f, st);
    case FindingKind::warp_divergence: return warp_divergence_fact(f, st);
    case FindingKind::warp_misuse: return warp_misuse_fact(f, st);
    case FindingKind::async_copy: return st.bold(finding_title(f)) + ": " + async_copy_clause(f);
    case FindingKind::assertion: return assertion_fact(f, st);
    case FindingKind::uninitialized_shared: return st.bold(finding_title(f)) + ": " + unwritten_shared_clause(f);
    case FindingKind::inline_ptx: return inline_ptx_fact(f, st);
    case FindingKind::deadlock: return deadlock_fact(f, st);
    case FindingKind::async_proxy: return st.bold(finding_title(f)) + ": " + async_proxy_clause(f);
    case FindingKind::cluster_order: return cluster_order_fact(f, st);
    case FindingKind::proxy_fence: return st.bold(finding_title(f)) + ": " + proxy_fence_clause(f);
    case FindingKind::wgmma_accumulator: return st.bold(finding_title(f)) + ": " + wgmma_accumulator_clause(f);
  }
  return "";
}

// gcc's messages start in lower case ("error: use of undeclared identifier").
std::string lower_first(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

}  // namespace

std::string finding_summary(const Finding& f, bool gpu) { return lower_first(finding_fact(f, Style(false), gpu)); }

std::string bank_conflicts_summary(const engine::AccessProfile& worst, const PuzzleSpec& spec) {
  return lower_first(bank_conflicts_fact(worst, Style(false))) + " (allowed: " + bank_conflicts_allowed(spec) + ")";
}

std::string scattered_loads_summary(const engine::AccessProfile& worst, double sectors_per_request,
                                    const PuzzleSpec& spec) {
  return lower_first(scattered_loads_fact(worst, sectors_per_request, Style(false))) + " (allowed: " +
         format_tenths(spec.limits.sectors_per_request.value_or(0)) + ")";
}

std::string explain_gpu_stop(const Finding& f, const Style& st) {
  if (f.kind == FindingKind::timeout)
    return st.bold("Time limit on the GPU") + ": " + gpu_fact(f) +
           ". A GPU kernel cannot be stopped from outside, so nothing more runs on the GPU.";
  return st.bold("Crash on the GPU") + ": " + gpu_error(f) + ". After a crash the GPU runs nothing more in this program.";
}

std::string cpu_lead_in(bool names_thread) {
  return names_thread ? "The CPU backend ran the same case, and names the thread:"
                      : "The CPU backend's checks of the same case found:";
}

std::string cpu_found_nothing(bool gpu_stopped) {
  std::string what = gpu_stopped ? "its run ended normally" : "it computed the right values";
  return "The CPU backend ran this case too and found nothing wrong: every access in bounds, no race, no "
         "barrier problem, and " + what + ". So what went wrong on the GPU depends on something the CPU "
         "backend does not model, such as timing between threads or warps. Run with --sanitize: "
         "compute-sanitizer checks the GPU's own run.";
}

std::string too_large_for_cpu(const PuzzleSpec& spec, const Dims& d, const std::string& cpu_sizes, bool gpu_stopped) {
  std::string size = spec.square ? std::to_string(d.n)
                                 : std::to_string(d.m) + "x" + std::to_string(d.n) + "x" + std::to_string(d.k);
  std::string s = "The CPU backend's checks run on the worked example" +
                  (cpu_sizes.empty() ? std::string(" only") : " and " + cpu_sizes) + ", not on a case this large";
  s += gpu_stopped ? ". To find the thread, run with --backend=cpu --size=" + size + " (slower), or with --sanitize."
                   : ". For them on this case, run with --backend=cpu --size=" + size +
                         " (slower); for compute-sanitizer's, with --sanitize.";
  return s;
}

std::string canary_not_reproduced() {
  return "The CPU backend's run of this case did not make that write; run with --sanitize to find the thread "
         "on the GPU.";
}

std::string cpu_checks(const PuzzleSpec& spec, bool instrumented) {
  std::string s = instrumented
                      ? "out-of-bounds accesses, unwritten outputs, barriers, shared-memory races, thread order"
                      : "out-of-bounds writes, crashes, unwritten outputs, barriers, thread order (exact read checks, "
                        "races and load budgets are off: this build's kernels are not instrumented; build with "
                        "clang++)";
  if (instrumented && spec.limits.global_loads_per_thread)
    s += ", at most " + spec.formula_words(spec.limits.global_loads_per_thread->max) + " global loads per thread";
  if (instrumented && spec.limits.bank_conflict_ways)
    s += *spec.limits.bank_conflict_ways <= 1
             ? std::string(", no bank conflicts")
             : ", bank conflicts up to " + std::to_string(*spec.limits.bank_conflict_ways) + "-way";
  if (instrumented && spec.limits.sectors_per_request) {
    char max[32];
    std::snprintf(max, sizeof max, "%g", *spec.limits.sectors_per_request);
    s += std::string(", at most ") + max + " sectors per global load request (where rows start on 32-byte sectors)";
  }
  return s;
}

std::string gpu_checks() {
  return "the values, unwritten outputs, out-of-bounds writes (canaries), crashes, time limit";
}

std::string gpu_alone_cannot_check() {
  return "Not checked on the GPU alone: out-of-bounds reads, the thread and line of a mistake, barrier "
         "divergence, shared-memory races, thread order, load budgets, bank conflicts. --backend=auto (the "
         "default) adds them from the CPU backend; --sanitize adds compute-sanitizer's.";
}

}  // namespace checker

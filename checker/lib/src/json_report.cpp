#include "json_report.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "checker/diagnostic.h"
#include "checker/explain.h"
#include "edge_notes.h"
#include "async_profile_report.h"
#include "profile_report.h"

namespace checker {

using nlohmann::json;

JsonStdout::JsonStdout(std::string file) : file_(std::move(file)) {
  if (!file_.empty()) return;
  std::fflush(stdout);
  saved_ = dup(STDOUT_FILENO);
  if (saved_ >= 0) dup2(STDERR_FILENO, STDOUT_FILENO);
}

JsonStdout::~JsonStdout() {
  if (saved_ < 0) return;
  std::fflush(stdout);
  dup2(saved_, STDOUT_FILENO);
  close(saved_);
}

bool JsonStdout::write(const json& document) {
  std::fflush(nullptr);
  std::string text = document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  if (!file_.empty()) {
    std::FILE* f = std::fopen(file_.c_str(), "w");
    bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (f) ok = std::fclose(f) == 0 && ok;
    return ok;
  }
  int fd = saved_ >= 0 ? saved_ : STDOUT_FILENO;
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n <= 0) return false;  // stdout closed: the exit status still says the verdict
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

namespace {

const char* kind_name(engine::FindingKind kind) {
  using K = engine::FindingKind;
  switch (kind) {
    case K::out_of_bounds: return "out_of_bounds";
    case K::shared_out_of_bounds: return "shared_out_of_bounds";
    case K::shared_race: return "shared_race";
    case K::barrier_divergence: return "barrier_divergence";
    case K::fault: return "fault";
    case K::timeout: return "timeout";
    case K::misaligned: return "misaligned";
    case K::warp_divergence: return "warp_divergence";
    case K::warp_misuse: return "warp_misuse";
    case K::async_copy: return "async_copy";
    case K::assertion: return "assertion";
    case K::uninitialized_shared: return "uninitialized_shared";
    case K::inline_ptx: return "inline_ptx";
    case K::deadlock: return "deadlock";
    case K::async_proxy: return "async_proxy";
    case K::cluster_order: return "cluster_order";
    case K::proxy_fence: return "proxy_fence";
    case K::wgmma_accumulator: return "wgmma_accumulator";
  }
  return "unknown";
}

const char* cluster_use_name(engine::Finding::ClusterUse use) {
  using U = engine::Finding::ClusterUse;
  switch (use) {
    case U::none: return "none";
    case U::before_cluster_barrier: return "before_cluster_barrier";
    case U::mbarrier_not_initialized: return "mbarrier_not_initialized";
    case U::mbarrier_init_unordered: return "mbarrier_init_unordered";
    case U::cta_exited: return "cta_exited";
  }
  return "none";
}

const char* async_use_name(engine::Finding::AsyncUse use) {
  using U = engine::Finding::AsyncUse;
  switch (use) {
    case U::none: return "none";
    case U::tma_write_pending: return "tma_write_pending";
    case U::wgmma_reading: return "wgmma_reading";
    case U::bulk_store_reading: return "bulk_store_reading";
    case U::swizzle_mismatch: return "swizzle_mismatch";
  }
  return "none";
}

json dim3_json(const engine::Dim3& d) { return json::array({d.x, d.y, d.z}); }

// The file and line, or null when the backend cannot say (the GPU's canaries).
json location_json(const engine::SourceLocation& at) {
  if (!at.known()) return nullptr;
  return {{"file", at.file}, {"line", at.line}, {"approximate", at.approximate}, {"called_from", at.called_from}};
}

// JSON has no NaN or infinity: such a value is written as its name.
json number_json(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

json group_json(const engine::ThreadGroup& g) {
  json sample = json::array();
  for (const engine::Dim3& t : g.sample) sample.push_back(dim3_json(t));
  json out = {{"returned", g.returned}, {"waits_for", g.waits_for}, {"at", location_json(g.barrier)},
              {"count", g.count}, {"sample", sample}};
  using B = engine::ThreadGroup::BarrierWait::Kind;
  if (g.wait.kind != B::none) {
    out["barrier_wait"] = {{"kind", g.wait.kind == B::mbarrier ? "mbarrier" : "named_barrier"},
                           {"barrier", g.wait.barrier},
                           {"parity", g.wait.parity},
                           {"phase_parity", g.wait.phase_parity},
                           {"pending_arrivals", g.wait.pending_arrivals},
                           {"expected_arrivals", g.wait.expected_arrivals},
                           {"bytes_expected", g.wait.bytes_expected},
                           {"bytes_delivered", g.wait.bytes_delivered},
                           {"initialized", g.wait.initialized},
                           {"arrived", g.wait.arrived},
                           {"count", g.wait.count}};
  }
  return out;
}

json values_json(const Comparison& cmp, const Reference& ref, const std::vector<float>& out) {
  json wrong = json::array(), unwritten = json::array();
  long cols = cmp.dims.n > 0 ? cmp.dims.n : 1;
  for (std::size_t i : cmp.first_wrong) {
    json e = {{"index", i}, {"row", static_cast<long>(i) / cols}, {"col", static_cast<long>(i) % cols}};
    if (i < ref.value.size()) e["expected"] = number_json(ref.value[i]);
    if (i < out.size()) e["got"] = number_json(out[i]);
    wrong.push_back(e);
  }
  for (std::size_t i : cmp.first_unwritten)
    unwritten.push_back({{"index", i}, {"row", static_cast<long>(i) / cols}, {"col", static_cast<long>(i) % cols}});
  return {{"elements", static_cast<std::uint64_t>(cmp.dims.m) * static_cast<std::uint64_t>(cmp.dims.n)},
          {"wrong", cmp.wrong},
          {"unwritten", cmp.unwritten},
          {"first_wrong", wrong},
          {"first_unwritten", unwritten}};
}

json access_profile_json(const engine::AccessProfile& a) {
  return {{"at", location_json(a.at)},   {"shared", a.shared},         {"write", a.write},
          {"access_size", a.access_size}, {"requests", a.requests},     {"wavefronts", a.wavefronts},
          {"ideal_wavefronts", a.ideal_wavefronts}, {"worst_ways", a.worst_ways}, {"sectors", a.sectors},
          {"ideal_sectors", a.ideal_sectors}, {"worst_sectors", a.worst_sectors}};
}

// The CPU backend's notes on tensor copies over the tensor's edges, one per kernel line,
// direction and tensor (edge_notes.h); always present, empty on the GPU.
json tensor_edges_json(const BackendOutcome& o) {
  json notes = json::array();
  for (const engine::TensorEdgeNote& n : merged_tensor_edges(o.launch))
    notes.push_back({{"at", location_json(n.at)},
                     {"store", n.store},
                     {"tensor", n.tensor.empty() ? json(nullptr) : json(n.tensor)},
                     {"dims", n.dims},
                     {"box", n.box},
                     {"first_box", n.first_box},
                     {"first_block", dim3_json(o.config.grid.unlinear(n.first_block))},
                     {"boxes", n.boxes},
                     {"boxes_over_edge", n.boxes_over_edge},
                     {"elements_outside", n.elements_outside}});
  return notes;
}

// The launch as the backend got it; `cluster` is null without thread block clusters.
json launch_json(const engine::LaunchConfig& c) {
  return {{"grid", dim3_json(c.grid)},
          {"block", dim3_json(c.block)},
          {"cluster", c.cluster.count() > 1 ? dim3_json(c.cluster) : json(nullptr)},
          {"dynamic_shared_bytes", c.dynamic_shared_bytes}};
}

json run_json(const BackendOutcome& o, const CaseInputs& in) {
  json findings = json::array();
  for (engine::FindingKind kind : finding_order())
    for (const engine::Finding& f : o.launch.findings)
      if (f.kind == kind) findings.push_back(finding_json(f, o.backend == engine::BackendKind::gpu));
  json totals = json::object();
  for (std::size_t k = 0; k < engine::kFindingKinds; ++k)
    if (o.launch.totals[k]) totals[kind_name(static_cast<engine::FindingKind>(k))] = o.launch.totals[k];
  const engine::LaunchStats& s = o.launch.stats;
  json run = {{"backend", engine::to_string(o.backend)},
              {"passed", o.passed()},
              {"refused", o.refused() ? rejection_json(o.launch.rejected) : json(nullptr)},
              {"stopped", o.stopped()},
              {"device_lost", o.launch.device_lost},
              {"thread_order", engine::to_string(o.order)},
              {"later_order", o.later_order},
              {"values", o.compared ? values_json(o.comparison, in.reference, o.out) : json(nullptr)},
              {"findings", findings},
              {"finding_totals", totals},
              {"milliseconds", s.milliseconds},
              {"launch", launch_json(o.config)}};
  run["global_loads"] = s.loads_counted ? json{{"busiest_thread", s.max_global_loads},
                                               {"thread", {{"block", dim3_json(s.max_loads_thread.block)},
                                                           {"thread", dim3_json(s.max_loads_thread.thread)}}},
                                               {"total", s.total_global_loads},
                                               {"budget", o.load_budget},
                                               {"over_budget", o.over_budget}}
                                        : json(nullptr);
  run["bank_conflicts"] = o.bank_conflicts ? access_profile_json(*o.bank_conflicts) : json(nullptr);
  run["scattered_loads"] = o.scattered_loads ? access_profile_json(*o.scattered_loads) : json(nullptr);
  run["tensor_edges"] = tensor_edges_json(o);
  run["tensor_edges_truncated"] = o.launch.tensor_edges_truncated;
  run["order_dependent"] = o.order_dependent ? json{{"first", engine::to_string(o.first_order)},
                                                    {"other", engine::to_string(o.order)}}
                                             : json(nullptr);
  return run;
}

}  // namespace

const char* finding_kind_name(engine::FindingKind kind) { return kind_name(kind); }

json dims_json(const Dims& d) { return {{"m", d.m}, {"n", d.n}, {"k", d.k}}; }

json finding_json(const engine::Finding& f, bool gpu) {
  // The diagnostic line's summary, also where the line is unknown (explain.h).
  std::string summary = finding_summary(f, gpu);
  json out = {{"kind", kind_name(f.kind)},
              {"summary", summary.empty() ? generic_finding_summary(f) : summary},
              {"thread_known", f.thread_known},
              {"block", f.thread_known ? dim3_json(f.where.block) : json(nullptr)},
              {"thread", f.thread_known ? dim3_json(f.where.thread) : json(nullptr)},
              {"at", location_json(f.at)},
              {"buffer", f.buffer.empty() ? json(nullptr) : json(f.buffer)},
              {"index", f.buffer.empty() ? json(nullptr) : json(f.index)},
              {"is_write", f.is_write},
              {"is_shared", f.is_shared},
              {"access_size", f.access_size},
              {"element_size", f.element_size},
              {"buffer_elements", f.buffer_elements},
              {"dims", f.dims},
              {"op", f.op},
              {"detail", f.detail}};
  if (f.kind == engine::FindingKind::shared_race || f.kind == engine::FindingKind::async_copy ||
      f.kind == engine::FindingKind::proxy_fence || f.kind == engine::FindingKind::wgmma_accumulator)
    out["other"] = {{"block", dim3_json(f.other.block)}, {"thread", dim3_json(f.other.thread)},
                    {"is_write", f.other_is_write}, {"at", location_json(f.other_at)}};
  if (!f.groups.empty()) {
    json groups = json::array();
    for (const engine::ThreadGroup& g : f.groups) groups.push_back(group_json(g));
    out["groups"] = groups;
  }
  if (f.kind == engine::FindingKind::warp_divergence || f.kind == engine::FindingKind::warp_misuse) {
    out["warp"] = f.warp;
    out["mask"] = f.mask;
  }
  if (f.kind == engine::FindingKind::warp_misuse)
    out["misuse"] = {{"rule", engine::to_string(f.misuse)}, {"value", f.misuse_value}, {"limit", f.misuse_limit},
                     {"subject", f.misuse_subject}};
  if (f.cluster_use != engine::Finding::ClusterUse::none)
    out["cluster"] = {{"use", cluster_use_name(f.cluster_use)}, {"other_rank", f.other_rank},
                      {"mbarrier", f.cluster_mbarrier}};
  if (f.kind == engine::FindingKind::proxy_fence)
    out["proxy_reader"] = f.proxy_reader == engine::Finding::ProxyReader::wgmma ? "wgmma" : "tensor_store";
  if (f.async_use != engine::Finding::AsyncUse::none) {
    out["async_use"] = async_use_name(f.async_use);
    out["swizzle_written"] = f.swizzle_written;
    out["swizzle_read"] = f.swizzle_read;
  }
  return out;
}

json rejection_json(const engine::LaunchRejection& r) {
  return {{"code", engine::to_string(r.why)},
          {"kernel", r.kernel},
          {"shape", dim3_json(r.shape)},
          {"limit_shape", dim3_json(r.limit_shape)},
          {"cluster", dim3_json(r.cluster)},
          {"requested", r.requested},
          {"limit", r.limit},
          {"static_shared", r.static_shared},
          {"registers", r.registers},
          {"attribute_would_help", r.attribute_would_help},
          {"cuda_error", r.cuda_error}};
}

json reason_json(const BackendReason& r) {
  json data = json::object();
  if (r.code == BackendReason::Code::gpu_unavailable) {
    data["gpu"] = engine::to_string(r.gpu.why);
    if (!r.gpu.cuda_error.empty()) data["cuda_error"] = r.gpu.cuda_error;
  }
  if (r.code == BackendReason::Code::gpu_too_old) data["device_sm"] = r.device_sm;
  return {{"code", to_string(r.code)}, {"data", data}};
}

json bench_row_json(const BenchRow& r) {
  return {{"shape", dims_json(r.dims)},     {"implementation", r.implementation},
          {"cublas", r.cublas},             {"milliseconds", r.milliseconds},
          {"percent_of_baseline", r.percent_of_baseline}, {"tflops", r.tflops()}};
}

json case_json(const PuzzleSpec& spec, const Case& c, std::size_t index, bool passed, const CaseInputs& in,
               const BackendOutcome* gpu, const BackendOutcome* cpu) {
  (void)spec;
  json runs = json::array();
  if (gpu) runs.push_back(run_json(*gpu, in));
  if (cpu) runs.push_back(run_json(*cpu, in));
  return {{"index", index + 1}, {"label", c.label}, {"worked", c.worked}, {"shape", dims_json(c.dims)},
          {"passed", passed}, {"runs", runs}};
}

json profile_json(const engine::LaunchResult& profiled) {
  json rows = json::array();
  for (const ProfileRow& r : profile_rows(profiled)) {
    json row = {{"line", r.line},       {"approximate", r.approximate}, {"shared", r.shared},
                {"write", r.write},     {"access_size", r.access_size}, {"requests", r.requests},
                {"excess", r.excess}};
    if (r.shared) {
      row["average_ways"] = r.average_ways;
      row["worst_ways"] = r.worst_ways;
      row["wavefront_ratio"] = r.wavefront_ratio;
    } else {
      row["sectors_per_request"] = r.sectors_per_request;
      row["ideal_sectors_per_request"] = r.ideal_sectors_per_request;
    }
    rows.push_back(row);
  }
  json copies = json::array();
  for (const TensorCopyRow& r : tensor_copy_rows(profiled))
    copies.push_back({{"line", r.line}, {"approximate", r.approximate}, {"store", r.store}, {"multicast", r.multicast},
                      {"mbarrier", r.store ? json(nullptr) : json(r.barrier)}, {"copies", r.copies}, {"bytes", r.bytes},
                      {"phases", r.phases}});
  json mmas = json::array();
  for (const WarpgroupMmaRow& r : warpgroup_mma_rows(profiled)) {
    using Op = engine::WarpgroupMmaProfile::Op;
    mmas.push_back({{"warpgroup", r.warpgroup}, {"line", r.line}, {"approximate", r.approximate},
                    {"instruction", engine::to_string(r.op)},
                    {"shape", r.op == Op::mma ? json(instruction_words(r)) : json(nullptr)},
                    {"pending", r.op == Op::wait_group ? json(r.n) : json(nullptr)}, {"issued", r.instructions},
                    {"flops", r.flops}});
  }
  return {{"rows", rows},
          {"truncated", profiled.profile_truncated || profiled.async_profile_truncated},
          {"tensor_copies", copies},
          {"warpgroup_mma", mmas}};
}

}  // namespace checker

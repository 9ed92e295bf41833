#include "kernel_run.h"

#include <algorithm>
#include <cstdio>

#include "checker/explain.h"
#include "edge_notes.h"
#include "json_report.h"

namespace checker {
namespace {

bool fits_cpu_checks(const Dims& d) { return d.multiply_adds() <= kCpuCheckMultiplyAdds; }

std::string size_text(const PuzzleSpec& spec, const Dims& d) {
  return spec.square ? std::to_string(d.n)
                     : std::to_string(d.m) + "x" + std::to_string(d.n) + "x" + std::to_string(d.k);
}

// "n = 1, 16, 33" or "m x n x k = 1x1x1, 33x65x17" for the cases that pass `keep`.
template <typename Keep>
std::string sizes_words(const PuzzleSpec& spec, const std::vector<Case>& list, Keep keep) {
  std::string s;
  for (const Case& c : list) {
    if (c.worked || !keep(c)) continue;
    s += (s.empty() ? "" : ", ") + size_text(spec, c.dims);
  }
  if (s.empty()) return "";
  return (spec.square ? spec.size_name + " = " : "m x n x k = ") + s;
}

bool smaller(const Dims& x, const Dims& y) {
  if (x.multiply_adds() != y.multiply_adds()) return x.multiply_adds() < y.multiply_adds();
  if (x.m != y.m) return x.m < y.m;
  return x.n != y.n ? x.n < y.n : x.k < y.k;
}

bool has_kind(const engine::LaunchResult& r, engine::FindingKind kind) { return r.total(kind) > 0; }

bool gpu_runs_it(const PuzzleSpec& spec, unsigned capability) { return spec.runs_on_gpu(capability); }

}  // namespace

KernelRun::KernelRun(const PuzzleSpec& spec, const Options& options, const Backends& backends,
                     const engine::KernelImage& cpu_image, const engine::KernelImage& gpu_image, Style style)
    : spec_(spec),
      opt_(options),
      backends_(backends),
      mode_(backends.mode),
      reason_(backends.reason),
      cpu_image_(cpu_image),
      gpu_image_(gpu_image),
      st_(style) {
  // A kernel that nvcc cannot compile (a CPU-only build of it), or that needs a newer GPU than
  // this one, still gets the CPU's checks.
  if (mode_ == RunMode::gpu_with_cpu_checks) {
    unsigned device = backends.gpu ? backends.gpu->limits().compute_capability : 0;
    if (spec_.requires_gpu && device && !gpu_runs_it(spec_, device)) {
      mode_ = RunMode::cpu;
      reason_ = BackendReason{BackendReason::Code::gpu_too_old, {}, device};
    } else if (gpu_image.address == nullptr) {
      mode_ = RunMode::cpu;
      reason_ = BackendReason{BackendReason::Code::no_gpu_code, {}, 0};
    }
  }
  std::vector<Case> list = cases();
  report_.emplace(spec_, st_, sizes_words(spec_, list, [](const Case& c) { return c.on_cpu; }));
}

std::vector<Case> KernelRun::cases() const {
  bool gpu = mode_ != RunMode::cpu;
  bool cpu = mode_ != RunMode::gpu;
  std::vector<Case> list{{"worked example", spec_.cases.worked, true, gpu, cpu}};
  std::vector<Dims> sizes;
  if (opt_.size.size() == 1) {
    sizes = {Dims{opt_.size[0], opt_.size[0], opt_.size[0]}};
  } else if (opt_.size.size() == 3) {
    sizes = {Dims{opt_.size[0], opt_.size[1], opt_.size[2]}};
  } else if (mode_ == RunMode::cpu) {
    sizes = spec_.cases.cpu;
  } else {
    sizes = spec_.cases.gpu;
    if (mode_ == RunMode::gpu_with_cpu_checks)
      for (const Dims& d : spec_.cases.cpu)
        if (fits_cpu_checks(d)) sizes.push_back(d);
    std::sort(sizes.begin(), sizes.end(), smaller);
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  }
  if (opt_.quick && sizes.size() > 2) sizes.resize(2);
  for (const Dims& d : sizes) {
    bool checked_on_cpu = mode_ == RunMode::cpu || (mode_ == RunMode::gpu_with_cpu_checks && fits_cpu_checks(d));
    list.push_back({"random, seed " + std::to_string(opt_.seed), d, false, gpu, checked_on_cpu});
  }
  return list;
}

void KernelRun::print_header(bool first_kernel, const std::vector<Case>& list) const {
  const std::string reason = first_kernel ? backend_reason_words(reason_, spec_) : "";
  const bool instrumented = cpu_image_.instrumented;
  switch (mode_) {
    case RunMode::cpu:
      std::printf("Backend: cpu (%s)\n", backends_.cpu->description().c_str());
      break;
    case RunMode::gpu:
      std::printf("Backend: gpu (%s)\n", backends_.gpu->description().c_str());
      break;
    case RunMode::gpu_with_cpu_checks:
      std::printf("Backend: gpu (%s), then cpu (%s)\n", backends_.gpu->description().c_str(),
                  backends_.cpu->description().c_str());
      break;
  }
  if (!reason.empty()) std::printf("         %s\n", reason.c_str());
  if (mode_ == RunMode::gpu_with_cpu_checks) {
    std::string cpu_sizes = sizes_words(spec_, list, [](const Case& c) { return c.on_cpu; });
    std::printf("         Every case runs on the GPU; the worked example%s again under the CPU backend's "
                "checks.\n",
                cpu_sizes.empty() ? " runs" : (" and " + cpu_sizes + " run").c_str());
  }
  std::printf("Launch:  %s\n", spec_.launch_words().c_str());
  std::printf("Cases:   a worked example (%s), then random matrices from seed %llu at %s\n",
              spec_.size_words(spec_.cases.worked).c_str(), static_cast<unsigned long long>(opt_.seed),
              sizes_words(spec_, list, [](const Case&) { return true; }).c_str());
  switch (mode_) {
    case RunMode::cpu:
      std::printf("Checks:  %s\n\n", cpu_checks(spec_, instrumented).c_str());
      break;
    case RunMode::gpu:
      std::printf("Checks:  %s\n         %s\n\n", gpu_checks().c_str(), gpu_alone_cannot_check().c_str());
      break;
    case RunMode::gpu_with_cpu_checks:
      std::printf("Checks:  GPU: %s\n         CPU: %s\n\n", gpu_checks().c_str(), cpu_checks(spec_, instrumented).c_str());
      break;
  }
}

Tally KernelRun::run_all(bool first_kernel) {
  std::vector<Case> list = cases();
  print_header(first_kernel, list);
  Tally tally;
  tally.total = list.size();
  std::size_t ran = 0;
  bool said_gpu_gone = false;
  for (std::size_t i = 0; i < list.size() && !stop_; ++i) {
    if (device_lost_ && !list[i].on_cpu) continue;  // only the CPU backend is left
    if (device_lost_ && !said_gpu_gone && mode_ == RunMode::gpu_with_cpu_checks) {
      std::printf("The GPU runs nothing more in this program: the cases that the CPU backend checks run there "
                  "alone.\n\n");
      said_gpu_gone = true;
    }
    ++ran;
    tally.passed += run_case(list[i], i, list.size()) ? 1 : 0;
  }
  // --bench without a GPU reports what the CPU backend measures: the largest case that
  // passed runs once more, with every access logged for the memory profile.
  // --profile does the same on whichever backend has the CPU checks.
  if (opt_.bench && mode_ == RunMode::cpu && cpu_measure_ && cpu_image_.instrumented) profile_at(*cpu_measure_);
  // --profile: the same, on the largest case the CPU backend ran to its end (passed or not: a
  // kernel that fails on bank conflicts is the one to look at), up to a size that stays quick.
  if (opt_.profile && mode_ != RunMode::gpu && profile_measure_ && cpu_image_.instrumented)
    profile_at(*profile_measure_);
  if (ran < list.size()) {
    std::size_t left = list.size() - ran;
    std::printf("Stopped early: %s not run.\n\n",
                left == 1 ? "the last case was" : ("the last " + std::to_string(left) + " cases were").c_str());
  }
  return tally;
}

void KernelRun::profile_at(CpuMeasure& measure) const {
  Case c{"profile", measure.dims, false, false, true};
  measure.profile_run = CaseRunner(spec_, opt_, *backends_.cpu, cpu_image_).profile(c, make_inputs(spec_, c, opt_.seed));
  measure.profiled = true;
}

std::string KernelRun::case_heading(const Case& c, std::size_t index, std::size_t count) const {
  std::string s = "[" + std::to_string(index + 1) + "/" + std::to_string(count) + "] " + c.label + ", " +
                  spec_.size_words(c.dims);
  if (mode_ != RunMode::gpu_with_cpu_checks) return s;
  if (device_lost_) return s + " (CPU)";
  return s + (c.on_cpu ? " (GPU and CPU)" : " (GPU)");
}

bool KernelRun::run_case(const Case& c, std::size_t index, std::size_t count) {
  std::printf("%s\n", st_.bold(case_heading(c, index, count)).c_str());
  CaseInputs in = make_inputs(spec_, c, opt_.seed);
  bool passed = false;
  auto run_on_cpu = [&] {
    // The case's place in the CPU backend's own list, not in this run's: its thread order and
    // shuffle follow that place, so that auto's CPU checks run a case exactly as
    // --backend=cpu does and find what it finds.
    std::size_t place = index;
    if (c.worked) place = 0;
    else if (opt_.size.empty())
      for (std::size_t i = 0; i < spec_.cases.cpu.size(); ++i)
        if (spec_.cases.cpu[i] == c.dims) place = i + 1;
    BackendOutcome o = CaseRunner(spec_, opt_, *backends_.cpu, cpu_image_).run(c, place, in);
    if (o.passed() && (!cpu_measure_ || cpu_measure_->dims.multiply_adds() <= c.dims.multiply_adds()))
      cpu_measure_ = CpuMeasure{c.dims, o.launch.stats, false, {}};
    if (!o.refused() && !o.stopped() && c.dims.multiply_adds() <= kProfileMultiplyAdds &&
        (!profile_measure_ || profile_measure_->dims.multiply_adds() <= c.dims.multiply_adds()))
      profile_measure_ = CpuMeasure{c.dims, o.launch.stats, false, {}};
    return o;
  };

  std::optional<BackendOutcome> gpu, cpu;  // the case's runs, kept for --json
  if (mode_ == RunMode::cpu || device_lost_) {
    cpu = run_on_cpu();
    passed = report_->print_single(c, in, *cpu, FollowUp::other_runs);
    stop_ = cpu->refused() || has_kind(cpu->launch, engine::FindingKind::timeout);
  } else if (mode_ == RunMode::gpu) {
    gpu = CaseRunner(spec_, opt_, *backends_.gpu, gpu_image_).run(c, index, in);
    passed = report_->print_single(c, in, *gpu, FollowUp::other_runs);
    device_lost_ = gpu->launch.device_lost;
    stop_ = gpu->refused() || has_kind(gpu->launch, engine::FindingKind::timeout) || device_lost_;
  } else {
    gpu = CaseRunner(spec_, opt_, *backends_.gpu, gpu_image_).run(c, index, in);
    if (c.on_cpu && !gpu->refused()) cpu = run_on_cpu();
    passed = report_->print_auto(c, in, *gpu, cpu ? &*cpu : nullptr);
    device_lost_ = gpu->launch.device_lost;
    // Past a GPU time limit or crash the CPU backend carries on with the cases it checks,
    // unless it hit its own time limit: the next cases would wait for it again.
    stop_ = gpu->refused() || (cpu && has_kind(cpu->launch, engine::FindingKind::timeout));
  }
  std::printf("  %s\n", passed ? st_.green("PASS").c_str() : st_.red("FAIL").c_str());
  // --explain: what the CPU backend noticed that is legal, after the verdict it did not change.
  if (opt_.explain && cpu)
    for (const std::string& note : explain_tensor_edges(cpu->launch)) std::printf("  %s\n", note.c_str());
  std::printf("\n");
  if (opt_.json)
    cases_json_.push_back(case_json(spec_, c, index, passed, in, gpu ? &*gpu : nullptr, cpu ? &*cpu : nullptr));
  return passed;
}

}  // namespace checker

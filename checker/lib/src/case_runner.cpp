#include "case_runner.h"

#include <cstring>
#include <iterator>

#include "kernel_args.h"

namespace checker {
namespace {

using engine::FindingKind;

// Without cudaFuncSetAttribute a launch may not ask for more dynamic shared memory than this.
constexpr std::size_t kDefaultDynamicSharedLimit = 48 * 1024;
// The memory profile logs every access, which slows a launch down several times; a kernel's
// access pattern shows as well at 256³ as beyond, so larger cases skip it.

// A case's buffers on a backend and the kernel's arguments pointing at them. Not movable:
// the argument pointers point into it.
struct DeviceCase {
  DeviceMatrix a, b;
  engine::DeviceArray<float> out;
  KernelArgs args;
  std::vector<void*> pointers;

  DeviceCase(engine::Backend& backend, const PuzzleSpec& spec, const Dims& d, const Problem& p)
      : a(backend, p.a, spec.a_type, "a"),
        b(backend, p.b, spec.b_type, "b"),
        out(backend, p.c_in.size(), spec.output_name),
        args{a.get(), b.get(), out.get(), static_cast<int>(d.m), static_cast<int>(d.n), static_cast<int>(d.k),
             p.alpha, p.beta},
        pointers(args.pointers(spec)) {}
  DeviceCase(const DeviceCase&) = delete;
  DeviceCase& operator=(const DeviceCase&) = delete;
};

}  // namespace

bool BackendOutcome::stopped() const {
  return launch.total(FindingKind::fault) > 0 || launch.total(FindingKind::timeout) > 0 || launch.device_lost;
}

bool BackendOutcome::passed() const {
  return !refused() && launch.findings.empty() && !launch.device_lost && compared && comparison.ok() &&
         !over_budget && !order_dependent && !bank_conflicts && !scattered_loads;
}

double sectors_per_request(const engine::AccessProfile& a) {
  return a.requests ? static_cast<double>(a.sectors) / static_cast<double>(a.requests) : 0.0;
}

std::vector<engine::Dim3> BackendOutcome::out_of_bounds_blocks() const {
  std::vector<engine::Dim3> blocks;
  for (const engine::Finding& f : launch.findings)
    if ((f.kind == FindingKind::out_of_bounds || f.kind == FindingKind::shared_out_of_bounds) && f.thread_known)
      blocks.push_back(f.where.block);
  return blocks;
}

CaseInputs make_inputs(const PuzzleSpec& spec, const Case& c, std::uint64_t seed) {
  CaseInputs in;
  in.problem = c.worked ? worked_problem(spec, c.dims) : random_problem(spec, c.dims, seed);
  in.reference = reference_result(spec, in.problem);
  return in;
}

CaseRunner::CaseRunner(const PuzzleSpec& spec, const Options& options, engine::Backend& backend,
                       const engine::KernelImage& image)
    : spec_(spec), opt_(options), backend_(backend), image_(image) {}

BackendOutcome CaseRunner::run(const Case& c, std::size_t index, const CaseInputs& in) const {
  const Problem& p = in.problem;
  BackendOutcome outcome;
  outcome.backend = backend_.kind();
  outcome.config = spec_.launch_for(c.dims, backend_.limits());
  const engine::LaunchConfig config = outcome.config;
  if (config.dynamic_shared_bytes > kDefaultDynamicSharedLimit) {
    try {
      backend_.set_max_dynamic_shared_bytes(image_, config.dynamic_shared_bytes);
    } catch (const engine::LaunchRefused& e) {
      outcome.launch.rejected = e.rejection;  // the kernel asks more than the device has
      return outcome;
    }
  }
  DeviceCase device(backend_, spec_, c.dims, p);
  try {
    device.args.encode_maps(backend_, spec_, c.dims);
  } catch (const engine::Error& e) {
    outcome.launch.rejected.why = engine::LaunchRejection::Why::tensor_map_refused;  // a map the spec asks for
    outcome.launch.rejected.kernel = image_.name;
    outcome.launch.rejected.cuda_error = e.what();
    return outcome;
  }

  std::vector<engine::ThreadOrder> orders = orders_for(c, index);
  for (std::size_t o = 0; o < orders.size(); ++o) {
    engine::RunOptions run;
    run.timeout_seconds = timeout_for(c.dims);
    run.order = orders[o];
    run.shuffle_seed = opt_.seed + index;
    // One launch tells: the memory pattern does not depend on the thread order.
    run.profile = o == 0 && profiles() && c.dims.multiply_adds() <= kProfileMultiplyAdds;
    device.out.upload(p.c_in);
    engine::LaunchResult r = backend_.launch(image_, config, device.pointers.data(), run);
    std::vector<float> result = !r.rejected.refused() && !r.device_lost ? device.out.download() : std::vector<float>{};

    BackendOutcome judged;
    judged.backend = outcome.backend;
    judged.config = outcome.config;
    judged.order = orders[o];
    judged.later_order = o > 0;
    judged.launch = std::move(r);
    judged.out = std::move(result);
    if (judged.refused() || judged.stopped()) return judged;
    judged.comparison = compare(judged.out, p.c_in, in.reference);
    judged.compared = true;
    judged.load_budget = spec_.load_budget(c.dims);
    judged.over_budget = judged.launch.findings.empty() && judged.comparison.ok() &&
                         judged.launch.stats.loads_counted && judged.load_budget > 0 &&
                         judged.launch.stats.max_global_loads > judged.load_budget;
    if (judged.launch.findings.empty() && judged.comparison.ok() && !judged.over_budget) judge_profile(judged, c.dims);
    if (!judged.passed()) return judged;
    if (o == 0) {
      outcome = std::move(judged);
      continue;
    }
    if (std::memcmp(outcome.out.data(), judged.out.data(), judged.out.size() * sizeof(float)) != 0) {
      outcome.order_dependent = true;
      outcome.first_order = orders[0];
      outcome.order = orders[o];
      return outcome;
    }
  }
  return outcome;
}

bool CaseRunner::profiles() const {
  return backend_.kind() == engine::BackendKind::cpu && image_.instrumented &&
         (spec_.limits.bank_conflict_ways || spec_.limits.sectors_per_request);
}

void CaseRunner::judge_profile(BackendOutcome& o, const Dims& d) const {
  // A row that starts inside a 32-byte sector costs a coalesced warp one sector more: the
  // sectors limit means something only where every row of a and b starts on a sector.
  auto per_sector = [](ElementType t) { return static_cast<long>(32 / size_of(t)); };
  const bool rows_aligned = d.k % per_sector(spec_.a_type) == 0 && d.n % per_sector(spec_.b_type) == 0;
  for (const engine::AccessProfile& a : o.launch.profile) {
    if (a.shared && spec_.limits.bank_conflict_ways && a.worst_ways > static_cast<unsigned>(*spec_.limits.bank_conflict_ways) &&
        (!o.bank_conflicts || a.worst_ways > o.bank_conflicts->worst_ways))
      o.bank_conflicts = a;
    if (!a.shared && !a.write && rows_aligned && spec_.limits.sectors_per_request &&
        sectors_per_request(a) > *spec_.limits.sectors_per_request &&
        (!o.scattered_loads || sectors_per_request(a) > sectors_per_request(*o.scattered_loads)))
      o.scattered_loads = a;
  }
}

engine::LaunchResult CaseRunner::profile(const Case& c, const CaseInputs& in) const {
  DeviceCase device(backend_, spec_, c.dims, in.problem);
  engine::LaunchResult refused;
  try {
    device.args.encode_maps(backend_, spec_, c.dims);  // as the case itself ran
  } catch (const engine::Error& e) {
    refused.rejected.why = engine::LaunchRejection::Why::tensor_map_refused;
    refused.rejected.kernel = image_.name;
    refused.rejected.cuda_error = e.what();
    return refused;
  }
  engine::RunOptions run;
  run.timeout_seconds = 2 * timeout_for(c.dims);  // logging every access takes longer
  run.profile = true;
  return backend_.launch(image_, spec_.launch_for(c.dims, backend_.limits()), device.pointers.data(), run);
}

std::vector<engine::ThreadOrder> CaseRunner::orders_for(const Case& c, std::size_t index) const {
  using engine::ThreadOrder;
  if (backend_.kind() == engine::BackendKind::gpu) return {ThreadOrder::forward};
  if (opt_.all_orders || c.worked) return {std::begin(engine::kThreadOrders), std::end(engine::kThreadOrders)};
  return {engine::kThreadOrders[index % std::size(engine::kThreadOrders)]};
}

double CaseRunner::timeout_for(const Dims& d) const {
  if (opt_.timeout_seconds) return *opt_.timeout_seconds;
  if (backend_.kind() == engine::BackendKind::gpu) return 5.0;
  // 40 ns of the clock per multiply-add: four times what puzzle 2's column walks take at
  // n = 1024 on an idle 2-core machine (1.07e9 in 12 s), which is bound by memory, so that a
  // neighbour's traffic slows it with no wait for a core to discount (isolated_launch.cpp);
  // 10 ns left it 3.7 s of headroom, and a parallel test run crossed it.
  return 5.0 + 4e-8 * static_cast<double>(d.multiply_adds());
}

}  // namespace checker

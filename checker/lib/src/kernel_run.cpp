#include "kernel_run.h"

#include <cstdio>
#include <cstring>
#include <memory>

#include "checker/explain.h"
#include "checker/shared_shapes.h"
#include "engine/device_array.h"

namespace checker {
namespace {

using engine::LaunchResult;

// A matrix in device memory, as float or as half bits.
class DeviceMatrix {
 public:
  DeviceMatrix(engine::Backend& backend, const std::vector<float>& values, ElementType type, const std::string& name) {
    if (type == ElementType::f32) {
      f32_ = std::make_unique<engine::DeviceArray<float>>(backend, values.size(), name);
      f32_->upload(values);
    } else {
      std::vector<std::uint16_t> bits(values.size());
      for (std::size_t i = 0; i < values.size(); ++i) bits[i] = half_bits(values[i]);
      f16_ = std::make_unique<engine::DeviceArray<std::uint16_t>>(backend, bits.size(), name);
      f16_->upload(bits);
    }
  }
  void* get() const { return f32_ ? static_cast<void*>(f32_->get()) : static_cast<void*>(f16_->get()); }

 private:
  std::unique_ptr<engine::DeviceArray<float>> f32_;
  std::unique_ptr<engine::DeviceArray<std::uint16_t>> f16_;
};

// The kernel's arguments, and the array of pointers to them that a launch takes, in the
// order of the spec's signature.
struct KernelArgs {
  void* a;
  void* b;
  void* c;
  int m, n, k;
  float alpha, beta;

  std::vector<void*> pointers(const PuzzleSpec& spec) {
    std::vector<void*> out;
    for (const KernelParam& p : spec.params) {
      switch (p.role) {
        case ParamRole::a: out.push_back(&a); break;
        case ParamRole::b: out.push_back(&b); break;
        case ParamRole::c: out.push_back(&c); break;
        case ParamRole::m: out.push_back(&m); break;
        case ParamRole::n:
        case ParamRole::size: out.push_back(&n); break;
        case ParamRole::k: out.push_back(&k); break;
        case ParamRole::alpha: out.push_back(&alpha); break;
        case ParamRole::beta: out.push_back(&beta); break;
      }
    }
    out.push_back(nullptr);
    return out;
  }
};

std::string sizes_words(const PuzzleSpec& spec, const std::vector<Case>& list) {
  std::string s;
  for (const Case& c : list) {
    if (c.worked) continue;
    s += s.empty() ? "" : ", ";
    s += spec.square ? std::to_string(c.dims.n)
                     : std::to_string(c.dims.m) + "x" + std::to_string(c.dims.n) + "x" + std::to_string(c.dims.k);
  }
  return (spec.square ? spec.size_name + " = " : "m x n x k = ") + s;
}

}  // namespace

KernelRun::KernelRun(const PuzzleSpec& spec, const Options& options, engine::Backend& backend,
                     const engine::KernelImage& image, Style style)
    : spec_(spec), opt_(options), backend_(backend), image_(image), st_(style) {
  shared_shapes_ = read_shared_shapes(image.source);
}

std::vector<Case> KernelRun::cases() const {
  std::vector<Case> list{{"worked example", spec_.cases.worked, true}};
  std::vector<Dims> sizes = backend_.kind() == engine::BackendKind::gpu ? spec_.cases.gpu : spec_.cases.cpu;
  if (opt_.size.size() == 1) sizes = {Dims{opt_.size[0], opt_.size[0], opt_.size[0]}};
  if (opt_.size.size() == 3) sizes = {Dims{opt_.size[0], opt_.size[1], opt_.size[2]}};
  if (opt_.quick && sizes.size() > 2) sizes.resize(2);
  for (const Dims& d : sizes) list.push_back({"random, seed " + std::to_string(opt_.seed), d, false});
  return list;
}

void KernelRun::print_header(const std::string& backend_reason, const std::vector<Case>& list) const {
  bool cpu = backend_.kind() == engine::BackendKind::cpu;
  std::printf("Backend: %s (%s)\n", engine::to_string(backend_.kind()), backend_.description().c_str());
  if (!backend_reason.empty()) std::printf("         %s\n", backend_reason.c_str());
  std::printf("Launch:  %s\n", spec_.launch_words().c_str());
  std::printf("Cases:   a worked example (%s), then random matrices from seed %llu at %s\n",
              spec_.size_words(spec_.cases.worked).c_str(), static_cast<unsigned long long>(opt_.seed),
              sizes_words(spec_, list).c_str());
  std::string checks;
  if (cpu && image_.instrumented)
    checks = "out-of-bounds accesses, unwritten outputs, barriers, shared-memory races, thread order";
  else if (cpu)
    checks = "out-of-bounds writes, crashes, unwritten outputs, barriers, thread order (exact read checks, "
             "races and load budgets are off: this build's kernels are not instrumented; build with clang++)";
  else
    checks = "out-of-bounds writes (canaries), unwritten outputs, crashes, time limit (--sanitize for more)";
  if (cpu && image_.instrumented && spec_.limits.global_loads_per_thread)
    checks += ", at most " + spec_.formula_words(spec_.limits.global_loads_per_thread->max) +
              " global loads per thread";
  std::printf("Checks:  %s\n\n", checks.c_str());
}

bool KernelRun::run_case(const Case& c, std::size_t index, std::size_t count) {
  std::printf("%s\n", st_.bold("[" + std::to_string(index + 1) + "/" + std::to_string(count) + "] " + c.label + ", " +
                               spec_.size_words(c.dims))
                          .c_str());
  Problem p = c.worked ? worked_problem(spec_, c.dims) : random_problem(spec_, c.dims, opt_.seed);
  Reference ref = reference_result(spec_, p);
  DeviceMatrix a(backend_, p.a, spec_.a_type, "a"), b(backend_, p.b, spec_.b_type, "b");
  engine::DeviceArray<float> out(backend_, p.c_in.size(), spec_.output_name);
  KernelArgs args{a.get(), b.get(), out.get(), static_cast<int>(c.dims.m), static_cast<int>(c.dims.n),
                  static_cast<int>(c.dims.k), p.alpha, p.beta};
  std::vector<void*> arg_pointers = args.pointers(spec_);
  engine::LaunchConfig config = spec_.launch_for(c.dims);

  std::vector<engine::ThreadOrder> orders = orders_for(c, index);
  std::vector<float> first_result;
  bool passed = true;
  for (std::size_t o = 0; o < orders.size(); ++o) {
    engine::RunOptions run;
    run.timeout_seconds = timeout_for(c.dims);
    run.order = orders[o];
    run.shuffle_seed = opt_.seed + index;
    out.upload(p.c_in);
    LaunchResult r = backend_.launch(image_, config, arg_pointers.data(), run);
    std::vector<float> result = r.rejected.empty() && !r.device_lost ? out.download() : std::vector<float>{};
    bool shown_order = orders.size() > 1 && o > 0;
    if (!judge(c, p, ref, r, result, shown_order ? engine::to_string(orders[o]) : nullptr)) {
      passed = false;
      break;
    }
    if (o == 0) {
      first_result = result;
    } else if (std::memcmp(first_result.data(), result.data(), result.size() * sizeof(float)) != 0) {
      std::printf("  %s: the result changes when the threads of a block run in %s order instead of %s "
                  "order. Threads that share data must wait for each other with __syncthreads().\n",
                  st_.bold("Result depends on thread order").c_str(), engine::to_string(orders[o]),
                  engine::to_string(orders[0]));
      passed = false;
      break;
    }
  }
  std::printf("  %s\n\n", passed ? st_.green("PASS").c_str() : st_.red("FAIL").c_str());
  return passed;
}

std::vector<engine::ThreadOrder> KernelRun::orders_for(const Case& c, std::size_t index) const {
  using engine::ThreadOrder;
  if (backend_.kind() == engine::BackendKind::gpu) return {ThreadOrder::forward};
  if (opt_.all_orders || c.worked) return {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::shuffled};
  const ThreadOrder rotation[] = {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::shuffled};
  return {rotation[index % 3]};
}

double KernelRun::timeout_for(const Dims& d) const {
  if (opt_.timeout_seconds) return *opt_.timeout_seconds;
  if (backend_.kind() == engine::BackendKind::gpu) return 5.0;
  return 5.0 + 1e-8 * static_cast<double>(d.multiply_adds());
}

bool KernelRun::judge(const Case& c, const Problem& p, const Reference& ref, const LaunchResult& r,
                      const std::vector<float>& out, const char* order_name) {
  if (!r.rejected.empty()) {
    std::printf("  %s: %s.\n", st_.bold("The launch was refused").c_str(), r.rejected.c_str());
    stop_ = true;  // every case has the same kernel: it would be refused again
    return false;
  }
  bool small = p.a.size() <= 16 && p.b.size() <= 16 && out.size() <= 16;
  bool fatal = r.total(engine::FindingKind::fault) > 0 || r.total(engine::FindingKind::timeout) > 0;
  if (small && !out.empty() && !order_name) {
    std::printf("  a:        %s\n", format_list(p.a).c_str());
    std::printf("  b:        %s\n", format_list(p.b).c_str());
    if (spec_.epilogue == Epilogue::alpha_beta)
      std::printf("  alpha = %s, beta = %s, %s before the launch: %s\n", format_value(p.alpha).c_str(),
                  format_value(p.beta).c_str(), spec_.output_name.c_str(), format_list(p.c_in).c_str());
    std::string name = spec_.output_name + ":";
    std::printf("  %-9s %s\n", name.c_str(), format_list(out).c_str());
    std::printf("  expected: %s\n", format_list(ref.value).c_str());
  }
  bool ok = r.findings.empty();
  if (order_name && !r.findings.empty()) std::printf("  With the threads in %s order:\n", order_name);
  for (const std::string& paragraph : explain_findings(r, spec_, c.dims, shared_shapes_, st_)) print_paragraph(paragraph);
  if (r.device_lost) {
    device_lost_ = stop_ = true;
    return false;
  }
  if (fatal) {
    stop_ = r.total(engine::FindingKind::timeout) > 0;
    return false;
  }
  Comparison cmp = compare(out, p.c_in, ref);
  if (cmp.unwritten) print_paragraph(explain_unwritten(cmp, spec_, st_));
  if (cmp.wrong) print_paragraph(explain_wrong(cmp, ref, out, spec_, st_));
  bool uniform = cmp.unwritten == cmp.marks.size() || cmp.wrong == cmp.marks.size();
  if (!cmp.ok() && !small && !uniform) {
    std::printf("  %s (%s right, %s wrong, %s never written):\n", (spec_.output_name + " by rows").c_str(),
                st_.green(".").c_str(), st_.red("X").c_str(), st_.yellow("?").c_str());
    for (const std::string& line : matrix_map(cmp, st_)) std::printf("  %s\n", line.c_str());
  }
  ok = ok && cmp.ok();
  std::uint64_t budget = spec_.load_budget(c.dims);
  if (ok && r.stats.loads_counted && budget > 0 && r.stats.max_global_loads > budget) {
    print_paragraph(explain_budget(r.stats, budget, spec_, c.dims, st_));
    ok = false;
  }
  return ok;
}

void KernelRun::print_paragraph(const std::string& text) const {
  std::string indented = "  ";
  for (char ch : text) {
    indented += ch;
    if (ch == '\n') indented += "  ";
  }
  std::printf("%s\n", indented.c_str());
}

}  // namespace checker

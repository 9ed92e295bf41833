#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

#include "checker/checker.h"
#include "checker/explain.h"
#include "checker/matrices.h"
#include "checker/output.h"
#include "checker/shared_shapes.h"
#include "engine/device_array.h"
#include "engine/kernel.h"

namespace checker {
namespace {

using engine::Backend;
using engine::LaunchResult;

// Launches the puzzle's kernel on device buffers, whatever its signature.
using Launcher = std::function<LaunchResult(Backend&, const engine::RunOptions&, const float* a, const float* b,
                                            float* out, int n)>;

Launcher make_launcher(const PuzzleSpec& spec, const engine::KernelImage& cpu, const engine::KernelImage& gpu) {
  if (spec.shape == KernelShape::matmul) {
    auto k = std::make_shared<engine::Kernel<void(const float*, const float*, float*, int)>>(cpu, gpu);
    return [k, &spec](Backend& be, const engine::RunOptions& o, const float* a, const float* b, float* out, int n) {
      return engine::launch(be, *k, spec.launch(n), o, a, b, out, n);
    };
  }
  auto k = std::make_shared<engine::Kernel<void(float*, const float*, const float*, int)>>(cpu, gpu);
  return [k, &spec](Backend& be, const engine::RunOptions& o, const float* a, const float* b, float* out, int n) {
    return engine::launch(be, *k, spec.launch(n), o, out, a, b, n);
  };
}

struct Case {
  std::string label;
  int n;
  bool worked;
};

std::string join_sizes(const std::vector<int>& sizes) {
  std::string s;
  for (std::size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s;
}

class PuzzleRun {
 public:
  PuzzleRun(const PuzzleSpec& spec, const Options& opt, Backend& backend, Launcher launcher, Style style)
      : spec_(spec), opt_(opt), backend_(backend), launch_(std::move(launcher)), st_(style) {}

  std::vector<Case> cases() const {
    std::vector<Case> list{{"worked example", spec_.worked_n, true}};
    std::vector<int> sizes = backend_.kind() == engine::BackendKind::gpu ? spec_.gpu_sizes : spec_.cpu_sizes;
    if (opt_.size) sizes = {*opt_.size};
    if (opt_.quick && sizes.size() > 2) sizes.resize(2);
    for (int n : sizes) list.push_back({"random, seed " + std::to_string(opt_.seed), n, false});
    return list;
  }

  void print_header(const std::string& backend_reason, const std::vector<Case>& list) const {
    bool cpu = backend_.kind() == engine::BackendKind::cpu;
    std::printf("%s\n", st_.bold("Puzzle " + std::to_string(spec_.number) + ": " + spec_.title + " (" + spec_.id + ")").c_str());
    std::printf("Backend: %s (%s)\n", engine::to_string(backend_.kind()), backend_.description().c_str());
    if (!backend_reason.empty()) std::printf("         %s\n", backend_reason.c_str());
    std::printf("Launch:  %s\n", spec_.launch_words.c_str());
    std::vector<int> sizes;
    for (const Case& c : list) if (!c.worked) sizes.push_back(c.n);
    std::printf("Cases:   a worked example (%s = %d), then random matrices from seed %llu at %s = %s\n",
                spec_.size_name.c_str(), spec_.worked_n, static_cast<unsigned long long>(opt_.seed),
                spec_.size_name.c_str(), join_sizes(sizes).c_str());
    std::string checks;
    if (cpu && instrumented_)
      checks = "out-of-bounds accesses, unwritten outputs, barriers, shared-memory races, thread order";
    else if (cpu)
      checks = "out-of-bounds writes, crashes, unwritten outputs, barriers, thread order (exact read checks, "
               "races and load budgets are off: this build's kernels are not instrumented; build with clang++)";
    else
      checks = "out-of-bounds writes (canaries), unwritten outputs, crashes, time limit (--sanitize for more)";
    if (cpu && instrumented_ && spec_.load_budget(1) > 0)
      checks += ", at most " + spec_.budget_formula + " global loads per thread";
    std::printf("Checks:  %s\n\n", checks.c_str());
  }

  void set_kernel(const engine::KernelImage& cpu) {
    instrumented_ = cpu.instrumented;
    shared_shapes_ = read_shared_shapes(cpu.source);
  }

  // Returns true when the case passed; sets stop_ when no further case should run.
  bool run_case(const Case& c, std::size_t index, std::size_t count) {
    std::printf("%s\n", st_.bold("[" + std::to_string(index + 1) + "/" + std::to_string(count) + "] " + c.label +
                                 ", " + spec_.size_name + " = " + std::to_string(c.n)).c_str());
    Inputs in = c.worked ? worked_inputs(spec_.shape, c.n) : random_inputs(spec_.shape, c.n, opt_.seed);
    Reference ref = reference_product(in);
    std::size_t count_elems = static_cast<std::size_t>(c.n) * c.n;
    engine::DeviceArray<float> a(backend_, count_elems, "a"), b(backend_, count_elems, "b"),
        out(backend_, count_elems, spec_.output_name);
    a.upload(in.a);
    b.upload(in.b);

    std::vector<engine::ThreadOrder> orders = orders_for(c, index);
    std::vector<float> first_result;
    bool passed = true;
    for (std::size_t o = 0; o < orders.size(); ++o) {
      engine::RunOptions run;
      run.timeout_seconds = timeout_for(c.n);
      run.order = orders[o];
      run.shuffle_seed = opt_.seed + index;
      out.upload(std::vector<float>(count_elems, unwritten_marker()));
      LaunchResult r = launch_(backend_, run, a.get(), b.get(), out.get(), c.n);
      std::vector<float> result = r.rejected.empty() && !r.device_lost ? out.download() : std::vector<float>{};
      bool shown_order = orders.size() > 1 && o > 0;
      if (!judge(c, in, ref, r, result, shown_order ? engine::to_string(orders[o]) : nullptr)) {
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

  bool stop() const { return stop_; }
  bool device_lost() const { return device_lost_; }

 private:
  std::vector<engine::ThreadOrder> orders_for(const Case& c, std::size_t index) const {
    using engine::ThreadOrder;
    if (backend_.kind() == engine::BackendKind::gpu) return {ThreadOrder::forward};
    if (opt_.all_orders || c.worked) return {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::shuffled};
    const ThreadOrder rotation[] = {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::shuffled};
    return {rotation[index % 3]};
  }

  double timeout_for(int n) const {
    if (opt_.timeout_seconds) return *opt_.timeout_seconds;
    if (backend_.kind() == engine::BackendKind::gpu) return 5.0;
    return 5.0 + 1e-8 * static_cast<double>(n) * n * n;
  }

  // Prints what is wrong with one launch; true when nothing is.
  bool judge(const Case& c, const Inputs& in, const Reference& ref, const LaunchResult& r,
             const std::vector<float>& out, const char* order_name) {
    if (!r.rejected.empty()) {
      std::printf("  %s: %s.\n", st_.bold("The launch was refused").c_str(), r.rejected.c_str());
      stop_ = true;  // every case has the same kernel: it would be refused again
      return false;
    }
    bool small = static_cast<std::size_t>(c.n) * c.n <= 16;
    bool fatal = r.total(engine::FindingKind::fault) > 0 || r.total(engine::FindingKind::timeout) > 0;
    if (small && !out.empty() && !order_name) {
      std::printf("  a:        %s\n", format_list(in.a).c_str());
      std::printf("  b:        %s\n", format_list(in.b).c_str());
      std::string name = spec_.output_name + ":";
      std::printf("  %-9s %s\n", name.c_str(), format_list(out).c_str());
      std::printf("  expected: %s\n", format_list(ref.value).c_str());
    }
    bool ok = r.findings.empty();
    if (order_name && !r.findings.empty()) std::printf("  With the threads in %s order:\n", order_name);
    for (const std::string& paragraph : explain_findings(r, spec_, c.n, shared_shapes_, st_)) print_paragraph(paragraph);
    if (r.device_lost) {
      device_lost_ = stop_ = true;
      return false;
    }
    if (fatal) {
      stop_ = r.total(engine::FindingKind::timeout) > 0;
      return false;
    }
    Comparison cmp = compare(out, ref);
    if (cmp.unwritten) print_paragraph(explain_unwritten(cmp, spec_, st_));
    if (cmp.wrong) print_paragraph(explain_wrong(cmp, ref, out, spec_, st_));
    bool uniform = cmp.unwritten == cmp.marks.size() || cmp.wrong == cmp.marks.size();
    if (!cmp.ok() && !small && !uniform) {
      std::printf("  %s (%s right, %s wrong, %s never written):\n", (spec_.output_name + " by rows").c_str(),
                  st_.green(".").c_str(), st_.red("X").c_str(), st_.yellow("?").c_str());
      for (const std::string& line : matrix_map(cmp, st_)) std::printf("  %s\n", line.c_str());
    }
    ok = ok && cmp.ok();
    std::uint64_t budget = spec_.load_budget(c.n);
    if (ok && r.stats.loads_counted && budget > 0 && r.stats.max_global_loads > budget) {
      print_paragraph(explain_budget(r.stats, budget, spec_, c.n, st_));
      ok = false;
    }
    return ok;
  }

  void print_paragraph(const std::string& text) const {
    std::string indented = "  ";
    for (char ch : text) {
      indented += ch;
      if (ch == '\n') indented += "  ";
    }
    std::printf("%s\n", indented.c_str());
  }

  const PuzzleSpec& spec_;
  const Options& opt_;
  Backend& backend_;
  Launcher launch_;
  Style st_;
  bool instrumented_ = false;
  std::map<std::string, std::vector<long>> shared_shapes_;
  bool stop_ = false;
  bool device_lost_ = false;
};

int environment_error(const std::string& program, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", program.c_str(), message.c_str());
  return 2;
}

}  // namespace

int run_puzzle(const std::string& puzzle_id, const engine::KernelImage& cpu, const engine::KernelImage& gpu,
               int argc, char** argv) {
  std::string program = argc > 0 ? argv[0] : puzzle_id;
  auto slash = program.rfind('/');
  std::string short_name = slash == std::string::npos ? program : program.substr(slash + 1);
  Options opt;
  try {
    opt = parse_options(argc, argv);
  } catch (const engine::Error& e) {
    std::fprintf(stderr, "%s: %s\nRun %s --help to see the options.\n", short_name.c_str(), e.what(),
                 short_name.c_str());
    return 2;
  }
  if (opt.help) {
    std::printf("%s", usage(short_name).c_str());
    return 0;
  }
  try {
    const PuzzleSpec& spec = find_puzzle(puzzle_id);
    if (opt.size && spec.max_n && *opt.size > spec.max_n)
      return environment_error(short_name, "--size=" + std::to_string(*opt.size) + " is larger than this puzzle allows (" +
                                               spec.size_name + " <= " + std::to_string(spec.max_n) + ")");
    if (opt.sanitize) return run_under_sanitizer(spec, opt, program);
    Launcher launcher = make_launcher(spec, cpu, gpu);
    engine::BackendSettings settings;
    settings.gpu_canaries = !opt.no_canaries;
    engine::OpenedBackend opened = engine::open_backend(opt.backend, settings);
    PuzzleRun run(spec, opt, *opened.backend, launcher, Style::for_stdout());
    run.set_kernel(cpu);
    std::vector<Case> list = run.cases();
    run.print_header(opened.reason, list);
    std::size_t passed = 0, ran = 0;
    for (std::size_t i = 0; i < list.size() && !run.stop(); ++i, ++ran)
      passed += run.run_case(list[i], i, list.size()) ? 1 : 0;
    Style st = Style::for_stdout();
    if (ran < list.size())
      std::printf("Stopped early: %s not run.\n",
                  list.size() - ran == 1 ? "the last case was" : ("the last " + std::to_string(list.size() - ran) + " cases were").c_str());
    bool all = passed == list.size();
    std::printf("Result: %zu of %zu cases passed. %s\n", passed, list.size(),
                all ? st.green(st.bold("PASS")).c_str() : st.red(st.bold("FAIL")).c_str());
    if (!all && run.device_lost()) {
      // A faulted or still-running GPU kernel can make CUDA's own teardown hang: leave now.
      std::fflush(nullptr);
      std::_Exit(1);
    }
    return all ? 0 : 1;
  } catch (const engine::Error& e) {
    return environment_error(short_name, e.what());
  }
}

}  // namespace checker

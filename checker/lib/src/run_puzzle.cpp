// A puzzle's checker from start to end: options, the backends, each kernel's cases, the
// verdict, and --bench.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

#include "bench/speed_harness.h"
#include "checker/checker.h"
#include "checker/output.h"
#include "kernel_run.h"
#include "json_report.h"
#include "async_profile_report.h"
#include "profile_report.h"

namespace checker {
namespace {

// What --json collects on the way; written once, whatever way the checker ends.
struct JsonDocument {
  std::optional<JsonStdout> out;
  nlohmann::json doc;

  bool on() const { return out.has_value(); }
  int finish(int status) {
    if (!on()) return status;
    doc["status"] = status;
    if (out->write(doc)) return status;
    std::fprintf(stderr, "--json: the report could not be written\n");
    return 2;
  }
};

// `code`: what kind of problem, for tools (report-json.md lists them).
int environment_error(JsonDocument& json, const std::string& program, const std::string& code,
                      const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", program.c_str(), message.c_str());
  if (json.on()) json.doc["error"] = {{"code", code}, {"message", message}};
  return json.finish(2);
}

// --json or --json=FILE, seen before the options are parsed: a usage error is reported too.
std::optional<std::string> json_destination(int argc, char** argv) {
  std::optional<std::string> where;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--json") where = "";
    if (arg.rfind("--json=", 0) == 0 && arg.size() > 7) where = arg.substr(7);
  }
  return where;
}

const char* mode_name(RunMode mode) {
  switch (mode) {
    case RunMode::cpu: return "cpu";
    case RunMode::gpu: return "gpu";
    case RunMode::gpu_with_cpu_checks: return "gpu_with_cpu_checks";
  }
  return "cpu";
}

const char* choice_name(engine::BackendChoice choice) {
  switch (choice) {
    case engine::BackendChoice::automatic: return "auto";
    case engine::BackendChoice::cpu: return "cpu";
    case engine::BackendChoice::gpu: return "gpu";
  }
  return "auto";
}

std::string base_name(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The backends for the chosen mode. auto takes the GPU when one can be used, and then the
// CPU backend as well, for the checks that only it can make.
struct OpenedBackends {
  std::unique_ptr<engine::Backend> gpu, cpu;
  Backends use;
};

OpenedBackends open_backends(const Options& opt) {
  OpenedBackends o;
  engine::BackendSettings settings;
  settings.gpu_canaries = !opt.no_canaries;
  engine::GpuUnavailable gpu_facts = engine::gpu_availability();
  if (opt.backend == engine::BackendChoice::automatic && gpu_facts.usable()) {
    o.gpu = engine::open_backend(engine::BackendChoice::gpu, settings).backend;
    o.cpu = engine::open_backend(engine::BackendChoice::cpu).backend;
    o.use = Backends{RunMode::gpu_with_cpu_checks, o.gpu.get(), o.cpu.get(), {BackendReason::Code::gpu_found, {}, 0}};
    return o;
  }
  engine::OpenedBackend opened = engine::open_backend(opt.backend, settings);
  bool gpu = opened.backend->kind() == engine::BackendKind::gpu;
  (gpu ? o.gpu : o.cpu) = std::move(opened.backend);
  BackendReason reason;  // named by the student
  if (opt.backend == engine::BackendChoice::automatic) reason = {BackendReason::Code::gpu_unavailable, gpu_facts, 0};
  o.use = Backends{gpu ? RunMode::gpu : RunMode::cpu, o.gpu.get(), o.cpu.get(), reason};
  return o;
}

// --profile on the GPU: one launch at the size the student chose, or at the largest GPU case.
Dims gpu_profile_size(const PuzzleSpec& spec, const Options& opt) {
  if (opt.size.size() == 1) return Dims{opt.size[0], opt.size[0], opt.size[0]};
  if (opt.size.size() == 3) return Dims{opt.size[0], opt.size[1], opt.size[2]};
  Dims largest = spec.cases.worked;
  for (const Dims& d : spec.cases.gpu)
    if (d.multiply_adds() > largest.multiply_adds()) largest = d;
  return largest;
}

// --json: the CPU backend's profile of each kernel (Nsight Compute's counters are printed only).
nlohmann::json profiles_json(const PuzzleSpec& spec, const std::vector<std::optional<CpuMeasure>>& measures) {
  nlohmann::json kernels = nlohmann::json::array();
  for (std::size_t k = 0; k < spec.kernels.size(); ++k) {
    nlohmann::json one = {{"kernel", PuzzleSpec::kernel_name(spec.kernels[k])}, {"shape", nullptr}, {"rows", nullptr}};
    if (measures[k] && measures[k]->profiled) {
      nlohmann::json p = profile_json(measures[k]->profile_run);
      one["shape"] = dims_json(measures[k]->dims);
      one["rows"] = p["rows"];
      one["truncated"] = p["truncated"];
      one["tensor_copies"] = p["tensor_copies"];
      one["warpgroup_mma"] = p["warpgroup_mma"];
    }
    kernels.push_back(one);
  }
  return kernels;
}

void print_profiles(const PuzzleSpec& spec, const Options& opt, const std::string& program,
                    const std::vector<std::optional<CpuMeasure>>& measures, const KernelImages& cpu, bool gpu_ran,
                    const Style& st) {
  std::printf("\n");
  bool several = spec.kernels.size() > 1;
  for (std::size_t k = 0; k < spec.kernels.size(); ++k) {
    std::string name = several ? PuzzleSpec::kernel_name(spec.kernels[k]) : "";
    if (measures[k]) {
      print_memory_profile(name, *measures[k], cpu[k]->source, spec, st);
      print_async_profile(*measures[k], cpu[k]->source, st);
    } else if (!gpu_ran) {
      std::printf("%s: no case ran to its end on the CPU backend%s.\n\n", st.bold("Memory profile").c_str(),
                  name.empty() ? "" : (" for " + name).c_str());
    }
  }
  if (!gpu_ran) return;
  Dims d = gpu_profile_size(spec, opt);
  std::vector<std::string> args{"--backend=gpu", "--no-canaries", "--seed=" + std::to_string(opt.seed),
                                "--size=" + (spec.square ? std::to_string(d.n)
                                                         : std::to_string(d.m) + "x" + std::to_string(d.n) + "x" +
                                                               std::to_string(d.k))};
  print_gpu_profile(spec, d, program, args, st);
}

}  // namespace

int run_puzzle(const std::string& puzzle_id, const KernelImages& cpu, const KernelImages& gpu, int argc,
               char** argv) {
  std::string program = argc > 0 ? argv[0] : puzzle_id;
  std::string short_name = base_name(program);
  JsonDocument json;
  if (auto where = json_destination(argc, argv)) json.out.emplace(*where);  // stdout: text for people to stderr
  if (json.on()) json.doc = {{"schema", kReportSchemaVersion}, {"puzzle", {{"id", puzzle_id}}}, {"error", nullptr}};
  Options opt;
  try {
    opt = parse_options(argc, argv);
  } catch (const engine::Error& e) {
    std::fprintf(stderr, "%s: %s\nRun %s --help to see the options.\n", short_name.c_str(), e.what(),
                 short_name.c_str());
    if (json.on()) json.doc["error"] = {{"code", "usage"}, {"message", e.what()}};
    return json.finish(2);
  }
  if (opt.help) {
    std::printf("%s", usage(short_name).c_str());
    return json.finish(0);
  }
  try {
    const PuzzleSpec& spec = find_puzzle(puzzle_id);
    if (json.on()) {
      json.doc["puzzle"] = {{"id", spec.id}, {"number", spec.number}, {"title", spec.title}, {"output", spec.output_name}};
      json.doc["options"] = {{"backend", choice_name(opt.backend)}, {"seed", opt.seed}, {"size", opt.size},
                             {"quick", opt.quick}, {"all_orders", opt.all_orders}, {"bench", opt.bench},
                             {"profile", opt.profile}, {"sanitize", opt.sanitize},
                             {"explain", opt.explain}};
    }
    if (cpu.size() != spec.kernels.size() || gpu.size() != spec.kernels.size())
      return environment_error(json, short_name, "spec_mismatch",
                               "this checker was built for another version of " + spec.id + "'s spec");
    if (spec.square && opt.size.size() == 3)
      return environment_error(json, short_name, "bad_size",
                               "--size takes one number here: " + spec.id + " has one size, " + spec.size_name);
    if (spec.square && opt.size.size() == 1 && spec.cases.max && opt.size[0] > spec.cases.max)
      return environment_error(json, short_name, "bad_size",
                               "--size=" + std::to_string(opt.size[0]) + " is larger than this puzzle allows (" +
                                   spec.size_name + " <= " + std::to_string(spec.cases.max) + ")");
    if (opt.size.size() == 3) {
      const std::string problem = spec.tensor_map_problem(Dims{opt.size[0], opt.size[1], opt.size[2]});
      if (!problem.empty()) return environment_error(json, short_name, "bad_size", "--size: " + problem);
    }
    if (opt.sanitize) return json.finish(run_under_sanitizer(spec, opt, program));
    OpenedBackends backends = open_backends(opt);
    if (opt.backend == engine::BackendChoice::gpu && spec.requires_gpu && backends.use.gpu &&
        !spec.runs_on_gpu(backends.use.gpu->limits().compute_capability))
      return environment_error(json, short_name, "gpu_too_old",
                               spec.id + "'s kernel needs " + gpu_requirement_words(spec) + "; this GPU is sm_" +
                                   std::to_string(backends.use.gpu->limits().compute_capability) +
                                   ". Run with --backend=cpu");
    if (opt.backend == engine::BackendChoice::gpu)
      for (const engine::KernelImage* image : gpu)
        if (image->address == nullptr)
          return environment_error(json, short_name, "no_gpu_code",
                                   std::string("the kernel ") + image->name +
                                       " was built for the CPU backend only; run with --backend=cpu");
    Style st = Style::for_stdout();

    std::printf("%s\n", st.bold("Puzzle " + std::to_string(spec.number) + ": " + spec.title + " (" + spec.id + ")").c_str());
    std::size_t passed = 0, total = 0;
    bool lost = false, gpu_everywhere = true;
    std::vector<std::optional<CpuMeasure>> measures, profiles;
    nlohmann::json kernels_json = nlohmann::json::array();
    for (std::size_t k = 0; k < spec.kernels.size() && !lost; ++k) {
      if (spec.kernels.size() > 1)
        std::printf("%s\n", st.bold("Kernel " + std::to_string(k + 1) + " of " + std::to_string(spec.kernels.size()) +
                                    ": " + PuzzleSpec::kernel_name(spec.kernels[k]))
                                .c_str());
      KernelRun run(spec, opt, backends.use, *cpu[k], *gpu[k], st);
      Tally tally = run.run_all(k == 0);
      passed += tally.passed;
      total += tally.total;
      lost = run.device_lost();
      gpu_everywhere = gpu_everywhere && run.mode() != RunMode::cpu;
      measures.push_back(run.cpu_measure());
      profiles.push_back(run.profile_measure());
      if (json.on()) {
        nlohmann::json descriptions = nlohmann::json::object();
        if (run.mode() != RunMode::cpu && backends.use.gpu) descriptions["gpu"] = backends.use.gpu->description();
        if (run.mode() != RunMode::gpu && backends.use.cpu) descriptions["cpu"] = backends.use.cpu->description();
        kernels_json.push_back({{"name", PuzzleSpec::kernel_name(spec.kernels[k])},
                                {"mode", mode_name(run.mode())},
                                {"backends", descriptions},
                                {"reason", reason_json(run.reason())},
                                {"cases_passed", tally.passed},
                                {"cases_total", tally.total},
                                {"cases_not_run", tally.total - run.cases_json().size()},
                                {"cases", run.cases_json()}});
      }
    }
    bool all = passed == total && !lost;
    std::printf("Result: %zu of %zu cases passed. %s\n", passed, total,
                all ? st.green(st.bold("PASS")).c_str() : st.red(st.bold("FAIL")).c_str());
    if (json.on()) {
      json.doc["backend"] = {{"requested", choice_name(opt.backend)},
                             {"mode", kernels_json.empty() ? nlohmann::json(nullptr) : kernels_json[0]["mode"]},
                             {"reason", reason_json(backends.use.reason)}};
      json.doc["kernels"] = kernels_json;
      json.doc["verdict"] = {{"passed", all}, {"cases_passed", passed}, {"cases_total", total}, {"device_lost", lost}};
      json.doc["profile"] = nullptr;
      json.doc["bench"] = nullptr;
    }
    if (lost) {
      // A faulted or still-running GPU kernel can make CUDA's own teardown hang: leave now.
      json.finish(1);
      std::fflush(nullptr);
      std::_Exit(1);
    }
    int status = all ? 0 : 1;
    if (opt.profile) {
      bool gpu_ran = backends.use.gpu != nullptr && gpu_everywhere;
      print_profiles(spec, opt, program, profiles, cpu, gpu_ran, st);
      if (json.on()) json.doc["profile"] = {{"cpu", profiles_json(spec, profiles)}};
    }
    if (!opt.bench) return json.finish(status);
    std::printf("\n");
    auto bench_json = [&](const char* not_timed, const nlohmann::json& rows) {
      if (json.on()) json.doc["bench"] = {{"timed", not_timed == nullptr}, {"not_timed", not_timed ? nlohmann::json(not_timed) : nlohmann::json(nullptr)}, {"rows", rows}};
    };
    if (!gpu_everywhere) {
      std::string why = opt.backend == engine::BackendChoice::cpu ? "--backend=cpu asks for the CPU backend"
                        : backends.use.gpu                          ? "this kernel was built for the CPU backend only"
                                                                    : gpu_unavailable_words(engine::gpu_availability());
      print_cpu_measures(spec, measures, why, st);
      const char* code = opt.backend == engine::BackendChoice::cpu ? "cpu_requested"
                         : backends.use.gpu                          ? "no_gpu_code"
                                                                     : "gpu_unavailable";
      nlohmann::json cpu_rows = nlohmann::json::array();
      for (std::size_t k = 0; k < measures.size(); ++k) {
        if (!measures[k]) continue;
        const CpuMeasure& m = *measures[k];
        cpu_rows.push_back({{"kernel", PuzzleSpec::kernel_name(spec.kernels[k])}, {"shape", dims_json(m.dims)},
                            {"busiest_thread_global_loads", m.stats.max_global_loads},
                            {"total_global_loads", m.stats.total_global_loads},
                            {"loads_counted", m.stats.loads_counted}});
      }
      bench_json(code, nlohmann::json::array());
      if (json.on()) json.doc["bench"]["cpu_measures"] = cpu_rows;
      return json.finish(status);
    }
    if (!all) {
      std::printf("%s: --bench times a kernel only once it passes every case.\n", st.bold("Not timed").c_str());
      bench_json("cases_failed", nlohmann::json::array());
      return json.finish(status);
    }
    if (spec.bench.shapes.empty()) bench_json("no_bench_shapes", nlohmann::json::array());
    std::vector<BenchRow> rows;
    bool timed = run_speed_harness(spec, opt, gpu, st, &rows);
    if (!spec.bench.shapes.empty()) {
      nlohmann::json rows_json = nlohmann::json::array();
      for (const BenchRow& r : rows) rows_json.push_back(bench_row_json(r));
      bench_json(timed ? nullptr : "differs_from_cublas", rows_json);
    }
    return json.finish(timed ? 0 : 1);
  } catch (const engine::Error& e) {
    return environment_error(json, short_name, "environment", e.what());
  }
}

}  // namespace checker

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
#include "profile_report.h"

namespace checker {
namespace {

int environment_error(const std::string& program, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", program.c_str(), message.c_str());
  return 2;
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
  if (opt.backend == engine::BackendChoice::automatic && engine::gpu_unavailable_reason().empty()) {
    o.gpu = engine::open_backend(engine::BackendChoice::gpu, settings).backend;
    o.cpu = engine::open_backend(engine::BackendChoice::cpu).backend;
    o.use = Backends{RunMode::gpu_with_cpu_checks, o.gpu.get(), o.cpu.get(), "auto: a CUDA device was found."};
    return o;
  }
  engine::OpenedBackend opened = engine::open_backend(opt.backend, settings);
  bool gpu = opened.backend->kind() == engine::BackendKind::gpu;
  (gpu ? o.gpu : o.cpu) = std::move(opened.backend);
  o.use = Backends{gpu ? RunMode::gpu : RunMode::cpu, o.gpu.get(), o.cpu.get(), opened.reason};
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

void print_profiles(const PuzzleSpec& spec, const Options& opt, const std::string& program,
                    const std::vector<std::optional<CpuMeasure>>& measures, const KernelImages& cpu, bool gpu_ran,
                    const Style& st) {
  std::printf("\n");
  bool several = spec.kernels.size() > 1;
  for (std::size_t k = 0; k < spec.kernels.size(); ++k) {
    std::string name = several ? PuzzleSpec::kernel_name(spec.kernels[k]) : "";
    if (measures[k]) {
      print_memory_profile(name, *measures[k], cpu[k]->source, spec, st);
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
    if (cpu.size() != spec.kernels.size() || gpu.size() != spec.kernels.size())
      return environment_error(short_name, "this checker was built for another version of " + spec.id + "'s spec");
    if (spec.square && opt.size.size() == 3)
      return environment_error(short_name, "--size takes one number here: " + spec.id + " has one size, " + spec.size_name);
    if (spec.square && opt.size.size() == 1 && spec.cases.max && opt.size[0] > spec.cases.max)
      return environment_error(short_name, "--size=" + std::to_string(opt.size[0]) + " is larger than this puzzle allows (" +
                                               spec.size_name + " <= " + std::to_string(spec.cases.max) + ")");
    if (opt.size.size() == 3) {
      const std::string problem = spec.tensor_map_problem(Dims{opt.size[0], opt.size[1], opt.size[2]});
      if (!problem.empty()) return environment_error(short_name, "--size: " + problem);
    }
    if (opt.sanitize) return run_under_sanitizer(spec, opt, program);
    OpenedBackends backends = open_backends(opt);
    if (opt.backend == engine::BackendChoice::gpu && spec.requires_gpu && backends.use.gpu &&
        !spec.runs_on_gpu(backends.use.gpu->limits().compute_capability))
      return environment_error(short_name, spec.id + "'s kernel needs " + gpu_requirement_words(spec) +
                                               "; this GPU is sm_" +
                                               std::to_string(backends.use.gpu->limits().compute_capability) +
                                               ". Run with --backend=cpu");
    if (opt.backend == engine::BackendChoice::gpu)
      for (const engine::KernelImage* image : gpu)
        if (image->address == nullptr)
          return environment_error(short_name, std::string("the kernel ") + image->name +
                                                   " was built for the CPU backend only; run with --backend=cpu");
    Style st = Style::for_stdout();

    std::printf("%s\n", st.bold("Puzzle " + std::to_string(spec.number) + ": " + spec.title + " (" + spec.id + ")").c_str());
    std::size_t passed = 0, total = 0;
    bool lost = false, gpu_everywhere = true;
    std::vector<std::optional<CpuMeasure>> measures, profiles;
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
    }
    bool all = passed == total && !lost;
    std::printf("Result: %zu of %zu cases passed. %s\n", passed, total,
                all ? st.green(st.bold("PASS")).c_str() : st.red(st.bold("FAIL")).c_str());
    if (lost) {
      // A faulted or still-running GPU kernel can make CUDA's own teardown hang: leave now.
      std::fflush(nullptr);
      std::_Exit(1);
    }
    int status = all ? 0 : 1;
    if (opt.profile) {
      bool gpu_ran = backends.use.gpu != nullptr && gpu_everywhere;
      print_profiles(spec, opt, program, profiles, cpu, gpu_ran, st);
    }
    if (!opt.bench) return status;
    std::printf("\n");
    if (!gpu_everywhere) {
      std::string why = opt.backend == engine::BackendChoice::cpu ? "--backend=cpu asks for the CPU backend"
                        : backends.use.gpu                          ? "this kernel was built for the CPU backend only"
                                                                    : engine::gpu_unavailable_reason();
      print_cpu_measures(spec, measures, why, st);
      return status;
    }
    if (!all) {
      std::printf("%s: --bench times a kernel only once it passes every case.\n", st.bold("Not timed").c_str());
      return status;
    }
    return run_speed_harness(spec, opt, gpu, st) ? 0 : 1;
  } catch (const engine::Error& e) {
    return environment_error(short_name, e.what());
  }
}

}  // namespace checker

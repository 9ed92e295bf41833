// A puzzle's checker from start to end: options, the backend, each kernel's cases, the verdict.
#include <cstdio>
#include <cstdlib>

#include "checker/checker.h"
#include "checker/output.h"
#include "kernel_run.h"

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
    if (opt.sanitize) return run_under_sanitizer(spec, opt, program);
    engine::BackendSettings settings;
    settings.gpu_canaries = !opt.no_canaries;
    engine::OpenedBackend opened = engine::open_backend(opt.backend, settings);
    engine::Backend& backend = *opened.backend;
    Style st = Style::for_stdout();

    std::printf("%s\n", st.bold("Puzzle " + std::to_string(spec.number) + ": " + spec.title + " (" + spec.id + ")").c_str());
    std::size_t passed = 0, total = 0;
    bool lost = false;
    for (std::size_t k = 0; k < spec.kernels.size() && !lost; ++k) {
      const engine::KernelImage& image = backend.kind() == engine::BackendKind::cpu ? *cpu[k] : *gpu[k];
      if (spec.kernels.size() > 1)
        std::printf("%s\n", st.bold("Kernel " + std::to_string(k + 1) + " of " + std::to_string(spec.kernels.size()) +
                                    ": " + PuzzleSpec::kernel_name(spec.kernels[k]))
                                .c_str());
      KernelRun run(spec, opt, backend, image, st);
      std::vector<Case> list = run.cases();
      run.print_header(k == 0 ? opened.reason : "", list);
      std::size_t ran = 0;
      for (std::size_t i = 0; i < list.size() && !run.stop(); ++i, ++ran) passed += run.run_case(list[i], i, list.size()) ? 1 : 0;
      total += list.size();
      if (ran < list.size())
        std::printf("Stopped early: %s not run.\n\n",
                    list.size() - ran == 1 ? "the last case was"
                                           : ("the last " + std::to_string(list.size() - ran) + " cases were").c_str());
      lost = run.device_lost();
    }
    bool all = passed == total && !lost;
    std::printf("Result: %zu of %zu cases passed. %s\n", passed, total,
                all ? st.green(st.bold("PASS")).c_str() : st.red(st.bold("FAIL")).c_str());
    if (lost) {
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

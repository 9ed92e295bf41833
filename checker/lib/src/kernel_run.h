// One kernel of a puzzle, run through its cases: on the CPU backend, on the GPU, or (auto
// with a GPU) on the GPU with the small cases run again under the CPU backend's checks.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "case_report.h"
#include "case_runner.h"
#include <nlohmann/json.hpp>

#include "checker/backend_reason.h"
#include "checker/options.h"
#include "checker/output.h"
#include "checker/puzzle.h"
#include "engine/backend.h"

namespace checker {

enum class RunMode {
  cpu,                  // --backend=cpu, or auto without a usable GPU
  gpu,                  // --backend=gpu: the hardware alone
  gpu_with_cpu_checks,  // auto with a GPU: every case on the GPU, the small ones on the CPU too
};

// The backends that run_puzzle opened, and why this mode.
struct Backends {
  RunMode mode = RunMode::cpu;
  engine::Backend* gpu = nullptr;
  engine::Backend* cpu = nullptr;
  BackendReason reason;  // worded under "Backend:" (explain.h)
};

// The CPU backend checks, in auto mode, the worked example and the spec's CPU cases up to this
// many multiply-adds (128³): enough to show every finding of the broken-kernel corpus, small
// enough that a whole auto run of puzzle 4 stays within a few seconds.
constexpr std::uint64_t kCpuCheckMultiplyAdds = 128ull * 128ull * 128ull;

struct Tally {
  std::size_t passed = 0, total = 0;
};

// What the CPU backend measured on the largest case it ran and passed: --bench's answer
// where there is no GPU.
struct CpuMeasure {
  Dims dims;
  engine::LaunchStats stats;
  bool profiled = false;  // the case ran again with the engine's memory profile
  engine::LaunchResult profile_run;
};

class KernelRun {
 public:
  KernelRun(const PuzzleSpec& spec, const Options& options, const Backends& backends,
            const engine::KernelImage& cpu_image, const engine::KernelImage& gpu_image, Style style);
  KernelRun(const KernelRun&) = delete;  // its report refers to its own members
  KernelRun& operator=(const KernelRun&) = delete;

  RunMode mode() const { return mode_; }
  const BackendReason& reason() const { return reason_; }
  // --json: each case that ran, as report-json.md describes (empty without --json).
  const nlohmann::json& cases_json() const { return cases_json_; }
  std::vector<Case> cases() const;
  // `first_kernel`: say why this backend (the reason is said once per checker).
  void print_header(bool first_kernel, const std::vector<Case>& list) const;
  // Prints the header, then runs and prints every case, stopping early when the rest cannot run.
  Tally run_all(bool first_kernel);

  bool device_lost() const { return device_lost_; }
  const std::optional<CpuMeasure>& cpu_measure() const { return cpu_measure_; }
  // --profile: the profiled run of the largest case the CPU backend finished, if any.
  const std::optional<CpuMeasure>& profile_measure() const { return profile_measure_; }

 private:
  bool run_case(const Case& c, std::size_t index, std::size_t count);
  std::string case_heading(const Case& c, std::size_t index, std::size_t count) const;
  std::string cpu_sizes_words(const std::vector<Case>& list) const;
  // One more launch at the measure's size with every access logged (the memory profile).
  void profile_at(CpuMeasure& measure) const;

  const PuzzleSpec& spec_;
  const Options& opt_;
  Backends backends_;
  RunMode mode_;
  BackendReason reason_;
  const engine::KernelImage& cpu_image_;
  const engine::KernelImage& gpu_image_;
  Style st_;
  std::optional<CaseReport> report_;
  bool stop_ = false;
  bool device_lost_ = false;
  std::optional<CpuMeasure> cpu_measure_;
  std::optional<CpuMeasure> profile_measure_;
  nlohmann::json cases_json_ = nlohmann::json::array();
};

}  // namespace checker

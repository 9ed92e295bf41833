// One case of one kernel on one backend: the inputs uploaded, one launch per thread order,
// and the facts of the launch that decides the verdict. It prints nothing: case_report.h
// words what it found.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/matrices.h"
#include "checker/options.h"
#include "checker/puzzle.h"
#include "engine/backend.h"

namespace checker {

// The largest case that runs with the engine's memory profile (every access logged): the
// profile costs about as much again as the checks, so it stays on sizes that are quick.
inline constexpr std::uint64_t kProfileMultiplyAdds = 256ull * 256ull * 256ull;

struct Case {
  std::string label;  // "worked example", "random, seed 2024"
  Dims dims;
  bool worked = false;
  bool on_gpu = false;  // auto with a GPU: which backends run it
  bool on_cpu = false;
};

// What both backends get for a case: the same inputs, the same expected values.
struct CaseInputs {
  Problem problem;
  Reference reference;
};

struct BackendOutcome {
  engine::BackendKind backend = engine::BackendKind::cpu;
  engine::LaunchConfig config;   // what it was launched with: grid, block, cluster, shared bytes
  engine::LaunchResult launch;   // the launch judged: the first that failed, else the first
  std::vector<float> out;        // its output; empty when refused or lost
  engine::ThreadOrder order = engine::ThreadOrder::forward;
  bool later_order = false;      // the judged launch is not the case's first (CPU: another order)
  bool compared = false;         // out was compared with the expected values
  Comparison comparison;
  bool order_dependent = false;  // the output changed from first_order to `order`
  engine::ThreadOrder first_order = engine::ThreadOrder::forward;
  std::uint64_t load_budget = 0;
  bool over_budget = false;
  // The spec's memory limits, judged from the engine's profile of the first launch (CPU,
  // instrumented kernels): the worst location over each limit, if any.
  std::optional<engine::AccessProfile> bank_conflicts;  // worst n-way above limits.bank_conflict_ways
  std::optional<engine::AccessProfile> scattered_loads;  // sectors per request above the limit

  bool refused() const { return launch.rejected.refused(); }
  bool stopped() const;  // a crash or a time limit ended the kernel
  bool passed() const;
  // The blocks that the findings name for an out-of-bounds access.
  std::vector<engine::Dim3> out_of_bounds_blocks() const;
};

class CaseRunner {
 public:
  CaseRunner(const PuzzleSpec& spec, const Options& options, engine::Backend& backend,
             const engine::KernelImage& image);

  // `index`: the case's place in its list, which picks the thread order (CPU) and the
  // shuffle seed.
  BackendOutcome run(const Case& c, std::size_t index, const CaseInputs& in) const;
  // One launch with the engine's memory profile (CPU backend, instrumented kernels): bank
  // conflicts and sectors per request, for --bench where there is no GPU.
  engine::LaunchResult profile(const Case& c, const CaseInputs& in) const;

  engine::BackendKind kind() const { return backend_.kind(); }

 private:
  std::vector<engine::ThreadOrder> orders_for(const Case& c, std::size_t index) const;
  bool profiles() const;  // the spec sets a memory limit that this backend can check
  void judge_profile(BackendOutcome& o, const Dims& d) const;
  double timeout_for(const Dims& d) const;

  const PuzzleSpec& spec_;
  const Options& opt_;
  engine::Backend& backend_;
  const engine::KernelImage& image_;
};

CaseInputs make_inputs(const PuzzleSpec& spec, const Case& c, std::uint64_t seed);
// The average number of 32-byte sectors a location's warp requests touch.
double sectors_per_request(const engine::AccessProfile& a);

}  // namespace checker

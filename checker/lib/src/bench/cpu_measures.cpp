// --bench without a GPU: nothing can be timed, but the CPU backend counts what matters for
// speed on a GPU: global loads per multiply-add, and the engine's memory profile of the
// largest case that passed (bank conflicts, sectors per request), in Nsight Compute's terms.
#include <cstdio>

#include "bench/speed_harness.h"
#include "checker/explain.h"
#include "checker/output.h"

namespace checker {
namespace {

std::string loads_per_multiply_add(const CpuMeasure& m) {
  if (!m.stats.loads_counted)
    return "not counted: this build's kernels are not instrumented (build with clang++, the default preset)";
  double per = static_cast<double>(m.stats.total_global_loads) / static_cast<double>(m.dims.multiply_adds());
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", per);
  return buf;
}

// Nsight Compute's terms: a request is one warp instruction; a bank conflict makes a shared
// request take more wavefronts than it needs; a global request touches 32-byte sectors.
std::string bank_conflicts(const CpuMeasure& m) {
  if (!m.profiled) return "not measured: this build's kernels are not instrumented";
  const engine::AccessProfile* worst = nullptr;
  std::uint64_t wavefronts = 0, ideal = 0;
  for (const engine::AccessProfile& a : m.profile_run.profile) {
    if (!a.shared) continue;
    wavefronts += a.wavefronts;
    ideal += a.ideal_wavefronts;
    if (!worst || a.worst_ways > worst->worst_ways) worst = &a;
  }
  if (!worst) return "none: the kernel does not use shared memory";
  if (worst->worst_ways <= 1) return "none: every shared-memory request takes the fewest wavefronts it can";
  std::string where = where_in_source(worst->at);
  return "worst " + std::to_string(worst->worst_ways) + "-way" + (where.empty() ? "" : ", at " + where) +
         "; the shared-memory requests take " + format_tenths(ideal ? static_cast<double>(wavefronts) / ideal : 0) +
         " times the wavefronts they need";
}

std::string sectors_per_request(const CpuMeasure& m) {
  if (!m.profiled) return "not measured: this build's kernels are not instrumented";
  const engine::AccessProfile* worst = nullptr;
  std::uint64_t sectors = 0, ideal = 0, requests = 0;
  auto average = [](const engine::AccessProfile& a) {
    return a.requests ? static_cast<double>(a.sectors) / static_cast<double>(a.requests) : 0.0;
  };
  for (const engine::AccessProfile& a : m.profile_run.profile) {
    if (a.shared || a.write) continue;
    sectors += a.sectors;
    ideal += a.ideal_sectors;
    requests += a.requests;
    if (!worst || average(a) > average(*worst)) worst = &a;
  }
  if (!worst || requests == 0) return "none: the kernel loads nothing from global memory";
  std::string where = where_in_source(worst->at);
  return format_tenths(static_cast<double>(sectors) / requests) + " on average for global loads (the fewest their bytes " +
         "need: " + format_tenths(static_cast<double>(ideal) / requests) + "); the worst line" +
         (where.empty() ? "" : ", " + where) + ", " + format_tenths(average(*worst)) + " (fewest: " +
         format_tenths(worst->requests ? static_cast<double>(worst->ideal_sectors) / worst->requests : 0) + ")";
}

}  // namespace

void print_cpu_measures(const PuzzleSpec& spec, const std::vector<std::optional<CpuMeasure>>& per_kernel,
                        const std::string& why_no_gpu, const Style& st) {
  std::printf("%s: --bench needs the GPU backend, and %s. What the CPU backend measured instead:\n",
              st.bold("Not timed").c_str(), why_no_gpu.c_str());
  for (std::size_t k = 0; k < per_kernel.size(); ++k) {
    std::string who = per_kernel.size() > 1 ? PuzzleSpec::kernel_name(spec.kernels[k]) + ", " : "";
    if (!per_kernel[k]) {
      std::printf("  %sno case passed, so there is nothing to measure yet.\n", who.c_str());
      continue;
    }
    const CpuMeasure& m = *per_kernel[k];
    std::printf("  %sat %s, the largest case that passed:\n", who.c_str(), spec.size_words(m.dims).c_str());
    std::printf("    global loads per multiply-add:  %s\n", loads_per_multiply_add(m).c_str());
    std::printf("    shared-memory bank conflicts:   %s\n", bank_conflicts(m).c_str());
    std::printf("    global sectors per request:     %s\n", sectors_per_request(m).c_str());
    if (m.profiled && m.profile_run.profile_truncated)
      std::printf("    (partial profile: a thread made more accesses between two barriers than the engine logs)\n");
  }
  std::printf("A naive kernel makes 2 global loads per multiply-add (an element of a and one of b); sharing tiles of "
              "T x T elements brings it to about 2 / T.\n");
}

}  // namespace checker

// --bench: the student's kernels against cuBLAS at the spec's benchmark shapes, on the GPU,
// in one run; without a GPU, what the CPU backend measured instead.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/bench_table.h"
#include "checker/checker.h"
#include "checker/output.h"
#include "kernel_run.h"

namespace checker {

// Prints the table (and appends CSV rows with --bench-csv). Returns false, timing nothing,
// when a kernel's result at a benchmark shape disagrees with cuBLAS's. Throws engine::Error
// for environment problems (no cuBLAS, a failed CUDA call).
// `rows_out`: given, it receives the timed rows (--json).
bool run_speed_harness(const PuzzleSpec& spec, const Options& options, const KernelImages& gpu_images,
                       const Style& style, std::vector<BenchRow>* rows_out = nullptr);

// `per_kernel`: what each kernel's CPU run measured; `why_no_gpu`: one sentence.
void print_cpu_measures(const PuzzleSpec& spec, const std::vector<std::optional<CpuMeasure>>& per_kernel,
                        const std::string& why_no_gpu, const Style& style);

}  // namespace checker

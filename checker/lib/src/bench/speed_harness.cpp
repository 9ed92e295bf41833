// --bench on the GPU. For each benchmark shape: inputs in enough copies that the L2 cache
// holds none of them when a launch starts; cuBLAS's result as the reference; each kernel's
// result compared with it (a wrong kernel is not timed); then warm-up launches and the
// median of the timed ones, for cuBLAS and for each kernel, launched in turn, in this one run.
#include "bench/speed_harness.h"

#include <algorithm>
#include <cstring>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>

#include "bench/cublas_runner.h"
#include "checker/bench_table.h"
#include "checker/explain.h"
#include "checker/output.h"
#include "kernel_args.h"

namespace checker {
namespace {

constexpr int kWarmupLaunches = 3;
constexpr int kTimedLaunches = 25;  // at least 20; odd, so the median is one launch's time
// The copies of the inputs used in turn span at least twice the L2 cache, so that a copy's
// lines are gone from it by the time the copy comes round again; and there are at least two,
// so that no launch starts on the inputs that the launch just before it read (with cuBLAS and
// the kernel in turn, that launch is the other one's: a single copy would favour whichever
// follows the product that reads the same buffers).
constexpr std::size_t kL2Multiple = 2;
constexpr std::size_t kMinCopies = 2;
constexpr std::size_t kMaxCopies = 64;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<float> absolute(const std::vector<float>& v) {
  std::vector<float> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = std::fabs(v[i]);
  return out;
}

// One copy of the inputs and of the output.
// bfloat16 bits of each value, rounded to nearest even (only cuBLAS's bf16 product reads them,
// for its time: the values need not be exact).
std::vector<std::uint16_t> bf16_bits(const std::vector<float>& values) {
  std::vector<std::uint16_t> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t u;
    std::memcpy(&u, &values[i], 4);
    out[i] = static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
  }
  return out;
}

struct InputCopy {
  std::unique_ptr<DeviceMatrix> a, b;                     // as the kernel takes them
  std::unique_ptr<engine::DeviceArray<float>> a32, b32;  // float copies, when the kernel takes fp16
  std::unique_ptr<engine::DeviceArray<std::uint16_t>> a_bf16, b_bf16;  // bf16 copies, too
  std::unique_ptr<engine::DeviceArray<float>> c;

  const void* float_a() const { return a32 ? static_cast<const void*>(a32->get()) : a->get(); }
  const void* float_b() const { return b32 ? static_cast<const void*>(b32->get()) : b->get(); }
};

class ShapeBench {
 public:
  ShapeBench(const PuzzleSpec& spec, engine::Backend& gpu, CublasRunner& blas, const Dims& dims, std::uint64_t seed)
      : spec_(spec), gpu_(gpu), blas_(blas), dims_(dims), problem_(random_problem(spec, dims, seed)) {
    const bool half = spec.a_type == ElementType::f16;
    std::size_t inputs = (static_cast<std::size_t>(dims.m * dims.k) + static_cast<std::size_t>(dims.k * dims.n));
    std::size_t bytes = inputs * (size_of(spec.a_type) + (half ? 4 + 2 : 0)) + static_cast<std::size_t>(dims.m * dims.n) * 4;
    std::size_t wanted = (kL2Multiple * blas.l2_bytes() + bytes - 1) / bytes;
    std::size_t count = std::clamp<std::size_t>(wanted, kMinCopies, kMaxCopies);
    for (std::size_t i = 0; i < count; ++i) {
      InputCopy copy;
      copy.a = std::make_unique<DeviceMatrix>(gpu, problem_.a, spec.a_type, "a");
      copy.b = std::make_unique<DeviceMatrix>(gpu, problem_.b, spec.b_type, "b");
      if (half) {
        copy.a32 = std::make_unique<engine::DeviceArray<float>>(gpu, problem_.a.size(), "a32");
        copy.a32->upload(problem_.a);
        copy.b32 = std::make_unique<engine::DeviceArray<float>>(gpu, problem_.b.size(), "b32");
        copy.b32->upload(problem_.b);
        copy.a_bf16 = std::make_unique<engine::DeviceArray<std::uint16_t>>(gpu, problem_.a.size(), "a_bf16");
        copy.a_bf16->upload(bf16_bits(problem_.a));
        copy.b_bf16 = std::make_unique<engine::DeviceArray<std::uint16_t>>(gpu, problem_.b.size(), "b_bf16");
        copy.b_bf16->upload(bf16_bits(problem_.b));
      }
      copy.c = std::make_unique<engine::DeviceArray<float>>(gpu, problem_.c_in.size(), spec.output_name);
      copy.c->upload(problem_.c_in);
      copies_.push_back(std::move(copy));
    }
    copy_bytes_ = bytes;
  }

  std::size_t copies() const { return copies_.size(); }
  std::size_t copy_bytes() const { return copy_bytes_; }
  const Problem& problem() const { return problem_; }

  // cuBLAS's float32 product as the expected values, with a tolerance from a second product
  // of the absolute values: what rounding in the kernel and in cuBLAS can explain.
  Reference reference() {
    const std::size_t cells = problem_.c_in.size();
    engine::DeviceArray<float> expected(gpu_, cells, "expected"), magnitude(gpu_, cells, "magnitude");
    engine::DeviceArray<float> abs_a(gpu_, problem_.a.size(), "abs_a"), abs_b(gpu_, problem_.b.size(), "abs_b");
    expected.upload(problem_.c_in);
    abs_a.upload(absolute(problem_.a));
    abs_b.upload(absolute(problem_.b));
    const float alpha = epilogue_alpha(), beta = epilogue_beta();
    blas_.gemm(CublasGemm::sgemm, dims_, copies_[0].float_a(), copies_[0].float_b(), expected.get(), alpha, beta);
    blas_.gemm(CublasGemm::sgemm, dims_, abs_a.get(), abs_b.get(), magnitude.get(), std::fabs(alpha), 0.0f);
    std::vector<float> value = expected.download(), mag = magnitude.download();

    const double u32 = std::ldexp(1.0, -24);
    const double u_kernel = spec_.a_type == ElementType::f16 ? std::ldexp(1.0, -22) : u32;
    const double k = static_cast<double>(dims_.k);
    Reference ref;
    ref.dims = dims_;
    ref.value.resize(cells);
    ref.tolerance.resize(cells);
    for (std::size_t i = 0; i < cells; ++i) {
      double v = value[i];
      if (spec_.epilogue == Epilogue::relu) v = v > 0 ? v : 0.0;
      double c0 = spec_.epilogue == Epilogue::alpha_beta ? std::fabs(beta * problem_.c_in[i]) : 0.0;
      ref.value[i] = v;
      ref.tolerance[i] = 2.0 * (k + 1.0) * (u_kernel + u32) * mag[i] + 4.0 * u32 * (std::fabs(v) + c0) +
                         std::numeric_limits<float>::min();
    }
    return ref;
  }

  // The kernel's result on the first copy.
  std::vector<float> run_once(const engine::KernelImage& image) {
    copies_[0].c->upload(problem_.c_in);
    launch(image, copies_[0]);
    return copies_[0].c->download();
  }

  // The median time of each of cuBLAS's products in `gemms` (in that order), then of each
  // kernel, launched in turn: each round launches every one of them once. A GPU held at its
  // power limit lowers its clock within milliseconds of sustained work (an H200 at 8192³ went
  // from 1980 MHz to about 1300 MHz, with the kernel taking the same number of cycles): timed
  // one after the other, whichever ran first would get the higher clock. In turn, all see the
  // same. Each launch takes the next copy of the inputs, whatever it runs.
  std::vector<double> time_in_turn(const std::vector<CublasGemm>& gemms, const KernelImages& images) {
    std::vector<std::vector<double>> ms(gemms.size() + images.size());
    std::size_t next = 0;
    auto copy = [&]() -> const InputCopy& { return copies_[next++ % copies_.size()]; };
    for (int i = 0; i < kWarmupLaunches + kTimedLaunches; ++i) {
      const bool timed = i >= kWarmupLaunches;
      for (std::size_t g = 0; g < gemms.size(); ++g) {
        double t = cublas_once(gemms[g], copy());
        if (timed) ms[g].push_back(t);
      }
      for (std::size_t k = 0; k < images.size(); ++k) {
        double t = launch(*images[k], copy());
        if (timed) ms[gemms.size() + k].push_back(t);
      }
    }
    std::vector<double> medians;
    for (const std::vector<double>& m : ms) medians.push_back(median(m));
    return medians;
  }

  // One of cuBLAS's products alone (the slower float32 ones, shown for scale).
  double time_cublas(CublasGemm gemm) { return time_in_turn({gemm}, {})[0]; }

  // What cuBLAS computes: the puzzle's alpha and beta, or a plain product (a ReLU has no
  // cuBLAS counterpart, so relu puzzles are compared with the product alone).
  float epilogue_alpha() const { return spec_.epilogue == Epilogue::alpha_beta ? problem_.alpha : 1.0f; }
  float epilogue_beta() const { return spec_.epilogue == Epilogue::alpha_beta ? problem_.beta : 0.0f; }

 private:
  double cublas_once(CublasGemm gemm, const InputCopy& copy) {
    const void* a = gemm == CublasGemm::hgemm ? copy.a->get()
                    : gemm == CublasGemm::bf16 ? static_cast<const void*>(copy.a_bf16->get())
                                               : copy.float_a();
    const void* b = gemm == CublasGemm::hgemm ? copy.b->get()
                    : gemm == CublasGemm::bf16 ? static_cast<const void*>(copy.b_bf16->get())
                                               : copy.float_b();
    return blas_.gemm(gemm, dims_, a, b, copy.c->get(), epilogue_alpha(), epilogue_beta());
  }

  double launch(const engine::KernelImage& image, const InputCopy& copy) {
    KernelArgs args{copy.a->get(), copy.b->get(), copy.c->get(), static_cast<int>(dims_.m),
                    static_cast<int>(dims_.n), static_cast<int>(dims_.k), problem_.alpha, problem_.beta};
    args.encode_maps(gpu_, spec_, dims_);  // on the host, outside the timed launch
    std::vector<void*> pointers = args.pointers(spec_);
    engine::RunOptions run;
    run.timeout_seconds = 60;  // a correct kernel at 4096³ takes milliseconds; this only ends a hang
    // The checker's own launch, clusters included (cudaLaunchKernelEx when the spec asks for them),
    // timed by the backend's events around it.
    engine::LaunchResult r = gpu_.launch(image, spec_.launch_for(dims_, gpu_.limits()), pointers.data(), run);
    if (r.rejected.refused())
      throw engine::Error("--bench: the launch at " + shape_words(dims_) + " was refused: " + refusal_words(r.rejected));
    if (!r.findings.empty() || r.device_lost)
      throw engine::Error("--bench: the kernel failed at " + shape_words(dims_) + ": " + r.findings.front().detail);
    return r.stats.milliseconds;
  }

  const PuzzleSpec& spec_;
  engine::Backend& gpu_;
  CublasRunner& blas_;
  Dims dims_;
  Problem problem_;
  std::vector<InputCopy> copies_;
  std::size_t copy_bytes_ = 0;
};

std::string megabytes(std::size_t bytes) { return std::to_string((bytes + 500000) / 1000000) + " MB"; }

void append_csv(const std::string& file, const std::vector<std::string>& lines) {
  bool fresh = true;
  {
    std::ifstream existing(file);
    fresh = !existing.good() || existing.peek() == std::ifstream::traits_type::eof();
  }
  std::ofstream out(file, std::ios::app);
  if (!out) throw engine::Error("--bench-csv: cannot write " + file);
  if (fresh) out << bench_csv_header() << "\n";
  for (const std::string& line : lines) out << line << "\n";
  if (!out) throw engine::Error("--bench-csv: cannot write " + file);
}

}  // namespace

const char* cublas_name(CublasGemm gemm) {
  switch (gemm) {
    case CublasGemm::sgemm: return "cuBLAS SGEMM";
    case CublasGemm::tf32: return "cuBLAS TF32";
    case CublasGemm::hgemm: return "cuBLAS HGEMM";
    case CublasGemm::bf16: return "cuBLAS BF16";
  }
  return "cuBLAS";
}

bool run_speed_harness(const PuzzleSpec& spec, const Options& opt, const KernelImages& gpu_images, const Style& st,
                       std::vector<BenchRow>* rows_out) {
  if (spec.bench.shapes.empty()) {
    std::printf("%s: this puzzle's spec lists no benchmark sizes.\n", st.bold("Not timed").c_str());
    return true;
  }
  engine::BackendSettings settings;
  settings.gpu_canaries = false;  // canary zones would add copies to every launch's memory traffic
  std::unique_ptr<engine::Backend> gpu = engine::open_backend(engine::BackendChoice::gpu, settings).backend;
  std::unique_ptr<CublasRunner> blas = open_cublas();
  const bool hgemm = spec.bench.baseline == "hgemm";
  const CublasGemm baseline = hgemm ? CublasGemm::hgemm : CublasGemm::sgemm;
  const std::string baseline_name = cublas_name(baseline);

  std::vector<BenchRow> rows;
  std::string copies_words;
  for (const Dims& dims : spec.bench.shapes) {
    ShapeBench bench(spec, *gpu, *blas, dims, opt.seed);
    const engine::LaunchConfig config = spec.launch_for(dims, gpu->limits());
    Reference ref = bench.reference();
    for (std::size_t k = 0; k < gpu_images.size(); ++k) {
      if (config.dynamic_shared_bytes > 48 * 1024) gpu->set_max_dynamic_shared_bytes(*gpu_images[k], config.dynamic_shared_bytes);
      std::vector<float> out = bench.run_once(*gpu_images[k]);
      Comparison cmp = compare(out, bench.problem().c_in, ref);
      if (cmp.ok()) continue;
      std::string name = PuzzleSpec::kernel_name(spec.kernels[k]);
      std::printf("%s: at %s, %s's result differs from cuBLAS's, so its speed would mean nothing.\n",
                  st.bold("Not timed").c_str(), shape_words(dims).c_str(), name.c_str());
      std::string why = cmp.unwritten ? explain_unwritten(cmp, spec, st) : explain_wrong(cmp, ref, out, spec, st, 3);
      std::printf("  %s\n", why.c_str());
      return false;
    }
    std::vector<BenchRow> shape_rows;
    // The baseline, cuBLAS's bf16 product (the same work, for scale) and the kernels in turn;
    // the slower float32 products after them, for scale too.
    std::vector<CublasGemm> in_turn = {baseline};
    if (hgemm) in_turn.push_back(CublasGemm::bf16);
    const std::vector<double> ms = bench.time_in_turn(in_turn, gpu_images);
    const double baseline_ms = ms[0];
    for (std::size_t k = 0; k < gpu_images.size(); ++k)
      shape_rows.push_back({dims, PuzzleSpec::kernel_name(spec.kernels[k]), false, ms[in_turn.size() + k], 0});
    shape_rows.push_back({dims, baseline_name, true, baseline_ms, 0});
    if (hgemm) {
      shape_rows.push_back({dims, cublas_name(CublasGemm::bf16), true, ms[1], 0});
      shape_rows.push_back({dims, cublas_name(CublasGemm::tf32), true, bench.time_cublas(CublasGemm::tf32), 0});
      shape_rows.push_back({dims, cublas_name(CublasGemm::sgemm), true, bench.time_cublas(CublasGemm::sgemm), 0});
    }
    for (BenchRow& r : shape_rows) r.percent_of_baseline = 100.0 * baseline_ms / r.milliseconds;
    rows.insert(rows.end(), shape_rows.begin(), shape_rows.end());
    copies_words += (copies_words.empty() ? "" : "; ") + std::to_string(bench.copies()) +
                    " copies of " + megabytes(bench.copy_bytes()) + " at " +
                    shape_words(dims);
  }

  std::printf("%s on %s: median of %d launches after %d warm-up launches each, the kernel's and cuBLAS's in turn\n",
              st.bold("Speed").c_str(), gpu->description().c_str(), kTimedLaunches, kWarmupLaunches);
  for (const std::string& line : bench_table(rows, baseline_name)) std::printf("  %s\n", line.c_str());
  std::printf("Each launch takes the next copy of the inputs, so that the %s L2 cache holds none of them when it "
              "starts: %s.\n",
              megabytes(blas->l2_bytes()).c_str(), copies_words.c_str());
  if (spec.epilogue == Epilogue::relu)
    std::printf("cuBLAS has no fused ReLU: the kernel is compared with %s's plain product (c = a · b).\n",
                baseline_name.c_str());
  if (spec.epilogue == Epilogue::alpha_beta)
    std::printf("cuBLAS gets the same alpha and beta as the kernel (c = alpha · a · b + beta · c).\n");
  if (spec.bench.target_percent) {
    const Dims& largest = spec.bench.target_at ? *spec.bench.target_at
                                               : *std::max_element(spec.bench.shapes.begin(), spec.bench.shapes.end(),
                                                                   [](const Dims& x, const Dims& y) {
                                                                     return x.multiply_adds() < y.multiply_adds();
                                                                   });
    const bool every = spec.bench.target_everywhere;
    std::string reached;
    for (const BenchRow& r : rows)
      if (!r.cublas && (every || r.dims == largest))
        reached += (reached.empty() ? "" : ", ") + r.implementation + " reaches " +
                   format_tenths(r.percent_of_baseline) + " %" + (every ? " at " + shape_words(r.dims) : "");
    std::printf("Target for the reference solution on an H100: %.0f %% of %s at %s; %s.\n",
                *spec.bench.target_percent, baseline_name.c_str(),
                every ? "every timed shape" : shape_words(largest).c_str(), reached.c_str());
  }
  if (!opt.bench_csv.empty()) {
    std::vector<std::string> lines;
    for (const BenchRow& r : rows)
      lines.push_back(bench_csv_line(spec, r, baseline_name, gpu->description(), kTimedLaunches));
    append_csv(opt.bench_csv, lines);
    std::printf("Appended %zu rows to %s.\n", lines.size(), opt.bench_csv.c_str());
  }
  if (rows_out) *rows_out = rows;
  return true;
}

}  // namespace checker

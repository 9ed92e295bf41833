// Checks and times the puzzle kernels (and variants of their tile sizes) against cuBLAS on an
// NVIDIA GPU. run.sh builds it with the variant files it generates from variants.txt, and
// runs it once per variant, so that a kernel that faults (which leaves the CUDA context
// unusable) costs only its own rows:
//
//   tune --baseline BASELINE CSV     time cuBLAS on every shape; write the times to BASELINE
//   tune --variant ID BASELINE CSV   check and time the kernels of variant ID
//   tune --summary CSV               the fastest correct kernel of each puzzle, per shape
//
// Every row goes to stdout as it is measured, and to CSV. Times: 3 warm-up launches, then the
// median of 25 launches timed one by one with events, rotating over several input sets when
// one set would fit in L2 (a kernel would otherwise read warm data that a real caller does not
// have). Correctness: every kernel's output is compared with cuBLAS on the same inputs.

#include "tuning.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>

#define CUBLAS_CHECK(call)                                                                   \
  do {                                                                                       \
    cublasStatus_t st_ = (call);                                                             \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                      \
      std::fprintf(stderr, "%s:%d: %s failed: cuBLAS status %d\n", __FILE__, __LINE__, #call, \
                   static_cast<int>(st_));                                                   \
      std::fflush(stdout);                                                                   \
      std::exit(3);                                                                          \
    }                                                                                        \
  } while (0)

namespace tuning {
std::vector<Kernel>& registry() {
  static std::vector<Kernel> kernels;
  return kernels;
}
}  // namespace tuning

namespace {

using namespace tuning;

struct Shape {
  int m, n, k;
};
// Square, short k, tall and narrow, one that fits in L2, and odd sizes (the scalar paths).
const Shape kShapes[] = {{4096, 4096, 4096}, {4096, 4096, 1024}, {8192, 1024, 4096}, {1000, 1000, 1000}, {4097, 4095, 4093}};
constexpr int kWarmups = 3;
constexpr int kTimed = 25;
constexpr int kMaxSets = 8;
// Alpha and beta for checking the alpha/beta kernels: neither 0 nor 1, so both are exercised.
constexpr float kCheckAlpha = 1.25f, kCheckBeta = -0.75f;

std::string shape_name(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

// ---- device helpers --------------------------------------------------------------------

__device__ unsigned mix(unsigned long long i, unsigned seed) {
  unsigned long long x = i * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 29;
  return static_cast<unsigned>(x);
}

// Uniform in [-1, 1): sums of k products then stay near sqrt(k), far from float's limits.
__global__ void fill_uniform(float* p, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
    p[i] = (mix(i, seed) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

__global__ void to_half(const float* from, __half* to, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
    to[i] = __float2half(from[i]);
}

__global__ void relu_in_place(float* p, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
    p[i] = fmaxf(p[i], 0.0f);
}

// Largest |got - want| and |want| (as float bits: for values >= 0 their order is the integers'),
// and how many elements are NaN or infinite in got (unwritten outputs stay NaN).
__global__ void compare(const float* got, const float* want, size_t count, unsigned* out) {
  float diff = 0.0f, ref = 0.0f;
  unsigned bad = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
    float d = fabsf(got[i] - want[i]);
    if (!(d <= 3.0e38f)) {
      ++bad;
    } else {
      diff = fmaxf(diff, d);
    }
    ref = fmaxf(ref, fabsf(want[i]));
  }
  atomicMax(&out[0], __float_as_uint(diff));
  atomicMax(&out[1], __float_as_uint(ref));
  if (bad) atomicAdd(&out[2], bad);
}

dim3 elementwise_grid(size_t count) {
  return dim3(static_cast<unsigned>(std::min<size_t>((count + 255) / 256, 4096)));
}

// ---- inputs --------------------------------------------------------------------------------

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  size_t count = 0;
  explicit DeviceBuffer(size_t n) : count(n) { CUDA_CHECK(cudaMalloc(&p, n * sizeof(T))); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(p); }
};

// Several independent sets of a, b (float, and half when asked) and c for one shape.
struct InputSets {
  Shape s;
  int count;
  std::vector<std::unique_ptr<DeviceBuffer<float>>> a, b, c;
  std::vector<std::unique_ptr<DeviceBuffer<__half>>> ah, bh;

  InputSets(const Shape& shape, bool with_half, size_t l2_bytes) : s(shape) {
    size_t mk = size_t(s.m) * s.k, kn = size_t(s.k) * s.n, mn = size_t(s.m) * s.n;
    size_t bytes = 4 * (mk + kn + mn) + (with_half ? 2 * (mk + kn) : 0);
    count = static_cast<int>(std::clamp<size_t>((3 * l2_bytes + bytes - 1) / bytes, 1, kMaxSets));
    for (int i = 0; i < count; ++i) {
      a.emplace_back(new DeviceBuffer<float>(mk));
      b.emplace_back(new DeviceBuffer<float>(kn));
      c.emplace_back(new DeviceBuffer<float>(mn));
      fill_uniform<<<elementwise_grid(mk), 256>>>(a[i]->p, mk, 2 * i + 1);
      CUDA_CHECK(cudaGetLastError());
      fill_uniform<<<elementwise_grid(kn), 256>>>(b[i]->p, kn, 2 * i + 2);
      CUDA_CHECK(cudaGetLastError());
      if (with_half) {
        ah.emplace_back(new DeviceBuffer<__half>(mk));
        bh.emplace_back(new DeviceBuffer<__half>(kn));
        to_half<<<elementwise_grid(mk), 256>>>(a[i]->p, ah[i]->p, mk);
        CUDA_CHECK(cudaGetLastError());
        to_half<<<elementwise_grid(kn), 256>>>(b[i]->p, bh[i]->p, kn);
        CUDA_CHECK(cudaGetLastError());
      }
    }
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  Call call(int set, bool half, float alpha = 1.0f, float beta = 0.0f) const {
    set %= count;
    const void* pa = half ? static_cast<const void*>(ah[set]->p) : a[set]->p;
    const void* pb = half ? static_cast<const void*>(bh[set]->p) : b[set]->p;
    return Call{pa, pb, c[set]->p, s.m, s.n, s.k, alpha, beta};
  }
};

// ---- cuBLAS --------------------------------------------------------------------------------

enum class Baseline { sgemm, tf32, hgemm };

// Row-major c (m × n) = a · b is column-major cᵀ (n × m) = bᵀ · aᵀ: pass b first, then a,
// each with its row length as leading dimension.
cublasStatus_t cublas_gemm(cublasHandle_t h, Baseline which, const Call& x) {
  switch (which) {
    case Baseline::sgemm:
      return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, x.n, x.m, x.k, &x.alpha, static_cast<const float*>(x.b), x.n,
                         static_cast<const float*>(x.a), x.k, &x.beta, x.c, x.n);
    case Baseline::tf32:
      return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, x.n, x.m, x.k, &x.alpha, x.b, CUDA_R_32F, x.n, x.a, CUDA_R_32F,
                          x.k, &x.beta, x.c, CUDA_R_32F, x.n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
    case Baseline::hgemm:
      return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, x.n, x.m, x.k, &x.alpha, x.b, CUDA_R_16F, x.n, x.a, CUDA_R_16F,
                          x.k, &x.beta, x.c, CUDA_R_32F, x.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

// ---- timing --------------------------------------------------------------------------------

// Median time of one launch, in ms. launch(i) starts launch i and says whether that worked.
template <class Launch>
double median_ms(Launch&& launch) {
  for (int i = 0; i < kWarmups; ++i) launch(i);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> events(2 * kTimed);
  for (cudaEvent_t& e : events) CUDA_CHECK(cudaEventCreate(&e));
  for (int i = 0; i < kTimed; ++i) {
    CUDA_CHECK(cudaEventRecord(events[2 * i]));
    launch(kWarmups + i);
    CUDA_CHECK(cudaEventRecord(events[2 * i + 1]));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> ms(kTimed);
  for (int i = 0; i < kTimed; ++i) CUDA_CHECK(cudaEventElapsedTime(&ms[i], events[2 * i], events[2 * i + 1]));
  for (cudaEvent_t& e : events) CUDA_CHECK(cudaEventDestroy(e));
  std::sort(ms.begin(), ms.end());
  return ms[kTimed / 2];
}

// ---- output --------------------------------------------------------------------------------

struct Row {
  std::string puzzle, variant, kernel;
  Shape s;
  double ms, pct;  // pct < 0: no baseline
  double rel_err;  // < 0: not checked
  bool ok;
  int regs = -1, spill = -1, smem = -1;
};

void print_header() {
  std::printf("%-16s %-40s %9s %8s %9s %9s %-5s %5s %6s %6s\n", "shape", "kernel", "ms", "TFLOP/s", "% cuBLAS",
              "rel.err", "check", "regs", "local", "smem");
  std::fflush(stdout);
}

void emit(const Row& r, const std::string& csv_path) {
  double tflops = 2.0 * r.s.m * r.s.n * r.s.k / (r.ms * 1e-3) / 1e12;
  std::string label = r.variant.empty() ? r.kernel : r.variant + "/" + r.kernel;
  char pct[16] = "-", err[16] = "-", regs[16] = "-", spill[16] = "-", smem[16] = "-";
  if (r.pct >= 0) std::snprintf(pct, sizeof pct, "%.1f%%", r.pct);
  if (r.rel_err >= 0) std::snprintf(err, sizeof err, "%.1e", r.rel_err);
  if (r.regs >= 0) std::snprintf(regs, sizeof regs, "%d", r.regs);
  if (r.spill >= 0) std::snprintf(spill, sizeof spill, "%d", r.spill);
  if (r.smem >= 0) std::snprintf(smem, sizeof smem, "%d", r.smem);
  std::printf("%-16s %-40s %9.3f %8.2f %9s %9s %-5s %5s %6s %6s\n", shape_name(r.s).c_str(), label.c_str(), r.ms,
              tflops, pct, err, r.rel_err < 0 ? "-" : (r.ok ? "ok" : "WRONG"), regs, spill, smem);
  std::fflush(stdout);
  std::ofstream csv(csv_path, std::ios::app);
  csv << r.puzzle << ',' << r.variant << ',' << r.kernel << ',' << r.s.m << ',' << r.s.n << ',' << r.s.k << ','
      << r.ms << ',' << tflops << ',' << r.pct << ',' << r.rel_err << ',' << (r.ok ? 1 : 0) << '\n';
}

size_t l2_bytes() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  return static_cast<size_t>(prop.l2CacheSize);
}

void print_device() {
  int device = 0, runtime = 0, driver = 0, clock_khz = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  std::printf("Device: %s (sm_%d%d), %d SMs, up to %d MHz, L2 %d MiB; CUDA runtime %d, driver %d\n", prop.name,
              prop.major, prop.minor, prop.multiProcessorCount, clock_khz / 1000, prop.l2CacheSize >> 20, runtime,
              driver);
  std::printf("Each time: median of %d launches after %d warm-ups; inputs uniform in [-1, 1).\n\n", kTimed,
              kWarmups);
  std::fflush(stdout);
}

// ---- modes ---------------------------------------------------------------------------------

int run_baseline(const std::string& baseline_path, const std::string& csv_path) {
  print_device();
  print_header();
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  std::ofstream out(baseline_path);
  size_t l2 = l2_bytes();
  for (const Shape& s : kShapes) {
    InputSets in(s, true, l2);
    double ms[3];
    const char* names[3] = {"cublasSgemm", "cublasGemmEx TF32", "cublasGemmEx fp16->fp32"};
    const Baseline which[3] = {Baseline::sgemm, Baseline::tf32, Baseline::hgemm};
    for (int w = 0; w < 3; ++w) {
      ms[w] = median_ms([&](int i) { CUBLAS_CHECK(cublas_gemm(h, which[w], in.call(i, which[w] == Baseline::hgemm))); });
      Row r{"cublas", "", names[w], s, ms[w], -1, -1, true};
      emit(r, csv_path);
    }
    out << s.m << ' ' << s.n << ' ' << s.k << ' ' << ms[0] << ' ' << ms[1] << ' ' << ms[2] << '\n';
    out.flush();
  }
  CUBLAS_CHECK(cublasDestroy(h));
  return 0;
}

std::map<std::tuple<int, int, int>, std::pair<double, double>> read_baseline(const std::string& path) {
  std::map<std::tuple<int, int, int>, std::pair<double, double>> times;  // sgemm, fp16 GemmEx
  std::ifstream in(path);
  int m, n, k;
  double sgemm, tf32, hgemm;
  while (in >> m >> n >> k >> sgemm >> tf32 >> hgemm) times[{m, n, k}] = {sgemm, hgemm};
  return times;
}

int run_variant(const std::string& id, const std::string& baseline_path, const std::string& csv_path) {
  std::vector<const Kernel*> kernels;
  for (const Kernel& k : registry())
    if (k.variant == id) kernels.push_back(&k);
  if (kernels.empty()) {
    std::fprintf(stderr, "no kernel was registered for variant %s (did its file compile?)\n", id.c_str());
    return 2;
  }
  auto baseline = read_baseline(baseline_path);
  bool any_half = false;
  for (const Kernel* k : kernels) any_half = any_half || k->kind == Kind::hgemm;

  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  DeviceBuffer<unsigned> stats(3);
  size_t l2 = l2_bytes();

  for (const Shape& s : kShapes) {
    InputSets in(s, any_half, l2);
    size_t mn = size_t(s.m) * s.n;
    // References on set 0: cuBLAS in default math mode (no TF32) for float inputs.
    std::map<Kind, std::unique_ptr<DeviceBuffer<float>>> ref;
    DeviceBuffer<float> c0(mn);  // the c that alpha/beta kernels start from
    fill_uniform<<<elementwise_grid(mn), 256>>>(c0.p, mn, 99);
    CUDA_CHECK(cudaGetLastError());
    for (const Kernel* k : kernels) {
      if (ref.count(k->kind)) continue;
      auto& r = ref[k->kind];
      r.reset(new DeviceBuffer<float>(mn));
      Call x = in.call(0, k->kind == Kind::hgemm);
      x.c = r->p;
      if (k->kind == Kind::sgemm_alpha_beta) {
        CUDA_CHECK(cudaMemcpy(r->p, c0.p, mn * sizeof(float), cudaMemcpyDeviceToDevice));
        x.alpha = kCheckAlpha;
        x.beta = kCheckBeta;
      }
      CUBLAS_CHECK(cublas_gemm(h, k->kind == Kind::hgemm ? Baseline::hgemm : Baseline::sgemm, x));
      if (k->kind == Kind::sgemm_relu) {
        relu_in_place<<<elementwise_grid(mn), 256>>>(r->p, mn);
        CUDA_CHECK(cudaGetLastError());
      }
    }
    CUDA_CHECK(cudaDeviceSynchronize());

    for (const Kernel* k : kernels) {
      const bool half = k->kind == Kind::hgemm;
      auto check_launch = [&](cudaError_t e) {
        if (e != cudaSuccess) {
          std::printf("%-16s %-40s launch failed: %s\n", shape_name(s).c_str(), (k->variant + "/" + k->name).c_str(),
                      cudaGetErrorString(e));
          std::fflush(stdout);
          std::exit(3);
        }
      };
      // Correctness: unwritten outputs stay NaN, and count as wrong.
      Call x = in.call(0, half);
      if (k->kind == Kind::sgemm_alpha_beta) {
        CUDA_CHECK(cudaMemcpy(x.c, c0.p, mn * sizeof(float), cudaMemcpyDeviceToDevice));
        x.alpha = kCheckAlpha;
        x.beta = kCheckBeta;
      } else {
        CUDA_CHECK(cudaMemset(x.c, 0xFF, mn * sizeof(float)));
      }
      check_launch(k->launch(x));
      cudaError_t done = cudaDeviceSynchronize();
      if (done != cudaSuccess) {
        std::printf("%-16s %-40s FAULT: %s\n", shape_name(s).c_str(), (k->variant + "/" + k->name).c_str(),
                    cudaGetErrorString(done));
        std::fflush(stdout);
        std::exit(3);
      }
      CUDA_CHECK(cudaMemset(stats.p, 0, 3 * sizeof(unsigned)));
      compare<<<elementwise_grid(mn), 256>>>(x.c, ref[k->kind]->p, mn, stats.p);
      CUDA_CHECK(cudaGetLastError());
      unsigned st[3];
      CUDA_CHECK(cudaMemcpy(st, stats.p, sizeof st, cudaMemcpyDeviceToHost));
      float max_diff, max_ref;
      std::memcpy(&max_diff, &st[0], 4);
      std::memcpy(&max_ref, &st[1], 4);
      double rel = max_ref > 0 ? max_diff / max_ref : max_diff;
      // Float kernels differ from cuBLAS only in the order of the sums; half inputs too.
      bool ok = st[2] == 0 && rel < (half ? 1e-3 : 1e-4);
      if (st[2]) rel = INFINITY;

      double ms = median_ms([&](int i) { check_launch(k->launch(in.call(i, half))); });
      auto it = baseline.find({s.m, s.n, s.k});
      double base = it == baseline.end() ? -1 : (half ? it->second.second : it->second.first);
      cudaFuncAttributes at{};
      CUDA_CHECK(k->attributes(&at));
      Row r{k->variant.substr(0, 3), k->variant, k->name, s, ms, base > 0 ? 100.0 * base / ms : -1, rel, ok,
            at.numRegs, static_cast<int>(at.localSizeBytes), static_cast<int>(at.sharedSizeBytes)};
      emit(r, csv_path);
    }
  }
  CUBLAS_CHECK(cublasDestroy(h));
  return 0;
}

int run_summary(const std::string& csv_path) {
  std::ifstream in(csv_path);
  struct Best {
    std::string label;
    double tflops = -1, pct = -1;
  };
  std::map<std::string, std::map<std::string, Best>> best;  // shape -> puzzle -> fastest correct
  std::vector<std::string> shapes;
  std::string line;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::vector<std::string> f;
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    if (f.size() < 11) continue;
    std::string shape = f[3] + "x" + f[4] + "x" + f[5];
    if (std::find(shapes.begin(), shapes.end(), shape) == shapes.end()) shapes.push_back(shape);
    if (f[10] != "1") continue;
    std::string key = f[0] == "cublas" ? f[2] : f[0];
    double tflops = std::atof(f[7].c_str());
    Best& b = best[shape][key];
    if (tflops > b.tflops) b = Best{f[0] == "cublas" ? f[2] : f[1] + "/" + f[2], tflops, std::atof(f[8].c_str())};
  }
  std::printf("\nFastest correct kernel of each puzzle (%% of cublasSgemm; p09: of cublasGemmEx fp16):\n");
  for (const std::string& shape : shapes) {
    std::printf("%s\n", shape.c_str());
    for (auto& [key, b] : best[shape]) {
      if (b.pct >= 0)
        std::printf("  %-24s %-44s %8.2f TFLOP/s %6.1f%%\n", key.c_str(), b.label.c_str(), b.tflops, b.pct);
      else
        std::printf("  %-24s %-44s %8.2f TFLOP/s\n", key.c_str(), b.label.c_str(), b.tflops);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 3 && args[0] == "--baseline") return run_baseline(args[1], args[2]);
  if (args.size() == 4 && args[0] == "--variant") return run_variant(args[1], args[2], args[3]);
  if (args.size() == 2 && args[0] == "--summary") return run_summary(args[1]);
  if (args.size() == 1 && args[0] == "--list") {
    for (const Kernel& k : registry()) std::printf("%s %s\n", k.variant.c_str(), k.name.c_str());
    return 0;
  }
  std::fprintf(stderr,
               "usage: tune --baseline BASELINE CSV | --variant ID BASELINE CSV | --summary CSV | --list\n"
               "(bench/tuning/run.sh builds and runs everything)\n");
  return 2;
}

// Inline PTX on both backends (ptx_kernels.cu): each instruction against the PTX ISA's
// definition, computed here on the host; the two backends against each other bit for bit;
// a whole mma.sync GEMM; and, on the CPU backend, the findings of its misuse
// (ptx_misuse_kernels.cu) and the build's refusal of PTX it cannot run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "cuda_cpu/compat/cuda_fp16.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "process.h"
#include "ptx_kernels_kernels.h"
#include "ptx_misuse_kernels_kernels.h"

using engine::DeviceArray;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;

namespace p = kernels::ptx_kernels;
namespace pm = kernels::ptx_misuse_kernels;

namespace {

template <typename Sig>
engine::Kernel<Sig> kernel(const engine::KernelImage& (*cpu)(), const engine::KernelImage& (*gpu)()) {
  return engine::Kernel<Sig>(cpu(), gpu());
}

void require_clean(const LaunchResult& r) {
  std::string findings;
  for (const auto& f : r.findings)
    findings += "kind " + std::to_string(static_cast<int>(f.kind)) + " op '" + f.op + "' " + f.detail + " " + f.buffer +
                "[" + std::to_string(f.index) + "] thread " + f.where.str() + " line " + std::to_string(f.at.line) +
                " other line " + std::to_string(f.other_at.line) + "; ";
  CAPTURE(engine::to_string(r.rejected.why));
  CAPTURE(findings);
  REQUIRE(!r.rejected.refused());
  REQUIRE(r.findings.empty());
}

const engine::Finding* first_of(const LaunchResult& r, FindingKind kind) {
  for (const auto& finding : r.findings)
    if (finding.kind == kind) return &finding;
  return nullptr;
}

// Source lines of the kernel files, found by their text so that editing them keeps the tests right.
int line_of(const char* file, const std::string& text) {
  std::ifstream in(std::string(TEST_SOURCE_DIR) + "/engine/" + file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  return -1;
}

float half_value(std::uint32_t bits) { return __half2float(__ushort_as_half(static_cast<unsigned short>(bits))); }
float bf16_value(std::uint32_t bits) {
  std::uint32_t b = bits << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
std::uint32_t float_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float bits_float(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

}  // namespace

// --- ldmatrix and stmatrix --------------------------------------------------------------

BACKEND_TEST("ldmatrix: x1, x2 and x4, plain and .trans, give each lane the PTX ISA's fragment") {
  auto k = kernel<void(const std::uint16_t*, std::uint32_t*)>(p::cpu_ptx_ldmatrix, p::gpu_ptx_ldmatrix);
  std::vector<std::uint16_t> tile(256);
  std::mt19937 rng(11);
  for (auto& v : tile) v = static_cast<std::uint16_t>(rng());
  DeviceArray<std::uint16_t> in(backend, 256, "in");
  DeviceArray<std::uint32_t> out(backend, 32 * 14, "out");
  in.upload(tile);
  require_clean(engine::launch(backend, k, LaunchConfig{1, 32}, RunOptions{}, in.get(), out.get()));
  std::vector<std::uint32_t> o = out.download();
  // Lane q gives the address of tile row (5 q) % 32: row r of matrix j comes from lane 8 j + r.
  auto element = [&](unsigned matrix, unsigned row, unsigned col) { return tile[((5 * (8 * matrix + row)) % 32) * 8 + col]; };
  auto expected = [&](unsigned lane, unsigned matrix, bool trans) {
    unsigned r = lane / 4, c = 2 * (lane % 4);
    std::uint32_t lo = trans ? element(matrix, c, r) : element(matrix, r, c);
    std::uint32_t hi = trans ? element(matrix, c + 1, r) : element(matrix, r, c + 1);
    return lo | (hi << 16);
  };
  const unsigned first_register[6] = {0, 1, 3, 7, 8, 10}, matrices[6] = {1, 2, 4, 1, 2, 4};
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned shape = 0; shape < 6; ++shape)
      for (unsigned j = 0; j < matrices[shape]; ++j) {
        CAPTURE(lane);
        CAPTURE(shape);
        CAPTURE(j);
        CHECK(o[lane * 14 + first_register[shape] + j] == expected(lane, j, shape >= 3));
      }
}

BACKEND_TEST("stmatrix: x4 and x4.trans store each lane's fragment where ldmatrix would load it from") {
  if (backend.limits().compute_capability < 90) {
    test_support::note_skipped("stmatrix needs a GPU of compute capability 9.0 (Hopper)");
    return;
  }
  auto k = kernel<void(std::uint16_t*)>(p::cpu_ptx_stmatrix, p::gpu_ptx_stmatrix);
  DeviceArray<std::uint16_t> out(backend, 512, "out");
  require_clean(engine::launch(backend, k, LaunchConfig{1, 32}, RunOptions{}, out.get()));
  std::vector<std::uint16_t> o = out.download();
  // Lane l's register j holds the halves 8 l + 2 j and 8 l + 2 j + 1; it gives tile row (3 l) % 32.
  for (unsigned j = 0; j < 4; ++j)
    for (unsigned row = 0; row < 8; ++row)
      for (unsigned col = 0; col < 8; ++col) {
        unsigned tile_row = (3 * (8 * j + row)) % 32;
        // Plain: element (row, col) of matrix j is lane 4 row + col / 2's register j, half col % 2.
        unsigned lane = 4 * row + col / 2;
        CHECK(o[tile_row * 8 + col] == 8 * lane + 2 * j + col % 2);
        // .trans: the stored matrix is the transpose: element (row, col) is fragment element (col, row).
        unsigned lane_t = 4 * col + row / 2;
        CHECK(o[256 + tile_row * 8 + col] == 8 * lane_t + 2 * j + row % 2);
      }
}

// --- mma.sync ------------------------------------------------------------------------------

namespace {

enum class Inputs { small_integers, random };

struct MmaCase {
  const char* name;
  int kind;        // ptx_mma_f32's kind, or -1 (f16 sums), -2 (tf32)
  unsigned k;
  bool bf16, tf32, half_sums;
};

const MmaCase kMmaCases[] = {
    {"m16n8k16 f16 -> f32", 0, 16, false, false, false}, {"m16n8k16 bf16 -> f32", 1, 16, true, false, false},
    {"m16n8k8 f16 -> f32", 2, 8, false, false, false},   {"m16n8k8 bf16 -> f32 (+f accumulator)", 3, 8, true, false, false},
    {"m16n8k16 f16 -> f16", -1, 16, false, false, true}, {"m16n8k8 tf32 -> f32", -2, 8, false, true, false},
};

struct MmaData {
  std::vector<std::uint32_t> a, b, c;  // element bits per word
  unsigned tiles;
};

std::uint32_t element_bits(float v, const MmaCase& m) {
  if (m.tf32) return float_bits(v);
  if (m.bf16) return float_bits(v) >> 16;  // values are chosen exactly representable
  return __half_as_ushort(__float2half(v));
}

float element_value(std::uint32_t bits, const MmaCase& m) {
  if (m.tf32) return bits_float(bits & 0xFFFFE000u);
  return m.bf16 ? bf16_value(bits) : half_value(bits);
}

MmaData make_mma_data(const MmaCase& m, unsigned tiles, Inputs inputs, unsigned seed) {
  std::mt19937 rng(seed);
  MmaData d;
  d.tiles = tiles;
  auto draw = [&]() -> float {
    if (inputs == Inputs::small_integers) return static_cast<float>(static_cast<int>(rng() % 17) - 8);
    // Random signs, exponents from 2^-6 to 2^6 and full mantissas of the input format.
    std::uint32_t mantissa = m.tf32 ? (rng() & 0x3FFu) : m.bf16 ? (rng() & 0x7Fu) : (rng() & 0x3FFu);
    int exponent = static_cast<int>(rng() % 13) - 6;
    float v = std::ldexp(1.0f + static_cast<float>(mantissa) / (m.bf16 ? 128.0f : 1024.0f), exponent);
    return rng() & 1 ? -v : v;
  };
  d.a.resize(std::size_t(tiles) * 16 * m.k);
  d.b.resize(std::size_t(tiles) * m.k * 8);
  d.c.resize(std::size_t(tiles) * 128);
  for (auto& x : d.a) x = element_bits(draw(), m);
  for (auto& x : d.b) x = element_bits(draw(), m);
  for (auto& x : d.c) {
    float v = inputs == Inputs::small_integers ? static_cast<float>(static_cast<int>(rng() % 64) - 32) : draw() * 4;
    x = m.half_sums ? __half_as_ushort(__float2half(v)) : float_bits(v);
  }
  return d;
}

std::vector<std::uint32_t> run_mma(engine::Backend& be, const MmaCase& m, const MmaData& d) {
  DeviceArray<std::uint32_t> a(be, d.a.size(), "a"), b(be, d.b.size(), "b"), c(be, d.c.size(), "c"),
      out(be, d.c.size(), "d");
  a.upload(d.a);
  b.upload(d.b);
  c.upload(d.c);
  LaunchConfig config{d.tiles / 4, 128};
  if (m.kind >= 0) {
    auto k = kernel<void(const std::uint32_t*, const std::uint32_t*, const std::uint32_t*, std::uint32_t*, int)>(
        p::cpu_ptx_mma_f32, p::gpu_ptx_mma_f32);
    require_clean(engine::launch(be, k, config, RunOptions{}, a.get(), b.get(), c.get(), out.get(), m.kind));
  } else {
    using Sig = void(const std::uint32_t*, const std::uint32_t*, const std::uint32_t*, std::uint32_t*);
    auto k = m.half_sums ? kernel<Sig>(p::cpu_ptx_mma_f16, p::gpu_ptx_mma_f16)
                         : kernel<Sig>(p::cpu_ptx_mma_tf32, p::gpu_ptx_mma_tf32);
    require_clean(engine::launch(be, k, config, RunOptions{}, a.get(), b.get(), c.get(), out.get()));
  }
  return out.download();
}

// d[tile][r][n] = c + Σ a·b in double (the products of these formats are exact in double).
double reference(const MmaCase& m, const MmaData& d, unsigned tile, unsigned r, unsigned n, double* magnitude) {
  double c = m.half_sums ? half_value(d.c[tile * 128 + r * 8 + n]) : bits_float(d.c[tile * 128 + r * 8 + n]);
  double sum = c, mag = std::fabs(c);
  for (unsigned k = 0; k < m.k; ++k) {
    double prod = static_cast<double>(element_value(d.a[(tile * 16 + r) * m.k + k], m)) *
                  element_value(d.b[(tile * m.k + k) * 8 + n], m);
    sum += prod;
    mag += std::fabs(prod);
  }
  if (magnitude) *magnitude = mag;
  return sum;
}

}  // namespace

BACKEND_TEST("mma.sync: every shape and type gives exact sums of small integers, in the PTX ISA's layouts") {
  for (const MmaCase& m : kMmaCases) {
    CAPTURE(m.name);
    MmaData d = make_mma_data(m, 8, Inputs::small_integers, 3);
    std::vector<std::uint32_t> out = run_mma(backend, m, d);
    for (unsigned tile = 0; tile < d.tiles; ++tile)
      for (unsigned r = 0; r < 16; ++r)
        for (unsigned n = 0; n < 8; ++n) {
          double want = reference(m, d, tile, r, n, nullptr);
          std::uint32_t bits = out[tile * 128 + r * 8 + n];
          double got = m.half_sums ? half_value(bits) : bits_float(bits);
          CAPTURE(tile);
          CAPTURE(r);
          CAPTURE(n);
          REQUIRE(got == want);
        }
  }
}

BACKEND_TEST("mma.sync: random inputs over 13 binades come within the tensor cores' rounding of the exact sum") {
  for (const MmaCase& m : kMmaCases) {
    CAPTURE(m.name);
    MmaData d = make_mma_data(m, 64, Inputs::random, 7);
    std::vector<std::uint32_t> out = run_mma(backend, m, d);
    double worst = 0;
    for (unsigned tile = 0; tile < d.tiles; ++tile)
      for (unsigned r = 0; r < 16; ++r)
        for (unsigned n = 0; n < 8; ++n) {
          double magnitude;
          double want = reference(m, d, tile, r, n, &magnitude);
          std::uint32_t bits = out[tile * 128 + r * 8 + n];
          double got = m.half_sums ? half_value(bits) : bits_float(bits);
          worst = std::max(worst, std::fabs(got - want) / magnitude);
        }
    // A float sum is within a few units of 2^-24 of the terms' magnitude; a half sum 2^-11.
    // Each of the k + 1 terms is cut to 2^-24 of the largest, and the sum rounded once more:
    // within (k + 3) 2^-24 of the terms' magnitude for float sums; 2^-11 more for half sums.
    CHECK(worst < (m.half_sums ? 1e-3 : (m.k + 3) * std::ldexp(1.0, -24)));
  }
}

TEST_CASE("gpu: mma.sync, ldmatrix and cp.async give the same bits on the CPU backend as on the GPU" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto cpu = engine::open_backend(engine::BackendChoice::cpu).backend;
  auto gpu = engine::open_backend(engine::BackendChoice::gpu).backend;
  for (const MmaCase& m : kMmaCases) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      CAPTURE(m.name);
      CAPTURE(seed);
      MmaData d = make_mma_data(m, 512, Inputs::random, seed);
      std::vector<std::uint32_t> on_cpu = run_mma(*cpu, m, d), on_gpu = run_mma(*gpu, m, d);
      std::size_t differ = 0, first = on_cpu.size();
      for (std::size_t i = 0; i < on_cpu.size(); ++i)
        if (on_cpu[i] != on_gpu[i]) {
          ++differ;
          if (first == on_cpu.size()) first = i;
        }
      if (differ) {
        INFO("first difference at element " << first << ": CPU " << std::hex << on_cpu[first] << ", GPU "
                                            << on_gpu[first]);
        CHECK(differ == 0);
      }
    }
  }
  // ldmatrix and cp.async move bits: the same on both.
  auto ld = kernel<void(const std::uint16_t*, std::uint32_t*)>(p::cpu_ptx_ldmatrix, p::gpu_ptx_ldmatrix);
  auto cp = kernel<void(const std::uint32_t*, std::uint32_t*)>(p::cpu_ptx_cp_async, p::gpu_ptx_cp_async);
  auto moved = [&](engine::Backend& be) {
    std::mt19937 rng(9);
    std::vector<std::uint16_t> tile(256);
    for (auto& v : tile) v = static_cast<std::uint16_t>(rng());
    std::vector<std::uint32_t> words(256);
    for (auto& v : words) v = static_cast<std::uint32_t>(rng());
    DeviceArray<std::uint16_t> in(be, 256, "in");
    DeviceArray<std::uint32_t> out(be, 32 * 14, "out"), win(be, 256, "in"), wout(be, 768, "out");
    in.upload(tile);
    win.upload(words);
    require_clean(engine::launch(be, ld, LaunchConfig{1, 32}, RunOptions{}, in.get(), out.get()));
    require_clean(engine::launch(be, cp, LaunchConfig{1, 64}, RunOptions{}, win.get(), wout.get()));
    std::vector<std::uint32_t> all = out.download(), more = wout.download();
    all.insert(all.end(), more.begin(), more.end());
    return all;
  };
  CHECK(moved(*cpu) == moved(*gpu));
}

// --- cp.async ------------------------------------------------------------------------------

BACKEND_TEST("cp.async: .cg and .ca copies of 16, 8 and 4 bytes land by their waits, zero-filled past the source size") {
  auto k = kernel<void(const std::uint32_t*, std::uint32_t*)>(p::cpu_ptx_cp_async, p::gpu_ptx_cp_async);
  std::vector<std::uint32_t> in(256);
  std::mt19937 rng(2);
  for (auto& v : in) v = static_cast<std::uint32_t>(rng());
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    if (backend.kind() == engine::BackendKind::gpu && order != engine::ThreadOrder::forward) continue;
    DeviceArray<std::uint32_t> din(backend, 256, "in"), out(backend, 768, "out");
    din.upload(in);
    RunOptions options;
    options.order = order;
    require_clean(engine::launch(backend, k, LaunchConfig{1, 64}, options, din.get(), out.get()));
    std::vector<std::uint32_t> o = out.download();
    for (unsigned t = 0; t < 64; ++t) {
      unsigned source_bytes = t % 17;
      unsigned char want[16], got[16];
      std::memcpy(want, &in[4 * t], 16);
      std::memset(want + source_bytes, 0, 16 - source_bytes);
      std::memcpy(got, &o[4 * t], 16);
      CAPTURE(t);
      CHECK(std::memcmp(want, got, 16) == 0);
      for (unsigned i = 0; i < 4; ++i) {
        CHECK(o[256 + 4 * t + i] == in[4 * t + i]);
        CHECK(o[512 + 4 * t + i] == in[4 * t + i]);
      }
    }
  }
}

// --- Scalars, special registers, shared addresses -------------------------------------------

BACKEND_TEST("inline PTX: %laneid, %warpid, cvta, ld/st.shared, predicates, branches and cvt.rn.f16x2.f32") {
  auto k = kernel<void(std::uint32_t*)>(p::cpu_ptx_scalars, p::gpu_ptx_scalars);
  DeviceArray<std::uint32_t> out(backend, 128 * 8, "out");
  require_clean(engine::launch(backend, k, LaunchConfig{1, 128}, RunOptions{}, out.get()));
  std::vector<std::uint32_t> o = out.download();
  for (unsigned t = 0; t < 128; ++t) {
    CAPTURE(t);
    CHECK(o[8 * t + 0] == t % 32);
    if (backend.kind() == engine::BackendKind::cpu) CHECK(o[8 * t + 1] == t / 32);  // a GPU's %warpid may vary
    CHECK(o[8 * t + 2] == 1);
    CHECK(o[8 * t + 3] == ((t + 1) % 128) * 3 + 1);
    CHECK(o[8 * t + 4] == (t < 40 ? 0 : t - 40));
    CHECK(o[8 * t + 5] == 2 * t);
    CHECK(o[8 * t + 6] == ((0x3E00u << 16) | 0xC000u));  // 1.5 in the high half, -2 in the low
    CHECK(o[8 * t + 7] == 4 * t);
  }
}

// --- A whole tensor-core GEMM ------------------------------------------------------------------

namespace {

struct GemmRun {
  LaunchResult result;
  double worst = 0;
};

GemmRun run_gemm(engine::Backend& be, bool wait, int m, int n, int k, engine::ThreadOrder order) {
  using Sig = void(const __half*, const __half*, float*, int, int, int);
  auto gemm = wait ? kernel<Sig>(p::cpu_gemm_mma_pipeline, p::gpu_gemm_mma_pipeline)
                   : kernel<Sig>(p::cpu_gemm_mma_forgets_wait, p::gpu_gemm_mma_forgets_wait);
  std::mt19937 rng(static_cast<unsigned>(m * 131 + n * 7 + k));
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<__half> a(std::size_t(m) * k), b(std::size_t(k) * n);
  for (auto& x : a) x = __float2half(dist(rng));
  for (auto& x : b) x = __float2half(dist(rng));
  DeviceArray<__half> da(be, a.size(), "a"), db(be, b.size(), "b");
  DeviceArray<float> dc(be, std::size_t(m) * n, "c");
  da.upload(a);
  db.upload(b);
  RunOptions options;
  options.order = order;
  GemmRun run;
  run.result = engine::launch(be, gemm, LaunchConfig{engine::Dim3((n + 63) / 64, (m + 63) / 64), 128}, options,
                              da.get(), db.get(), dc.get(), m, n, k);
  std::vector<float> c = dc.download();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0, magnitude = 0;
      for (int q = 0; q < k; ++q) {
        double p = static_cast<double>(__half2float(a[std::size_t(i) * k + q])) * __half2float(b[std::size_t(q) * n + j]);
        want += p;
        magnitude += std::fabs(p);
      }
      double got = c[std::size_t(i) * n + j];
      run.worst = std::max(run.worst, std::isnan(got) ? 1e30 : std::fabs(got - want) / (magnitude + 1e-30));
    }
  return run;
}

}  // namespace

BACKEND_TEST("an mma.sync GEMM in the public style (ldmatrix, swizzled tiles, 3-stage cp.async) is clean and right at two shapes") {
  const int shapes[2][3] = {{64, 64, 64}, {96, 80, 72}};
  for (const auto& s : shapes)
    for (engine::ThreadOrder order : engine::kThreadOrders) {
      if (backend.kind() == engine::BackendKind::gpu && order != engine::ThreadOrder::forward) continue;
      CAPTURE(s[0]);
      CAPTURE(s[1]);
      CAPTURE(s[2]);
      GemmRun run = run_gemm(backend, true, s[0], s[1], s[2], order);
      require_clean(run.result);
      CHECK(run.worst < 1e-5);
    }
}

TEST_CASE("cpu: the same GEMM without its cp.async.wait_group reads a stage before the copies into it have landed") {
  auto be = test_support::backend_or_skip(engine::BackendKind::cpu);
  if (!be) return;
  GemmRun run = run_gemm(*be, false, 64, 64, 64, engine::ThreadOrder::forward);
  const engine::Finding* f = first_of(run.result, FindingKind::async_copy);
  REQUIRE(f != nullptr);
  CHECK(f->op == "read");
  CHECK(f->at.line == line_of("ptx_kernels.cu", "// the warp's a fragments"));
  CHECK(f->other_at.line > 0);
}

// --- Misuse: each mistake is a finding at its line (CPU backend) ------------------------------

namespace {

template <typename Sig, typename... Args>
LaunchResult run_cpu(const engine::KernelImage& (*image)(), LaunchConfig config, Args... args) {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  engine::Kernel<Sig> k(image(), engine::absent_image("absent"));
  return engine::launch(*be, k, config, RunOptions{}, args...);
}

}  // namespace

TEST_CASE("cpu: ldmatrix row addresses that are not 16-byte aligned are refused, naming the lane") {
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<std::uint32_t> out(*be, 128, "out");
  LaunchResult r = run_cpu<void(std::uint32_t*)>(pm::cpu_ptx_ldmatrix_misaligned, LaunchConfig{1, 32}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::warp_misuse);
  REQUIRE(f != nullptr);
  CHECK(f->op == "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
  CHECK(f->detail.find("not a multiple of 16") != std::string::npos);
}

TEST_CASE("cpu: an ldmatrix that half of the warp skips is a warp divergence at its line") {
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<std::uint32_t> out(*be, 128, "out");
  LaunchResult r = run_cpu<void(std::uint32_t*)>(pm::cpu_ptx_ldmatrix_half_warp, LaunchConfig{1, 32}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::warp_divergence);
  REQUIRE(f != nullptr);
  CHECK(f->op == "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
  REQUIRE(f->groups.size() == 2);
}

TEST_CASE("cpu: lanes at ldmatrix .x4 and .x2 are at different instructions: a warp divergence naming both") {
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<std::uint32_t> out(*be, 128, "out");
  LaunchResult r = run_cpu<void(std::uint32_t*)>(pm::cpu_ptx_ldmatrix_mixed_shapes, LaunchConfig{1, 32}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::warp_divergence);
  REQUIRE(f != nullptr);
  bool x2 = false, x4 = false;
  for (const auto& g : f->groups) {
    x2 |= g.waits_for == "ldmatrix.sync.aligned.m8n8.x2.shared.b16";
    x4 |= g.waits_for == "ldmatrix.sync.aligned.m8n8.x4.shared.b16";
  }
  CHECK(x2);
  CHECK(x4);
}

TEST_CASE("cpu: ldmatrix reading shared memory that no thread wrote names the element, the lane and the line") {
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<std::uint32_t> out(*be, 128, "out");
  LaunchResult r = run_cpu<void(std::uint32_t*)>(pm::cpu_ptx_ldmatrix_unwritten, LaunchConfig{1, 32}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::uninitialized_shared);
  REQUIRE(f != nullptr);
  CHECK(f->buffer == "tile");
  CHECK(f->index == 16 * 8);  // the first element of row 16
  CHECK(f->where.thread.x == 16);
  CHECK(f->at.line == line_of("ptx_misuse_kernels.cu", "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"));
}

TEST_CASE("cpu: ldmatrix after a barrier but without cp.async.wait_group reads what the copies have not written yet") {
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<std::uint16_t> in(*be, 256, "in");
  DeviceArray<std::uint32_t> out(*be, 128, "out");
  in.upload(std::vector<std::uint16_t>(256, 1));
  LaunchResult r = run_cpu<void(const std::uint16_t*, std::uint32_t*)>(pm::cpu_ptx_cp_async_without_wait,
                                                                      LaunchConfig{1, 32}, in.get(), out.get());
  const engine::Finding* f = first_of(r, FindingKind::async_copy);
  REQUIRE(f != nullptr);
  CHECK(f->buffer == "tile");
  CHECK(f->other_at.line == line_of("ptx_misuse_kernels.cu", "cp.async.cg.shared.global [%0], [%1], 16;\\n\" ::\"r\"(shared_address(&tile[threadIdx.x % 32][0]))"));
}

TEST_CASE("cpu: a cp.async source past the end of its buffer is an out-of-bounds read by that thread") {
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<std::uint16_t> in(*be, 256, "in");
  DeviceArray<std::uint32_t> out(*be, 32, "out");
  in.upload(std::vector<std::uint16_t>(256, 1));
  LaunchResult r = run_cpu<void(const std::uint16_t*, std::uint32_t*)>(pm::cpu_ptx_cp_async_out_of_bounds,
                                                                      LaunchConfig{1, 32}, in.get(), out.get());
  const engine::Finding* f = first_of(r, FindingKind::out_of_bounds);
  REQUIRE(f != nullptr);
  CHECK(f->buffer == "in");
  CHECK(f->index == 256);
  CHECK(f->where.thread.x == 31);
}

TEST_CASE("cpu: a cp.async of 12 bytes and a made-up shared address are refused with what is wrong") {
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<std::uint16_t> in(*be, 256, "in");
  DeviceArray<std::uint32_t> out(*be, 32, "out");
  LaunchResult r = run_cpu<void(const std::uint16_t*, std::uint32_t*)>(pm::cpu_ptx_cp_async_bad_size,
                                                                      LaunchConfig{1, 32}, in.get(), out.get());
  const engine::Finding* f = first_of(r, FindingKind::inline_ptx);
  REQUIRE(f != nullptr);
  CHECK(f->detail.find("copies 4, 8 or 16") != std::string::npos);
  LaunchResult r2 = run_cpu<void(std::uint32_t*)>(pm::cpu_ptx_ld_shared_outside, LaunchConfig{1, 32}, out.get());
  const engine::Finding* g = first_of(r2, FindingKind::inline_ptx);
  REQUIRE(g != nullptr);
  CHECK(g->detail.find("not in the block's shared memory") != std::string::npos);
}

TEST_CASE("cpu: mma.sync in a warp of 16 lanes is refused: it needs all 32") {
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<std::uint32_t> out(*be, 48, "out");
  LaunchResult r = run_cpu<void(std::uint32_t*)>(pm::cpu_ptx_mma_partial_warp, LaunchConfig{1, 48}, out.get());
  const engine::Finding* f = first_of(r, FindingKind::warp_misuse);
  REQUIRE(f != nullptr);
  CHECK(f->op == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  CHECK(f->detail.find("all 32 lanes") != std::string::npos);
}

// --- The build refuses PTX the CPU backend cannot run -----------------------------------------

TEST_CASE("the build stops at an inline-PTX instruction the CPU backend does not know, naming it, the file and the line") {
  std::string dir = TEST_PROGRAM_DIR;
  std::string input = dir + "/unknown_ptx.ii", output = dir + "/unknown_ptx.cpp";
  {
    std::ofstream f(input);
    f << "# 1 \"student.cu\"\n"
         "__global__ void k(unsigned* out) {\n"
         "  unsigned x;\n"
         "  asm volatile(\"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0}, {%0}, {%0}, {%0};\" : \"+r\"(x));\n"
         "  out[0] = x;\n"
         "}\n";
  }
  test_support::ProcessResult r = test_support::run_program(PTX_REWRITE_PATH, {input, output});
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("student.cu:3:1: error:") != std::string::npos);
  CHECK(r.output.find("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32") != std::string::npos);
  // And a template it knows is rewritten, the same lines keeping their numbers.
  {
    std::ofstream f(input);
    f << "# 1 \"student.cu\"\n"
         "__global__ void k(unsigned* out) {\n"
         "  unsigned x;\n"
         "  asm volatile(\"mov.u32 %0, %%laneid;\"\n"
         "               : \"=r\"(x));\n"
         "  out[0] = x;\n"
         "}\n";
  }
  r = test_support::run_program(PTX_REWRITE_PATH, {input, output});
  CHECK(r.exit_status == 0);
  std::ifstream in(output);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("::cuda_cpu::ptx::out<'r'>(x)") != std::string::npos);
  CHECK(text.find("\"student.cu\", 3)") != std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 7);
}

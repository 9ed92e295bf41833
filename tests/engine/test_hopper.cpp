// Hopper's instructions on both backends (hopper_kernels.cu): tensor copies (TMA) with each
// swizzle, and their zero fill past the tensor's edges, against the layout computed here;
// wgmma from shared-memory descriptors and from registers against a · b; a warp-specialized
// GEMM; named barriers, elect.sync and setmaxnreg; the two backends against each other bit for
// bit; and, on the CPU backend, the findings of the GEMM's mistakes (hopper_misuse_kernels.cu).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "hopper_test_support.h"
#include "cuda_cpu/compat/cuda.h"
#include "cuda_cpu/compat/cuda_fp16.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "hopper_kernels_kernels.h"
#include "hopper_misuse_kernels_kernels.h"

using engine::DeviceArray;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;

namespace h = kernels::hopper_kernels;
namespace hm = kernels::hopper_misuse_kernels;

using hopper_test::describe;
using hopper_test::first_of;
using hopper_test::hopper_or_skip;
using hopper_test::line_of;
using hopper_test::require_clean;
using hopper_test::as_cu;
using hopper_test::request_for;

namespace {

template <typename Sig>
engine::Kernel<Sig> kernel(const engine::KernelImage& (*cpu)(), const engine::KernelImage& (*gpu)()) {
  return engine::Kernel<Sig>(cpu(), gpu());
}

// CU_TENSOR_MAP_SWIZZLE_{NONE,32B,64B,128B} = 0..3; their spans in bytes.
const unsigned kSwizzleBytes[4] = {0, 32, 64, 128};

// Where element (row, col) of a box with `row_bytes` per row lands, for a swizzle of `span`
// bytes: the 16-byte chunk's index within the span is XORed with the row bits above it
// (address bits [4, 4 + log2(span / 16)) ^= bits [7, 7 + the same)).
std::size_t landed_at(unsigned row, unsigned col, unsigned row_bytes, unsigned span) {
  std::size_t offset = std::size_t(row) * row_bytes + col * 2;
  if (span == 0) return offset;
  std::size_t chunks = span / 16 - 1;  // 1, 3 or 7
  return offset ^ (((offset >> 7) & chunks) << 4);
}

}  // namespace

// --- TMA ---------------------------------------------------------------------------------------

BACKEND_TEST("TMA: a 2-D box lands as each swizzle lays it out, with zeros past the tensor's edges") {
  if (!hopper_or_skip(backend)) return;
  constexpr unsigned kWidth = 104, kHeight = 70, kBoxRows = 32;
  std::vector<std::uint16_t> tensor(kWidth * kHeight);
  for (std::size_t i = 0; i < tensor.size(); ++i) tensor[i] = static_cast<std::uint16_t>(1 + i);  // never 0
  DeviceArray<std::uint16_t> global(backend, tensor.size(), "tensor");
  global.upload(tensor);
  auto box = kernel<void(CUtensorMap, int, int, int, std::uint16_t*)>(h::cpu_hopper_tma_box, h::gpu_hopper_tma_box);
  // Inside, across the right and bottom edges, and before the first row and column.
  const int corners[3][2] = {{8, 4}, {72, 50}, {-8, -4}};
  for (unsigned swizzle = 0; swizzle < 4; ++swizzle) {
    const unsigned box_cols = swizzle == 0 ? 64 : kSwizzleBytes[swizzle] / 2, bytes = box_cols * 2 * kBoxRows;
    CUtensorMap map = as_cu(backend.encode_tensor_map(request_for(global.get(), kWidth, kHeight, box_cols, kBoxRows, swizzle)));
    for (const auto& corner : corners) {
      CAPTURE(swizzle);
      CAPTURE(corner[0]);
      CAPTURE(corner[1]);
      DeviceArray<std::uint16_t> out(backend, bytes / 2, "out");
      require_clean(engine::launch(backend, box, LaunchConfig{1, 128, 16384 + 8}, RunOptions{}, map, corner[0],
                                   corner[1], static_cast<int>(bytes), out.get()));
      std::vector<std::uint16_t> landed = out.download();
      std::size_t wrong = 0;
      for (unsigned r = 0; r < kBoxRows; ++r)
        for (unsigned c = 0; c < box_cols; ++c) {
          int gr = corner[1] + int(r), gc = corner[0] + int(c);
          bool inside = gr >= 0 && gc >= 0 && gr < int(kHeight) && gc < int(kWidth);
          std::uint16_t want = inside ? tensor[std::size_t(gr) * kWidth + gc] : 0;
          if (landed[landed_at(r, c, box_cols * 2, kSwizzleBytes[swizzle]) / 2] != want) ++wrong;
        }
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("cpu: cuTensorMapEncodeTiled's rules are checked with the rule broken named") {
  auto be = test_support::backend_or_skip(engine::BackendKind::cpu);
  if (!be) return;
  DeviceArray<std::uint16_t> global(*be, 1000, "tensor");
  auto request = [&] {
    engine::TensorMapRequest r;
    r.global_address = global.get();
    r.dims[0] = 40;
    r.dims[1] = 25;
    r.strides[0] = 80;
    r.box[0] = 64;
    r.box[1] = 8;
    r.swizzle = 3;
    return r;
  };
  auto refused = [&](const engine::TensorMapRequest& r) -> std::string {
    try {
      be->encode_tensor_map(r);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  CHECK(refused(request()) == "");
  engine::TensorMapRequest odd_stride = request();
  odd_stride.strides[0] = 84;
  CHECK(refused(odd_stride).find("multiple of 16") != std::string::npos);
  engine::TensorMapRequest wide_box = request();
  wide_box.box[0] = 128;  // 256 bytes of a row: more than the 128-byte swizzle span
  CHECK(refused(wide_box).find("swizzle") != std::string::npos);
  engine::TensorMapRequest big_box = request();
  big_box.box[1] = 512;
  CHECK(refused(big_box).find("256") != std::string::npos);
}

// --- wgmma -------------------------------------------------------------------------------------

namespace {

struct WgmmaMode {
  int mode;
  const char* name;
  int n;
  bool bf16;
};
const WgmmaMode kWgmmaModes[] = {{0, "f16, a and b K-major", 64, false},
                                 {1, "f16, b MN-major", 64, false},
                                 {2, "f16, b MN-major, n = 128", 128, false},
                                 {3, "f16, a from registers", 64, false},
                                 {4, "bf16, a and b K-major", 64, true}};

std::uint16_t half_bits(float v) { return __half_as_ushort(__float2half(v)); }
std::uint16_t bf16_bits(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, 4);
  return static_cast<std::uint16_t>(b >> 16);  // exact for the small integers used here
}
float from_bits(std::uint16_t bits, bool bf16) {
  if (!bf16) return __half2float(__ushort_as_half(bits));
  std::uint32_t b = std::uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

std::vector<float> run_wgmma(engine::Backend& be, const WgmmaMode& m, const std::vector<std::uint16_t>& a,
                             const std::vector<std::uint16_t>& b, LaunchResult* result = nullptr) {
  auto k = kernel<void(const std::uint16_t*, const std::uint16_t*, float*, int)>(h::cpu_hopper_wgmma,
                                                                                  h::gpu_hopper_wgmma);
  DeviceArray<std::uint16_t> da(be, a.size(), "a"), db(be, b.size(), "b");
  DeviceArray<float> dd(be, 64 * m.n, "d");
  da.upload(a);
  db.upload(b);
  LaunchResult r = engine::launch(be, k, LaunchConfig{1, 128, 8192 + 16384}, RunOptions{}, da.get(), db.get(),
                                  dd.get(), m.mode);
  require_clean(r);
  if (result) *result = r;
  return dd.download();
}

}  // namespace

BACKEND_TEST("wgmma: m64nNk16 from shared-memory descriptors (K-major, MN-major) and from registers computes a · b") {
  if (!hopper_or_skip(backend)) return;
  std::mt19937 rng(5);
  for (const WgmmaMode& m : kWgmmaModes) {
    CAPTURE(m.name);
    // Small integers: every product and sum is exact, whatever the order of the additions.
    std::vector<std::uint16_t> a(64 * 64), b(64 * m.n);
    std::vector<float> av(a.size()), bv(b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      av[i] = float(int(rng() % 9) - 4);
      a[i] = m.bf16 ? bf16_bits(av[i]) : half_bits(av[i]);
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
      bv[i] = float(int(rng() % 9) - 4);
      b[i] = m.bf16 ? bf16_bits(bv[i]) : half_bits(bv[i]);
    }
    std::vector<float> d = run_wgmma(backend, m, a, b);
    std::size_t wrong = 0;
    for (int r = 0; r < 64; ++r)
      for (int c = 0; c < m.n; ++c) {
        float want = 0;
        for (int q = 0; q < 64; ++q) want += av[r * 64 + q] * bv[q * m.n + c];
        if (d[r * m.n + c] != want) ++wrong;
      }
    CHECK(wrong == 0);
  }
}

TEST_CASE("gpu: wgmma and TMA give the same bits on the CPU backend as on the GPU" * doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  auto cpu = engine::open_backend(engine::BackendChoice::cpu).backend;
  auto gpu = engine::open_backend(engine::BackendChoice::gpu).backend;
  if (!hopper_or_skip(*gpu)) return;
  for (const WgmmaMode& m : kWgmmaModes)
    for (unsigned seed = 1; seed <= 3; ++seed) {
      CAPTURE(m.name);
      CAPTURE(seed);
      // Random finite values over a wide range of exponents: the tensor cores' own rounding.
      std::mt19937 rng(seed);
      std::uniform_real_distribution<float> mantissa(-2.0f, 2.0f);
      std::uniform_int_distribution<int> exponent(-12, 8);
      auto value = [&] { return std::ldexp(mantissa(rng), exponent(rng)); };
      std::vector<std::uint16_t> a(64 * 64), b(64 * m.n);
      for (auto& v : a) v = m.bf16 ? bf16_bits(value()) : half_bits(value());
      for (auto& v : b) v = m.bf16 ? bf16_bits(value()) : half_bits(value());
      std::vector<float> on_cpu = run_wgmma(*cpu, m, a, b), on_gpu = run_wgmma(*gpu, m, a, b);
      std::size_t differ = 0, first = on_cpu.size();
      for (std::size_t i = 0; i < on_cpu.size(); ++i)
        if (std::memcmp(&on_cpu[i], &on_gpu[i], 4) != 0) {
          ++differ;
          if (first == on_cpu.size()) first = i;
        }
      if (differ) {
        INFO(differ << " of " << on_cpu.size() << " differ; first at " << first << ": CPU " << on_cpu[first]
                    << ", GPU " << on_gpu[first]);
        CHECK(differ == 0);
      }
      (void)from_bits;
    }
}

// --- A warp-specialized GEMM ---------------------------------------------------------------------

namespace {

constexpr int kGemmThreads = 384, kGemmShared = 3 * (128 * 64 * 2 + 64 * 128 * 2) + 2 * 3 * 8;

struct GemmInputs {
  int m, n, k;
  std::vector<__half> a, b;
};

GemmInputs gemm_inputs(int m, int n, int k) {
  GemmInputs in{m, n, k, std::vector<__half>(std::size_t(m) * k), std::vector<__half>(std::size_t(k) * n)};
  std::mt19937 rng(m * 131 + n * 7 + k);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (auto& v : in.a) v = __float2half(u(rng));
  for (auto& v : in.b) v = __float2half(u(rng));
  return in;
}

// a (m x k, row-major) as a 2-D tensor with 128 x 64 boxes; b (k x n, row-major) as 64-column
// blocks: a 3-D tensor {64 columns, k rows, n / 64 blocks} with 64 x 64 x 2 boxes. 128-byte swizzle.
void gemm_maps(engine::Backend& be, const GemmInputs& in, const void* a, const void* b, CUtensorMap& a_map,
               CUtensorMap& b_map) {
  engine::TensorMapRequest ra;
  ra.rank = 2;
  ra.global_address = a;
  ra.dims[0] = in.k;
  ra.dims[1] = in.m;
  ra.strides[0] = in.k * 2;
  ra.box[0] = 64;
  ra.box[1] = 128;
  ra.swizzle = 3;
  a_map = as_cu(be.encode_tensor_map(ra));
  engine::TensorMapRequest rb;
  rb.rank = 3;
  rb.global_address = b;
  rb.dims[0] = 64;
  rb.dims[1] = in.k;
  rb.dims[2] = in.n / 64;
  rb.strides[0] = in.n * 2;
  rb.strides[1] = 128;
  rb.box[0] = 64;
  rb.box[1] = 64;
  rb.box[2] = 2;
  rb.swizzle = 3;
  b_map = as_cu(be.encode_tensor_map(rb));
}

struct GemmRun {
  LaunchResult result;
  double worst = 0;  // the largest error, relative to the sum of the products' magnitudes
};

using GemmSignature = void(CUtensorMap, CUtensorMap, float*, int, int, int);

GemmRun run_gemm(engine::Backend& be, const engine::Kernel<GemmSignature>& gemm, const GemmInputs& in, int blocks,
                 engine::ThreadOrder order = engine::ThreadOrder::forward, bool profile = false) {
  DeviceArray<__half> da(be, in.a.size(), "a"), db(be, in.b.size(), "b");
  DeviceArray<float> dc(be, std::size_t(in.m) * in.n, "c");
  da.upload(in.a);
  db.upload(in.b);
  dc.upload(std::vector<float>(std::size_t(in.m) * in.n, std::nanf("")));
  CUtensorMap a_map, b_map;
  gemm_maps(be, in, da.get(), db.get(), a_map, b_map);
  be.set_max_dynamic_shared_bytes(gemm.image(be.kind()), kGemmShared);
  RunOptions options;
  options.order = order;
  options.profile = profile;
  GemmRun run;
  run.result = engine::launch(be, gemm, LaunchConfig{unsigned(blocks), kGemmThreads, kGemmShared}, options, a_map,
                              b_map, dc.get(), in.m, in.n, in.k);
  std::vector<float> c = dc.download();
  for (int i = 0; i < in.m; ++i)
    for (int j = 0; j < in.n; ++j) {
      double want = 0, magnitude = 0;
      for (int q = 0; q < in.k; ++q) {
        double p = double(__half2float(in.a[std::size_t(i) * in.k + q])) * __half2float(in.b[std::size_t(q) * in.n + j]);
        want += p;
        magnitude += std::fabs(p);
      }
      double got = c[std::size_t(i) * in.n + j];
      run.worst = std::max(run.worst, std::isnan(got) ? 1e30 : std::fabs(got - want) / (magnitude + 1e-30));
    }
  return run;
}

engine::Kernel<GemmSignature> misuse(const engine::KernelImage& (*cpu)()) {
  return engine::Kernel<GemmSignature>(cpu(), engine::absent_image("absent"));
}

}  // namespace

BACKEND_TEST("a warp-specialized GEMM (TMA, mbarrier ring, two wgmma consumers, persistent) is clean and right") {
  if (!hopper_or_skip(backend)) return;
  auto gemm = kernel<GemmSignature>(h::cpu_hopper_gemm_ws, h::gpu_hopper_gemm_ws);
  // Whole tiles; then m, n and k past a tile's edge (zeros from the copies), with two blocks
  // taking turns over four tiles.
  const int shapes[2][4] = {{256, 256, 128, 4}, {200, 192, 200, 2}};
  for (const auto& s : shapes)
    for (engine::ThreadOrder order : {engine::ThreadOrder::forward, engine::ThreadOrder::reverse}) {
      if (backend.kind() == engine::BackendKind::gpu && order != engine::ThreadOrder::forward) continue;
      CAPTURE(s[0]);
      CAPTURE(s[1]);
      CAPTURE(s[2]);
      CAPTURE(engine::to_string(order));
      GemmRun run = run_gemm(backend, gemm, gemm_inputs(s[0], s[1], s[2]), s[3], order);
      require_clean(run.result);
      CHECK(run.worst < 1e-5);
    }
}

BACKEND_TEST("named barriers, elect.sync and setmaxnreg: warpgroups hand values over as the PTX ISA says") {
  if (!hopper_or_skip(backend)) return;
  auto roles = kernel<void(int*)>(h::cpu_hopper_roles, h::gpu_hopper_roles);
  DeviceArray<int> out(backend, 257, "out");
  require_clean(engine::launch(backend, roles, LaunchConfig{1, 384}, RunOptions{}, out.get()));
  std::vector<int> o = out.download();
  for (int t = 0; t < 256; ++t) {
    CAPTURE(t);
    // Thread t of the consumers reads producer thread t % 128's value; elect.sync's leader is
    // lane 0 of every warp (the lowest active lane of a full mask).
    CHECK(o[t] == 3 * (t % 128) + 1);
  }
  CHECK(o[256] == 12);  // one elected lane in each of the 12 warps
}

// --- The GEMM's mistakes, on the CPU backend -----------------------------------------------------

TEST_CASE("cpu: an mbarrier told to expect fewer bytes than the copies bring: the deadlock names both counts") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  GemmRun run = run_gemm(*be, misuse(hm::cpu_gemm_expects_too_few_bytes), gemm_inputs(128, 128, 128), 1);
  INFO(describe(run.result));
  const engine::Finding* f = first_of(run.result, FindingKind::deadlock);
  REQUIRE(f != nullptr);
  bool named = false;
  for (const auto& g : f->groups)
    if (g.wait.kind == engine::ThreadGroup::BarrierWait::Kind::mbarrier && g.wait.bytes_expected == 24576 &&
        g.wait.bytes_delivered == 32768)
      named = true;
  CHECK(named);
}

TEST_CASE("cpu: an mbarrier told to expect more bytes than the copies bring never completes: a deadlock") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  GemmRun run = run_gemm(*be, misuse(hm::cpu_gemm_expects_too_many_bytes), gemm_inputs(128, 128, 128), 1);
  INFO(describe(run.result));
  const engine::Finding* f = first_of(run.result, FindingKind::deadlock);
  REQUIRE(f != nullptr);
  bool named = false;
  for (const auto& g : f->groups)
    if (g.wait.kind == engine::ThreadGroup::BarrierWait::Kind::mbarrier && g.wait.bytes_expected == 40960 &&
        g.wait.bytes_delivered == 32768) {
      named = true;
      CHECK(g.wait.pending_arrivals == 0);  // every arrival made: only bytes are missing
      CHECK(g.count == 256);                // both consumer warpgroups wait for them
    }
  CHECK(named);
}

TEST_CASE("cpu: a producer that waits for the wrong parity of a free stage deadlocks, naming the parity") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  GemmRun run = run_gemm(*be, misuse(hm::cpu_gemm_producer_parity_zero), gemm_inputs(128, 128, 128), 1);
  INFO(describe(run.result));
  const engine::Finding* f = first_of(run.result, FindingKind::deadlock);
  REQUIRE(f != nullptr);
  bool producer = false;
  for (const auto& g : f->groups)
    // The "empty" barrier: its arrivals are the two consumers' releases.
    if (g.wait.kind == engine::ThreadGroup::BarrierWait::Kind::mbarrier && g.wait.expected_arrivals == 2) {
      producer = true;
      CHECK(g.wait.parity == 0);
      CHECK(g.wait.phase_parity == 0);
      CHECK(g.count == 1);
    }
  CHECK(producer);
}

TEST_CASE("cpu: descriptors that disagree with the tensor map's swizzle give wrong sums and a finding saying so") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  GemmRun run = run_gemm(*be, misuse(hm::cpu_gemm_descriptor_64b), gemm_inputs(128, 128, 128), 1);
  INFO(describe(run.result));
  CHECK(run.worst > 1e-3);
  const engine::Finding* f = first_of(run.result, FindingKind::async_proxy);
  REQUIRE(f != nullptr);
  CHECK(f->async_use == engine::Finding::AsyncUse::swizzle_mismatch);
  CHECK(f->at.line == line_of("hopper_ptx.cuh", "setp.ne.b32 p, %66, 0"));
}

TEST_CASE("cpu: a stage released before wgmma.wait_group is overwritten while wgmma reads it: a finding") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  GemmRun run = run_gemm(*be, misuse(hm::cpu_gemm_release_before_wait), gemm_inputs(128, 128, 256), 1);
  INFO(describe(run.result));
  const engine::Finding* f = first_of(run.result, FindingKind::async_proxy);
  REQUIRE(f != nullptr);
  CHECK(f->async_use == engine::Finding::AsyncUse::wgmma_reading);
}

TEST_CASE("cpu: a consumer that reads a stage without waiting on its mbarrier reads copies still in flight") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  GemmRun run = run_gemm(*be, misuse(hm::cpu_gemm_consumer_skips_wait), gemm_inputs(128, 128, 128), 1);
  INFO(describe(run.result));
  const engine::Finding* f = first_of(run.result, FindingKind::async_proxy);
  REQUIRE(f != nullptr);
  CHECK(f->async_use == engine::Finding::AsyncUse::tma_write_pending);
}

TEST_CASE("cpu: a wgmma that half of the warpgroup skips: the other half waits for it forever, at its line") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  engine::Kernel<void(float*)> k(hm::cpu_wgmma_half_warpgroup(), engine::absent_image("absent"));
  DeviceArray<float> out(*be, 128, "out");
  LaunchResult r = engine::launch(*be, k, LaunchConfig{1, 128, 16384}, RunOptions{}, out.get());
  INFO(describe(r));
  const engine::Finding* f = first_of(r, FindingKind::deadlock);
  REQUIRE(f != nullptr);
  bool waiting = false, returned = false;
  for (const auto& g : f->groups) {
    if (!g.returned && g.count == 64 && g.barrier.line == line_of("hopper_misuse_kernels.cu", "    wgmma_fence();"))
      waiting = true;
    if (g.returned && g.count == 64) returned = true;
  }
  CHECK(waiting);
  CHECK(returned);
}

// --- --profile: what the asynchronous units did -------------------------------------------------

TEST_CASE("cpu: the profile counts the GEMM's tensor copies per stage use and its wgmmas per warpgroup") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  auto gemm = kernel<GemmSignature>(h::cpu_hopper_gemm_ws, h::gpu_hopper_gemm_ws);
  // 2 x 2 tiles of 128 x 128, 2 steps of k each, on 2 blocks: each block 2 tiles, 4 steps, so its
  // stages 0, 1, 2, 0; every step a box of a (128 x 64) and one of b (64 x 64 x 2), 16 KB each.
  GemmRun run = run_gemm(*be, gemm, gemm_inputs(256, 256, 128), 2, engine::ThreadOrder::forward, true);
  require_clean(run.result);
  const std::uint64_t kBox = 16384, steps = 2 * 4;
  // full[s] lies after the 3 stages of a and b, at smem[98304 + 8 s].
  std::map<std::string, std::uint64_t> copies, bytes, phases;
  std::set<std::uintptr_t> sites;
  for (const engine::TensorCopyProfile& t : run.result.tensor_copies) {
    CAPTURE(t.barrier);
    CHECK_FALSE(t.store);
    CHECK_FALSE(t.multicast);
    CHECK(t.at.known());
    CHECK(t.bytes == t.copies * kBox);
    CHECK(t.phases == t.copies);  // one box per stage use from each of the two copy sites
    copies[t.barrier] += t.copies;
    bytes[t.barrier] += t.bytes;
    phases[t.barrier] = std::max(phases[t.barrier], t.phases);
    sites.insert(t.site);
  }
  CHECK(sites.size() == 2);
  CHECK(copies == std::map<std::string, std::uint64_t>{{"smem[98304]", 8}, {"smem[98312]", 4}, {"smem[98320]", 4}});
  CHECK(bytes["smem[98304]"] == 8 * kBox);
  CHECK(phases == std::map<std::string, std::uint64_t>{{"smem[98304]", 4}, {"smem[98312]", 2}, {"smem[98320]", 2}});
  // Per stage use: both copies' bytes, what expect_tx announces.
  CHECK(bytes["smem[98312]"] / phases["smem[98312]"] == 2 * kBox);

  // The two consumer warpgroups (1 and 2) each: 4 m64n128k16 per step, one commit and one
  // wait_group 0 per step. The producer (warpgroup 0) issues none.
  using Op = engine::WarpgroupMmaProfile::Op;
  std::map<std::pair<unsigned, Op>, std::uint64_t> issued, flops;
  for (const engine::WarpgroupMmaProfile& w : run.result.warpgroup_mma) {
    CHECK(w.at.known());
    if (w.op == Op::mma) CHECK(w.n == 128);
    if (w.op == Op::wait_group) CHECK(w.n == 0);
    issued[{w.warpgroup, w.op}] += w.instructions;
    flops[{w.warpgroup, w.op}] += w.flops;
  }
  CHECK(issued.size() == 6);
  for (unsigned g : {1u, 2u}) {
    CAPTURE(g);
    CHECK(issued[{g, Op::mma}] == 4 * steps);
    CHECK(flops[{g, Op::mma}] == 4 * steps * 2 * 64 * 128 * 16);
    CHECK(issued[{g, Op::commit_group}] == steps);
    CHECK(issued[{g, Op::wait_group}] == steps);
    CHECK(flops[{g, Op::commit_group}] == 0);
  }
}

TEST_CASE("cpu: the profile counts tensor stores, and loads on two stages, per line") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  constexpr unsigned kWidth = 256, kHeight = 64;
  std::vector<std::uint16_t> tensor(kWidth * kHeight);
  for (std::size_t i = 0; i < tensor.size(); ++i) tensor[i] = static_cast<std::uint16_t>(1 + i);
  DeviceArray<std::uint16_t> in(*be, tensor.size(), "in"), out(*be, tensor.size(), "out");
  in.upload(tensor);
  out.upload(std::vector<std::uint16_t>(tensor.size(), 0));
  auto map_of = [&](const void* address) {
    return as_cu(be->encode_tensor_map(request_for(address, kWidth, kHeight, 64, 16, 3)));
  };
  auto trip = kernel<void(CUtensorMap, CUtensorMap, int, int, int, int)>(h::cpu_hopper_tma_round_trip,
                                                                         h::gpu_hopper_tma_round_trip);
  RunOptions options;
  options.profile = true;
  const int bytes = 64 * 16 * 2, boxes = 4, row = 8;
  LaunchResult r = engine::launch(*be, trip, LaunchConfig{1, 128, 2 * 16384 + 16}, options, map_of(in.get()),
                                  map_of(out.get()), 0, row, bytes, boxes);
  require_clean(r);
  // The stores wrote back rows 8 .. 23, every column, and nothing else.
  std::vector<std::uint16_t> got = out.download();
  std::size_t wrong = 0;
  for (unsigned i = 0; i < tensor.size(); ++i) {
    bool stored = i / kWidth >= row && i / kWidth < row + 16u;
    if (got[i] != (stored ? tensor[i] : 0)) ++wrong;
  }
  CHECK(wrong == 0);

  const int load_line = line_of("hopper_kernels.cu", "tma_load_2d(tile, &in_map");
  const int store_line = line_of("hopper_kernels.cu", "tma_store_2d(&out_map");
  std::map<std::string, const engine::TensorCopyProfile*> loads;
  const engine::TensorCopyProfile* store = nullptr;
  for (const engine::TensorCopyProfile& t : r.tensor_copies) {
    if (t.store) {
      REQUIRE(store == nullptr);
      store = &t;
    } else {
      loads[t.barrier] = &t;
    }
  }
  REQUIRE(store != nullptr);
  CHECK(store->at.line == store_line);
  CHECK(store->copies == 4);
  CHECK(store->bytes == 4u * bytes);
  CHECK(store->barrier.empty());
  REQUIRE(loads.size() == 2);
  for (const char* barrier : {"smem[32768]", "smem[32776]"}) {
    CAPTURE(barrier);
    REQUIRE(loads.count(barrier));
    const engine::TensorCopyProfile& l = *loads[barrier];
    CHECK(l.at.line == load_line);
    CHECK(l.copies == 2);
    CHECK(l.bytes == 2u * bytes);
    CHECK(l.phases == 2);
  }
  CHECK(r.warpgroup_mma.empty());
}

TEST_CASE("cpu: without the profile option nothing of the asynchronous units is counted") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  auto gemm = kernel<GemmSignature>(h::cpu_hopper_gemm_ws, h::gpu_hopper_gemm_ws);
  GemmRun run = run_gemm(*be, gemm, gemm_inputs(128, 128, 64), 1);
  require_clean(run.result);
  CHECK(run.result.tensor_copies.empty());
  CHECK(run.result.warpgroup_mma.empty());
}

TEST_CASE("cpu: a tensor box over the tensor's edges is noted with its zero-filled elements, on every launch") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  constexpr unsigned kWidth = 104, kHeight = 70, kBoxCols = 64, kBoxRows = 32, kBytes = kBoxCols * kBoxRows * 2;
  DeviceArray<std::uint16_t> global(*be, kWidth * kHeight, "tensor");
  global.upload(std::vector<std::uint16_t>(kWidth * kHeight, 1));
  CUtensorMap map = as_cu(be->encode_tensor_map(request_for(global.get(), kWidth, kHeight, kBoxCols, kBoxRows, 3)));
  auto box = kernel<void(CUtensorMap, int, int, int, std::uint16_t*)>(h::cpu_hopper_tma_box, h::gpu_hopper_tma_box);
  const int line = line_of("hopper_kernels.cu", "tma_load_2d(shared_address(smem), &map");
  struct Corner {
    int col, row;
    std::uint64_t outside;
  };
  // Inside; across the right and bottom edges (32 of 64 columns and 20 of 32 rows inside); and
  // before the first row and column (56 columns and 28 rows inside). No profile option.
  for (const Corner& corner : {Corner{8, 4, 0}, Corner{72, 50, 2048 - 32 * 20}, Corner{-8, -4, 2048 - 56 * 28}}) {
    CAPTURE(corner.col);
    CAPTURE(corner.row);
    DeviceArray<std::uint16_t> out(*be, kBytes / 2, "out");
    LaunchResult r = engine::launch(*be, box, LaunchConfig{1, 128, 16384 + 8}, RunOptions{}, map, corner.col,
                                    corner.row, static_cast<int>(kBytes), out.get());
    require_clean(r);
    if (corner.outside == 0) {
      CHECK(r.tensor_edges.empty());
      continue;
    }
    REQUIRE(r.tensor_edges.size() == 1);
    const engine::TensorEdgeNote& n = r.tensor_edges[0];
    CHECK(n.at.line == line);
    CHECK_FALSE(n.store);
    CHECK(n.tensor == "tensor");
    CHECK(n.dims == std::vector<std::uint64_t>{kWidth, kHeight});
    CHECK(n.box == std::vector<unsigned>{kBoxCols, kBoxRows});
    CHECK(n.first_box == std::vector<std::int64_t>{corner.col, corner.row});
    CHECK(n.boxes == 1);
    CHECK(n.boxes_over_edge == 1);
    CHECK(n.elements_outside == corner.outside);
  }
}

TEST_CASE("cpu: of a line's tensor loads and stores, those over the edge are counted, the first named") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  constexpr unsigned kWidth = 256, kHeight = 64;
  DeviceArray<std::uint16_t> in(*be, kWidth * kHeight, "in"), out(*be, kWidth * kHeight, "out");
  in.upload(std::vector<std::uint16_t>(kWidth * kHeight, 1));
  out.upload(std::vector<std::uint16_t>(kWidth * kHeight, 0));
  auto map_of = [&](const void* address) {
    return as_cu(be->encode_tensor_map(request_for(address, kWidth, kHeight, 64, 16, 3)));
  };
  auto trip = kernel<void(CUtensorMap, CUtensorMap, int, int, int, int)>(h::cpu_hopper_tma_round_trip,
                                                                         h::gpu_hopper_tma_round_trip);
  // Boxes at columns 40, 104, 168 and 232 of rows 48 .. 63: only the last crosses the right
  // edge, with 24 of its 64 columns inside.
  LaunchResult r = engine::launch(*be, trip, LaunchConfig{1, 128, 2 * 16384 + 16}, RunOptions{}, map_of(in.get()),
                                  map_of(out.get()), 40, 48, 64 * 16 * 2, 4);
  require_clean(r);
  REQUIRE(r.tensor_edges.size() == 2);
  for (const engine::TensorEdgeNote& n : r.tensor_edges) {
    CAPTURE(n.store);
    CHECK(n.at.line == line_of("hopper_kernels.cu", n.store ? "tma_store_2d(&out_map" : "tma_load_2d(tile, &in_map"));
    CHECK(n.tensor == (n.store ? "out" : "in"));
    CHECK(n.dims == std::vector<std::uint64_t>{kWidth, kHeight});
    CHECK(n.first_box == std::vector<std::int64_t>{232, 48});
    CHECK(n.first_block == 0);
    CHECK(n.boxes == 4);
    CHECK(n.boxes_over_edge == 1);
    CHECK(n.elements_outside == 64 * 16 - 24 * 16);
  }
  CHECK(r.tensor_edges[0].store != r.tensor_edges[1].store);
}

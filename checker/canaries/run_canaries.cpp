// Launches each canary kernel (canary_kernels.cu) on the CPU backend, as a checker launches a
// student's kernel, and records what came out of it. Built once per build of the kernels:
// CANARY_KERNELS_HEADER names the generated header of the library it is linked with.
#include <cstring>
#include <exception>
#include <functional>
#include <vector>

#include CANARY_KERNELS_HEADER
#include "canaries.h"
#include "cuda_cpu/compat/cuda.h"
#include "engine/backend.h"
#include "engine/device_array.h"

namespace canaries {
namespace {

namespace k = kernels::canaries;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;

// kernel(): the canary's image; launch: runs it and returns what the engine found.
struct Canary {
  const char* name;
  const engine::KernelImage& (*kernel)();
  const char* measures;
  FindingKind kind;
  const char* kind_name;
  bool instrumented;
  std::uint64_t expected_at_least;
  std::function<LaunchResult(engine::Backend&, const engine::KernelImage&, const engine::RunOptions&)> launch;
};

LaunchResult launch_with(engine::Backend& be, const engine::KernelImage& image, const LaunchConfig& config,
                         const engine::RunOptions& options, std::vector<void*> args) {
  args.push_back(nullptr);
  return be.launch(image, config, args.data(), options);
}

// A 16 x 64 tensor of halves, one box of all of it (canary_tensor_*).
CUtensorMap tile_map(engine::Backend& be, const void* tensor) {
  engine::TensorMapRequest request;
  request.rank = 2;
  request.global_address = tensor;
  request.dims[0] = 64;
  request.dims[1] = 16;
  request.strides[0] = 64 * 2;
  request.box[0] = 64;
  request.box[1] = 16;
  engine::TensorMap map = be.encode_tensor_map(request);
  CUtensorMap cu;
  std::memcpy(&cu, map.bytes, sizeof cu);
  return cu;
}

// One warp over two 32-float buffers.
LaunchResult in_out(engine::Backend& be, const engine::KernelImage& image, const engine::RunOptions& options,
                    std::size_t in_elements, std::size_t dynamic_shared = 0) {
  engine::DeviceArray<float> in(be, in_elements, "in"), out(be, 32, "out");
  in.upload(std::vector<float>(in_elements, 1.0f));
  float* a = in.get();
  float* b = out.get();
  return launch_with(be, image, LaunchConfig{1, 32, dynamic_shared}, options, {&a, &b});
}
LaunchResult out_only(engine::Backend& be, const engine::KernelImage& image, const engine::RunOptions& options,
                      LaunchConfig config, std::size_t out_elements) {
  engine::DeviceArray<float> out(be, out_elements, "out");
  float* b = out.get();
  return launch_with(be, image, config, options, {&b});
}

// A canary whose mistake must give at least one finding of `kind`; `instrumented`: seen through
// the compiler's instrumentation of loads and stores.
#define FINDING(name, kind, instrumented, ...)                                                                \
  Canary { #name, &k::cpu_canary_##name, "finding", FindingKind::kind, #kind, instrumented, 1, __VA_ARGS__ }
// The same, counting only the findings that name the thread (and so the line) that made the access.
#define THREAD_FINDING(name, kind, ...)                                                                       \
  Canary { #name, &k::cpu_canary_##name, "finding_naming_thread", FindingKind::kind, #kind, true, 1, __VA_ARGS__ }
// A canary whose number (measured through the instrumentation) must reach `at_least`.
#define MEASURE(name, what, at_least, ...)                                                                     \
  Canary { #name, &k::cpu_canary_##name, what, FindingKind::fault, "", true, at_least, __VA_ARGS__ }

std::vector<Canary> all_canaries() {
  using engine::Backend;
  using engine::KernelImage;
  using engine::RunOptions;
  return {
      FINDING(global_read_past_end, out_of_bounds, true,
             [](Backend& be, const KernelImage& i, const RunOptions& o) { return in_out(be, i, o, 32); }),
      // The canary bytes around each buffer catch this write after the kernel, instrumented or
      // not; the instrumentation catches it as it happens, naming the thread and the line.
      THREAD_FINDING(global_write_past_end, out_of_bounds,
             [](Backend& be, const KernelImage& i, const RunOptions& o) { return out_only(be, i, o, {1, 32}, 32); }),
      FINDING(dynamic_shared_past_end, shared_out_of_bounds, true,
             [](Backend& be, const KernelImage& i, const RunOptions& o) {
               return out_only(be, i, o, {1, 32, 16 * sizeof(float)}, 32);
             }),
      FINDING(shared_race, shared_race, true,
             [](Backend& be, const KernelImage& i, const RunOptions& o) { return out_only(be, i, o, {1, 32}, 32); }),
      FINDING(unwritten_shared, uninitialized_shared, true,
             [](Backend& be, const KernelImage& i, const RunOptions& o) { return out_only(be, i, o, {1, 32}, 32); }),
      FINDING(misaligned_float4, misaligned, true,
             [](Backend& be, const KernelImage& i, const RunOptions& o) { return in_out(be, i, o, 4 * 32 + 4); }),
      FINDING(async_copy_read_before_wait, async_copy, true,
             [](Backend& be, const KernelImage& i, const RunOptions& o) { return in_out(be, i, o, 128); }),
      FINDING(tensor_copy_read_before_wait, async_proxy, true,
             [](Backend& be, const KernelImage& i, const RunOptions& o) {
               engine::DeviceArray<std::uint16_t> tensor(be, 16 * 64, "tensor"), out(be, 32, "out");
               tensor.upload(std::vector<std::uint16_t>(16 * 64, 1));
               CUtensorMap map = tile_map(be, tensor.get());
               std::uint16_t* b = out.get();
               return launch_with(be, i, {1, 32, 2048 + 8}, o, {&map, &b});
             }),
      FINDING(wgmma_accumulator_read_before_wait, wgmma_accumulator, true,
             [](Backend& be, const KernelImage& i, const RunOptions& o) {
               engine::DeviceArray<float> out(be, 64 * 64, "out");
               float* b = out.get();
               int m = 64, n = 64, steps = 2;
               return launch_with(be, i, {1, 128, 16384}, o, {&b, &m, &n, &steps});
             }),
      FINDING(wgmma_operand_overwritten, async_proxy, true,
             [](Backend& be, const KernelImage& i, const RunOptions& o) { return out_only(be, i, o, {1, 128, 16384}, 128); }),
      FINDING(tensor_store_without_proxy_fence, proxy_fence, true,
             [](Backend& be, const KernelImage& i, const RunOptions& o) {
               engine::DeviceArray<std::uint16_t> tensor(be, 16 * 64, "tensor");
               CUtensorMap map = tile_map(be, tensor.get());
               return launch_with(be, i, {1, 32, 2048}, o, {&map});
             }),
      FINDING(cluster_read_before_barrier, cluster_order, false,
             [](Backend& be, const KernelImage& i, const RunOptions& o) {
               LaunchConfig config{2, 32};
               config.cluster = engine::Dim3{2, 1, 1};
               return out_only(be, i, o, config, 64);
             }),
      // Puzzle 7's limit: the access profile measures the column read as 32-way.
      MEASURE(bank_conflict, "bank_conflict_ways", 32,
             [](Backend& be, const KernelImage& i, const RunOptions& o) {
               RunOptions profiled = o;
               profiled.profile = true;
               return out_only(be, i, profiled, {1, 32}, 32);
             }),
      // The load budgets: each thread loads 8 floats.
      MEASURE(global_loads, "global_loads_per_thread", 8,
             [](Backend& be, const KernelImage& i, const RunOptions& o) {
               const int stride = 64;
               engine::DeviceArray<float> in(be, 8 * stride, "in"), out(be, 32, "out");
               in.upload(std::vector<float>(8 * stride, 1.0f));
               float* a = in.get();
               float* b = out.get();
               int s = stride;
               return launch_with(be, i, {1, 32}, o, {&a, &b, &s});
             }),
  };
}

std::uint64_t measured(const Canary& canary, const LaunchResult& r) {
  const std::string measures = canary.measures;
  if (measures == "bank_conflict_ways") {
    unsigned worst = 0;
    for (const engine::AccessProfile& p : r.profile)
      if (p.shared && !p.write && p.worst_ways > worst) worst = p.worst_ways;
    return worst;
  }
  if (measures == "global_loads_per_thread") return r.stats.loads_counted ? r.stats.max_global_loads : 0;
  if (measures == "finding_naming_thread") {
    std::uint64_t named = 0;
    for (const engine::Finding& f : r.findings) named += f.kind == canary.kind && f.thread_known;
    return named;
  }
  return r.total(canary.kind);
}

}  // namespace

std::vector<Result> run_canaries() {
  auto backend = engine::open_backend(engine::BackendChoice::cpu).backend;
  engine::RunOptions options;
  options.timeout_seconds = 20;
  std::vector<Result> results;
  for (const Canary& canary : all_canaries()) {
    Result r;
    r.name = canary.name;
    r.measures = canary.measures;
    if (r.measures.rfind("finding", 0) == 0) r.kind = canary.kind_name;
    r.instrumented = canary.instrumented;
    r.expected_at_least = canary.expected_at_least;
    try {
      r.observed = measured(canary, canary.launch(*backend, canary.kernel(), options));
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    results.push_back(r);
  }
  return results;
}

}  // namespace canaries

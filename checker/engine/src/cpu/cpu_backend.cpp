// The CPU backend: the same kernel source, compiled by the host compiler, run with CUDA's
// block, thread, shared-memory and barrier semantics.
#include "cpu_backend.h"

#include "cuda_cpu/tensor_map.h"

#include <cstring>

#include "device_arena.h"
#include "dynamic_shared_limits.h"
#include "grid_runner.h"
#include "isolated_launch.h"
#include "shared_layout.h"
#include "symbol_table.h"

namespace engine::cpu {
namespace {

class CpuBackend final : public Backend {
  static unsigned workers() { return usable_cores(); }

 public:
  BackendKind kind() const override { return BackendKind::cpu; }

  std::string description() const override {
    return "CPU, " + std::to_string(workers()) + (workers() == 1 ? " worker thread" : " worker threads");
  }

  DeviceLimits limits() const override {
    DeviceLimits l;
    // A persistent grid (one block per multiprocessor) takes several tiles per block even at
    // the small sizes the CPU backend checks, whatever the machine: four, on every machine.
    l.multiprocessors = 4;
    return l;
  }

  void* allocate(std::size_t bytes, std::size_t element_size, const std::string& name) override {
    return DeviceArena::instance().allocate(bytes, element_size, name);
  }
  void release(void* p) noexcept override { DeviceArena::instance().release(p); }

  void copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    check_range(dst, bytes, "copy to device");
    std::memcpy(dst, src, bytes);
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    check_range(src, bytes, "copy to host");
    std::memcpy(dst, src, bytes);
  }
  void synchronize() override {}  // launches are synchronous here

  TensorMap encode_tensor_map(const TensorMapRequest& r) override {
    TensorMap map;
    const char* why = nullptr;
    if (cuda_cpu::encode_tensor_map(map.bytes, r.data_type, r.rank, r.global_address, r.dims, r.strides, r.box,
                                    r.element_strides, r.interleave, r.swizzle, r.l2_promotion, r.oob_fill, &why) != 0)
      throw Error(std::string("cuTensorMapEncodeTiled refused the tensor map: ") + (why ? why : "invalid argument"));
    return map;
  }

  void set_max_dynamic_shared_bytes(const KernelImage& kernel, std::size_t bytes) override {
    LaunchRejection refused = check_max_dynamic_shared(bytes, limits(), kernel.name);
    if (refused.refused()) throw LaunchRefused(refused);
    allow_dynamic_shared(kernel.address, bytes);
  }

  LaunchResult launch(const KernelImage& kernel, const LaunchConfig& config, void* const* args,
                      const RunOptions& options) override {
    GridPlan plan;
    plan.kernel = &kernel;
    plan.args = args;
    plan.config = config;
    plan.options = options;
    // Without them the shared-memory limit and race checks would silently pass.
    if (!SymbolTable::self().loaded())
      throw Error("this program has no symbol table (was it stripped with `strip`?); the CPU backend needs "
                  "it to find each kernel's __shared__ memory. Rebuild it, and do not strip it");
    plan.shared = shared_variables_of(kernel.address);
    std::size_t static_shared = 0;
    for (const SharedVariable& v : plan.shared) static_shared += v.size;

    LaunchResult result;
    result.rejected = check_launch_config(config, limits(), static_shared, allowed_dynamic_shared(kernel.address),
                                          kernel.name);
    // A kernel that declares no extern __shared__ array cannot name dynamic shared memory: as on
    // a GPU, it runs with the bytes unused (a stub whose declaration is still to be written, say).
    if (!result.rejected.refused() && kernel.dynamic_shared_capacity > 0 &&
        config.dynamic_shared_bytes > kernel.dynamic_shared_capacity) {
      result.rejected.why = LaunchRejection::Why::no_extern_shared;
      result.rejected.kernel = kernel.name;
      result.rejected.requested = config.dynamic_shared_bytes;
    }
    if (result.rejected.refused()) return result;

    plan.blocks = config.grid.count();
    plan.threads_per_block = static_cast<unsigned>(config.block.count());
    result = launch_isolated(plan);
    add_canary_damage(result);
    return result;
  }

 private:
  static void check_range(const void* p, std::size_t bytes, const char* what) {
    auto a = reinterpret_cast<std::uintptr_t>(p);
    const DeviceArena& arena = DeviceArena::instance();
    if (!arena.contains(a) || !arena.slot_of(a).live || a + bytes > arena.slot_of(a).end)
      throw Error(std::string(what) + ": the device pointer is not inside an allocated buffer");
  }

  // Writes just past a buffer's end that the instrumentation could not see (kernels built
  // without clang) still land in the canary bytes around it.
  static void add_canary_damage(LaunchResult& result) {
    const DeviceArena& arena = DeviceArena::instance();
    for (const DeviceArena::Damage& d : arena.damaged_canaries()) {
      const DeviceArena::Buffer& b = arena.slot(d.slot);
      bool already = false;
      for (const Finding& f : result.findings)
        already |= f.kind == FindingKind::out_of_bounds && f.buffer == b.name;
      // Repair them, so the next launch starts clean.
      std::memset(reinterpret_cast<void*>(b.map_begin), DeviceArena::kCanaryByte, b.begin - b.map_begin);
      std::memset(reinterpret_cast<void*>(b.end), DeviceArena::kCanaryByte, b.map_end - b.end);
      if (already) continue;
      result.add(damaged_canary(b.name, b.element_size,
                                static_cast<long long>(d.address) - static_cast<long long>(b.begin), b.end - b.begin));
    }
  }
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace engine::cpu

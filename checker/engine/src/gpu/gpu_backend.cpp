#include "gpu_backend.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <thread>
#include <vector>

#include "cuda_check.h"
#include "seconds_text.h"

namespace engine::gpu {
namespace {

constexpr unsigned char kCanaryByte = 0xFE;  // -1.7e38 as a float: obviously garbage

// Each buffer sits between two canary zones that are checked after every launch: an
// out-of-bounds write shows up without any tool.
struct Allocation {
  char* base;
  std::size_t bytes, canary, element_size;
  std::string name;
};

// Starts the kernel: cudaLaunchKernel, or, for thread block clusters, cudaLaunchKernelEx (its
// C form, which takes the argument array) with the cluster's shape as a launch attribute, the
// way to give it at launch time. Returns CUDA's error for the launch; nothing else is checked.
cudaError_t start_kernel(const KernelImage& kernel, const LaunchConfig& config, void* const* args) {
  const dim3 grid(config.grid.x, config.grid.y, config.grid.z);
  const dim3 block(config.block.x, config.block.y, config.block.z);
  if (config.cluster.count() <= 1)
    return cudaLaunchKernel(kernel.address, grid, block, const_cast<void**>(args), config.dynamic_shared_bytes, nullptr);
  cudaLaunchAttribute cluster[1] = {};
  cluster[0].id = cudaLaunchAttributeClusterDimension;
  cluster[0].val.clusterDim.x = config.cluster.x;
  cluster[0].val.clusterDim.y = config.cluster.y;
  cluster[0].val.clusterDim.z = config.cluster.z;
  cudaLaunchConfig_t launch = {};
  launch.gridDim = grid;
  launch.blockDim = block;
  launch.dynamicSmemBytes = config.dynamic_shared_bytes;
  launch.stream = nullptr;
  launch.attrs = cluster;
  launch.numAttrs = 1;
  return cudaLaunchKernelExC(&launch, kernel.address, const_cast<void**>(args));
}

class GpuBackend final : public Backend {
 public:
  explicit GpuBackend(const BackendSettings& settings) : canaries_(settings.gpu_canaries) {
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaGetDeviceProperties(&props_, 0));
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~GpuBackend() override {
    if (lost_) return;  // the context is gone; freeing would only fail again
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

  BackendKind kind() const override { return BackendKind::gpu; }

  std::string description() const override {
    return std::string(props_.name) + " (sm_" + std::to_string(props_.major) + std::to_string(props_.minor) +
           ", " + std::to_string(props_.multiProcessorCount) + " SMs)";
  }

  DeviceLimits limits() const override {
    DeviceLimits l;
    l.max_threads_per_block = static_cast<unsigned>(props_.maxThreadsPerBlock);
    l.max_block = Dim3(props_.maxThreadsDim[0], props_.maxThreadsDim[1], props_.maxThreadsDim[2]);
    l.max_grid = Dim3(props_.maxGridSize[0], props_.maxGridSize[1], props_.maxGridSize[2]);
    l.max_shared_per_block = props_.sharedMemPerBlock;
    l.max_shared_optin = props_.sharedMemPerBlockOptin;
    l.compute_capability = static_cast<unsigned>(props_.major * 10 + props_.minor);
    l.multiprocessors = static_cast<unsigned>(props_.multiProcessorCount);
    return l;
  }

  TensorMap encode_tensor_map(const TensorMapRequest& r) override {
    ensure_usable();
    // The driver API, loaded when first needed: the rest of the backend needs only the runtime.
    using Encode = int (*)(void*, unsigned, unsigned, void*, const std::uint64_t*, const std::uint64_t*,
                           const std::uint32_t*, const std::uint32_t*, unsigned, unsigned, unsigned, unsigned);
    using ErrorString = int (*)(int, const char**);
    static void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver) throw Error("cannot load the CUDA driver library (libcuda.so.1) for cuTensorMapEncodeTiled");
    static auto encode = reinterpret_cast<Encode>(dlsym(driver, "cuTensorMapEncodeTiled"));
    static auto error_string = reinterpret_cast<ErrorString>(dlsym(driver, "cuGetErrorString"));
    if (!encode) throw Error("this CUDA driver has no cuTensorMapEncodeTiled (it needs CUDA 12 or newer)");
    TensorMap map;
    int status = encode(map.bytes, r.data_type, r.rank, const_cast<void*>(r.global_address), r.dims, r.strides, r.box,
                        r.element_strides, r.interleave, r.swizzle, r.l2_promotion, r.oob_fill);
    if (status != 0) {
      const char* text = nullptr;
      if (error_string) error_string(status, &text);
      throw Error(std::string("cuTensorMapEncodeTiled refused the tensor map: ") + (text ? text : "error") +
                  " (CUresult " + std::to_string(status) + ")");
    }
    return map;
  }

  void set_max_dynamic_shared_bytes(const KernelImage& kernel, std::size_t bytes) override {
    ensure_usable();
    LaunchRejection refused = check_max_dynamic_shared(bytes, limits(), kernel.name);
    if (refused.refused()) throw LaunchRefused(refused);
    CUDA_CHECK(cudaFuncSetAttribute(kernel.address, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
    max_dynamic_[kernel.address] = bytes;
  }

  void* allocate(std::size_t bytes, std::size_t element_size, const std::string& name) override {
    ensure_usable();
    std::size_t canary = canaries_ ? std::max<std::size_t>(4096, (bytes / 4 + 255) / 256 * 256) : 0;
    void* base = nullptr;
    CUDA_CHECK(cudaMalloc(&base, bytes + 2 * canary));
    CUDA_CHECK(cudaMemset(base, kCanaryByte, bytes + 2 * canary));
    char* user = static_cast<char*>(base) + canary;
    allocations_[user] = Allocation{static_cast<char*>(base), bytes, canary, element_size, name};
    return user;
  }

  void release(void* p) noexcept override {
    auto it = allocations_.find(static_cast<char*>(p));
    if (it == allocations_.end()) return;
    if (!lost_) {
      cudaError_t e = cudaFree(it->second.base);
      if (e != cudaSuccess) std::fprintf(stderr, "warning: cudaFree failed: %s\n", cuda_error_text(e).c_str());
    }
    allocations_.erase(it);
  }

  void copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    ensure_usable();
    CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    ensure_usable();
    CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
  }
  void synchronize() override {
    ensure_usable();
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  LaunchResult launch(const KernelImage& kernel, const LaunchConfig& config, void* const* args,
                      const RunOptions& options) override {
    ensure_usable();
    LaunchResult result;
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel.address));
    auto raised = max_dynamic_.find(kernel.address);
    result.rejected = check_launch_config(config, limits(), attr.sharedSizeBytes,
                                          raised == max_dynamic_.end() ? 0 : raised->second, kernel.name);
    if (!result.rejected.refused() && config.block.count() > static_cast<unsigned>(attr.maxThreadsPerBlock)) {
      result.rejected.why = LaunchRejection::Why::registers_limit_threads;
      result.rejected.kernel = kernel.name;
      result.rejected.requested = config.block.count();
      result.rejected.limit = static_cast<std::uint64_t>(attr.maxThreadsPerBlock);
      result.rejected.registers = static_cast<unsigned>(attr.numRegs);
    }
    if (result.rejected.refused()) return result;

    CUDA_CHECK(cudaEventRecord(start_));
    cudaError_t launched = start_kernel(kernel, config, args);
    if (launched == cudaSuccess) launched = cudaGetLastError();
    if (launched != cudaSuccess) {
      result.rejected.why = LaunchRejection::Why::launch_failed;
      result.rejected.kernel = kernel.name;
      result.rejected.cuda_error = cuda_error_text(launched);
      cudaGetLastError();  // launch errors are not sticky: clear it
      return result;
    }
    CUDA_CHECK(cudaEventRecord(stop_));
    cudaError_t done = wait_for(stop_, options.timeout_seconds);
    if (done == cudaErrorNotReady) {
      lost_ = true;
      result.device_lost = true;
      add_finding(result, FindingKind::timeout,
                  "the kernel did not finish within " + seconds_text(options.timeout_seconds) + " s");
      return result;
    }
    if (done != cudaSuccess) {
      lost_ = true;
      result.device_lost = true;
      add_finding(result, FindingKind::fault, cuda_error_text(done));  // CUDA's own words for the crash
      return result;
    }
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    result.stats.milliseconds = ms;
    result.stats.threads_run = config.grid.count() * config.block.count();
    check_canaries(result);
    return result;
  }

 private:
  void ensure_usable() const {
    if (lost_) throw Error("the GPU context was lost after an earlier fault; restart the program");
  }

  static cudaError_t wait_for(cudaEvent_t event, double timeout_seconds) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
    auto pause = std::chrono::microseconds(20);
    for (;;) {
      cudaError_t e = cudaEventQuery(event);
      if (e != cudaErrorNotReady) return e;
      if (std::chrono::steady_clock::now() > deadline) return cudaErrorNotReady;
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(2000));
    }
  }

  static void add_finding(LaunchResult& result, FindingKind kind, const std::string& detail) {
    Finding f;
    f.kind = kind;
    f.thread_known = false;
    f.detail = detail;
    result.add(f);
  }

  void check_canaries(LaunchResult& result) {
    std::vector<unsigned char> host;
    for (auto& [user, a] : allocations_) {
      if (a.canary == 0) continue;
      host.resize(a.canary);
      long long first_bad = 0;
      bool damaged = false;
      // Before the buffer: the damaged byte closest to the start matters most.
      CUDA_CHECK(cudaMemcpy(host.data(), a.base, a.canary, cudaMemcpyDeviceToHost));
      for (std::size_t i = a.canary; i-- > 0;)
        if (host[i] != kCanaryByte) {
          first_bad = static_cast<long long>(i) - static_cast<long long>(a.canary);
          damaged = true;
          break;
        }
      if (!damaged) {
        CUDA_CHECK(cudaMemcpy(host.data(), user + a.bytes, a.canary, cudaMemcpyDeviceToHost));
        for (std::size_t i = 0; i < a.canary; ++i)
          if (host[i] != kCanaryByte) {
            first_bad = static_cast<long long>(a.bytes + i);
            damaged = true;
            break;
          }
      }
      if (!damaged) continue;
      result.add(damaged_canary(a.name, a.element_size, first_bad, a.bytes));
      CUDA_CHECK(cudaMemset(a.base, kCanaryByte, a.canary));
      CUDA_CHECK(cudaMemset(user + a.bytes, kCanaryByte, a.canary));
    }
  }

  cudaDeviceProp props_{};
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::map<char*, Allocation> allocations_;
  std::map<const void*, std::size_t> max_dynamic_;  // kernels allowed more dynamic shared memory
  bool lost_ = false;
  bool canaries_ = true;
};

}  // namespace

bool built() { return true; }

GpuUnavailable availability() {
  static const GpuUnavailable facts = [] {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) return GpuUnavailable{GpuUnavailable::Why::no_device, ""};
    if (e == cudaErrorInsufficientDriver) return GpuUnavailable{GpuUnavailable::Why::no_driver, cudaGetErrorString(e)};
    if (e != cudaSuccess) return GpuUnavailable{GpuUnavailable::Why::runtime_error, cuda_error_text(e)};
    return GpuUnavailable{};
  }();
  return facts;
}

std::string unavailable_reason() {
  GpuUnavailable facts = availability();
  switch (facts.why) {
    case GpuUnavailable::Why::no_device: return "no CUDA device was found";
    case GpuUnavailable::Why::no_driver: return "no usable NVIDIA driver was found (" + facts.cuda_error + ")";
    case GpuUnavailable::Why::runtime_error: return "the CUDA runtime could not find a device: " + facts.cuda_error;
    default: return "";
  }
}

std::unique_ptr<Backend> make_gpu_backend(const BackendSettings& settings) {
  return std::make_unique<GpuBackend>(settings);
}

}  // namespace engine::gpu

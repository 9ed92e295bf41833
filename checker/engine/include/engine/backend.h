// One API over two backends: allocate device buffers, copy, launch, synchronize, and read
// what went wrong. Checkers, tests and benchmarks use only this.
#ifndef ENGINE_BACKEND_H_
#define ENGINE_BACKEND_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "engine/dim.h"
#include "engine/findings.h"
#include "engine/kernel_image.h"

namespace engine {

// An environment problem (no device, a failed CUDA call, out of memory), not a mistake in
// the kernel. Programs report it and exit with status 2.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class BackendKind { cpu, gpu };
enum class BackendChoice { automatic, cpu, gpu };

const char* to_string(BackendKind kind);
// "auto", "cpu" or "gpu"; throws Error for anything else.
BackendChoice parse_backend_choice(const std::string& text);

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  std::size_t dynamic_shared_bytes = 0;
  // Thread block clusters (sm_90): the grid is tiled by clusters of this shape, whose CTAs
  // run together and share distributed shared memory. (1,1,1): no clusters.
  Dim3 cluster;
};

// The order in which the CPU backend runs the threads of a block between two barriers.
// A correct kernel gives the same result in every order.
enum class ThreadOrder { forward, reverse, shuffled };
// Every order, in the order a checker's --all-orders runs them.
inline constexpr ThreadOrder kThreadOrders[] = {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::shuffled};
const char* to_string(ThreadOrder order);

struct RunOptions {
  double timeout_seconds = 10;
  // CPU: the limit is each block's, not the launch's: a launch stops when one of its blocks has
  // run timeout_seconds without finishing (an endless loop, a wait that never ends), however
  // long the grid takes. Whole programs launch so (their authors' grids can be large); the
  // puzzles' checkers limit the launch.
  bool limit_each_block = false;
  ThreadOrder order = ThreadOrder::forward;
  std::uint64_t shuffle_seed = 1;
  // CPU: how many findings of each kind to keep in full (the rest are only counted).
  unsigned findings_per_kind = 4;
  // CPU, instrumented kernels: group accesses per warp request and report bank conflicts
  // and sectors per source location (LaunchResult::profile).
  bool profile = false;
};

// The limits that both backends check before a launch, with CUDA's numbers (the CPU
// backend's are an H100's).
struct DeviceLimits {
  unsigned max_threads_per_block = 1024;
  Dim3 max_block{1024, 1024, 64};
  Dim3 max_grid{2147483647u, 65535u, 65535u};
  std::size_t max_shared_per_block = 48 * 1024;  // without an opt-in attribute
  std::size_t max_shared_optin = 227 * 1024;     // with cudaFuncAttributeMaxDynamicSharedMemorySize
  // Blocks per thread block cluster: 8 is the portable limit, which every sm_90 device allows
  // (more needs cudaFuncAttributeNonPortableClusterSizeAllowed, which the engine does not set).
  unsigned max_cluster_blocks = 8;
  unsigned compute_capability = 90;              // major * 10 + minor: 90 for Hopper (the CPU backend's)
  // Multiprocessors: what a persistent kernel sizes its grid by (one block each). The CPU
  // backend says 4, so that such grids loop over tiles at its small sizes too.
  unsigned multiprocessors = 132;
};

// A TMA tensor map (CUtensorMap): 128 bytes, 64-byte aligned, passed to kernels by value as a
// const __grid_constant__ CUtensorMap parameter.
struct TensorMap {
  alignas(64) unsigned char bytes[128] = {};
};

// What cuTensorMapEncodeTiled takes, with CUDA's enum values (cuda.h).
struct TensorMapRequest {
  unsigned data_type = 6;  // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  unsigned rank = 2;
  const void* global_address = nullptr;  // a device buffer
  std::uint64_t dims[5] = {};            // elements, dimension 0 contiguous
  std::uint64_t strides[4] = {};         // bytes, of dimensions 1 .. rank - 1
  std::uint32_t box[5] = {};
  std::uint32_t element_strides[5] = {1, 1, 1, 1, 1};
  unsigned interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual BackendKind kind() const = 0;
  // "NVIDIA H100 80GB HBM3 (sm_90)" or "CPU, 2 worker threads, instrumented kernels".
  virtual std::string description() const = 0;
  virtual DeviceLimits limits() const = 0;

  // Device memory. `name` is what the kernel calls the buffer ("a", "out"): findings use it.
  virtual void* allocate(std::size_t bytes, std::size_t element_size, const std::string& name) = 0;
  virtual void release(void* device_ptr) noexcept = 0;
  virtual void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes) = 0;
  virtual void copy_to_host(void* host_dst, const void* device_src, std::size_t bytes) = 0;

  // cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes): lets
  // later launches of this kernel ask for more than 48 KiB of dynamic shared memory.
  // Throws Error, in CUDA's words, above the device's opt-in limit.
  virtual void set_max_dynamic_shared_bytes(const KernelImage& kernel, std::size_t bytes) = 0;

  // cuTensorMapEncodeTiled for a buffer of this backend: the driver's map on the GPU, the
  // engine's (cuda_cpu/tensor_map.h) on the CPU. Throws Error, with the rule broken.
  virtual TensorMap encode_tensor_map(const TensorMapRequest& request) = 0;

  // Runs the kernel to completion (or to a fault, a finding that stops it, or the timeout).
  virtual LaunchResult launch(const KernelImage& kernel, const LaunchConfig& config,
                              void* const* args, const RunOptions& options) = 0;
  virtual void synchronize() = 0;
};

struct OpenedBackend {
  std::unique_ptr<Backend> backend;  // why this one: gpu_availability() says
};

struct BackendSettings {
  // GPU: canary zones around every buffer. Off under compute-sanitizer, whose memcheck
  // must see reads past a buffer's end land outside the allocation.
  bool gpu_canaries = true;
};

// Opens the chosen backend. `automatic` takes the GPU when one is usable, else the CPU.
// Throws Error when the GPU is asked for by name and cannot be used.
OpenedBackend open_backend(BackendChoice choice, const BackendSettings& settings = {});

bool gpu_backend_built();
// The full path of one of NVIDIA's tools ("compute-sanitizer", "ncu"), or "" when none is
// installed.
std::string cuda_tool_path(const std::string& name);
// Empty when a CUDA device can be used; otherwise why not, in one sentence.
std::string gpu_unavailable_reason();
// The same as a fact: why no CUDA device can be used (Why::none when one can).
struct GpuUnavailable {
  enum class Why { none, not_built, no_device, no_driver, runtime_error } why = Why::none;
  std::string cuda_error;  // no_driver, runtime_error: CUDA's name and text for the error
  bool usable() const { return why == Why::none; }
};
GpuUnavailable gpu_availability();
// "no_device": the reason's name, for tools.
const char* to_string(GpuUnavailable::Why why);

// Checks a launch configuration against the limits: the rule it breaks, if any.
// `static_shared` is what the kernel declares itself; `max_dynamic_shared` what
// cudaFuncSetAttribute allowed it (0: not called).
LaunchRejection check_launch_config(const LaunchConfig& config, const DeviceLimits& limits,
                                    std::size_t static_shared, std::size_t max_dynamic_shared,
                                    const std::string& kernel_name);
// A cudaFuncSetAttribute value beyond the device's limit (attribute_too_large), or none.
LaunchRejection check_max_dynamic_shared(std::size_t bytes, const DeviceLimits& limits, const std::string& kernel_name);

// Thrown by Backend::set_max_dynamic_shared_bytes when the device cannot allow that much: the
// launch that needs it is refused. what() is CUDA's error name; the facts are in `rejection`.
class LaunchRefused : public Error {
 public:
  explicit LaunchRefused(LaunchRejection r) : Error("invalid argument"), rejection(std::move(r)) {}
  LaunchRejection rejection;
};

}  // namespace engine

#endif  // ENGINE_BACKEND_H_

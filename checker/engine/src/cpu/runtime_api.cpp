// The CUDA runtime and cuBLAS calls a kernel file may make on the CPU backend
// (cuda_cpu/runtime_api.h, cuda_cpu/compat/cublas_v2.h), over the CPU backend's memory.
#include "cuda_cpu/runtime_api.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "cpu_backend.h"
#include "cuda_cpu/chevron.h"
#include "cuda_cpu/compat/cublas_v2.h"
#include "cuda_cpu/host_launch.h"
#include "cuda_cpu/runtime_hooks.h"
#include "device_arena.h"
#include "symbol_table.h"
#include "worker.h"
#include "engine/backend.h"

using engine::cpu::BufferRefused;
using engine::cpu::DeviceArena;

// Both from cuda_cpu/error_list.h, CUDA's codes with their names and texts.
const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
#define CUDA_CPU_ERROR(name, number, text) \
  case name: return text;
#include "cuda_cpu/error_list.h"
#undef CUDA_CPU_ERROR
  }
  return "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define CUDA_CPU_ERROR(name, number, text) \
  case name: return #name;
#include "cuda_cpu/error_list.h"
#undef CUDA_CPU_ERROR
  }
  return "unrecognized error code";
}

namespace {

// The error of the last launch from host code (the checkers' own launches report theirs
// themselves), per OS thread as CUDA keeps it. A kernel that crashed, timed out or failed an
// assert() leaves a sticky error, as it corrupts a GPU's context: every later synchronizing
// call and launch returns it.
thread_local cudaError_t last_error = cudaSuccess;
thread_local engine::LaunchResult last_launch;
cudaError_t sticky_error = cudaSuccess;
cuda_cpu::HostLaunchObserver launch_observer = nullptr;
cuda_cpu::NotModelledObserver not_modelled_observer = nullptr;
cuda_cpu::AllocationRefusedObserver allocation_observer = nullptr;

std::map<const void*, const engine::KernelImage*>& kernel_images() {
  static std::map<const void*, const engine::KernelImage*> images;
  return images;
}
std::mutex& kernel_images_lock() {
  static std::mutex lock;
  return lock;
}

// The refusal's error, or the error a kernel that ran leaves behind.
cudaError_t error_of(const engine::LaunchResult& r) {
  using W = engine::LaunchRejection::Why;
  switch (r.rejected.why) {
    case W::none: break;
    case W::empty_cluster:
    case W::cluster_too_large:
    case W::grid_not_whole_clusters: return cudaErrorInvalidClusterSize;
    // CUDA 13's runtime on an H100 answers a block of too many threads, a grid too large and
    // more shared memory than allowed with cudaErrorInvalidValue (measured), not with
    // cudaErrorInvalidConfiguration as older runtimes did.
    case W::too_many_threads:
    case W::grid_too_large:
    case W::static_shared_too_large:
    case W::dynamic_shared_too_large:
    case W::shared_too_large:
    case W::attribute_too_large:
    case W::no_extern_shared:
    case W::tensor_map_refused: return cudaErrorInvalidValue;
    default: return cudaErrorInvalidConfiguration;
  }
  if (r.total(engine::FindingKind::timeout)) return cudaErrorLaunchTimeout;
  if (r.total(engine::FindingKind::assertion)) return cudaErrorAssert;
  if (r.total(engine::FindingKind::fault)) return cudaErrorLaunchFailure;
  return cudaSuccess;
}

bool sticky(cudaError_t e) {
  return e == cudaErrorLaunchTimeout || e == cudaErrorAssert || e == cudaErrorLaunchFailure ||
         e == cudaErrorIllegalAddress;
}

cudaError_t host_launch(const engine::KernelImage& image, const engine::LaunchConfig& config, void** args,
                        const char* name, const char* file, unsigned line) {
  // A launch whose caller is itself a CUDA thread comes from device code: dynamic parallelism,
  // which the CPU backend does not model (isolated_launch.cpp stops the program with it).
  if (engine::cpu::current_thread != nullptr)
    cuda_cpu::not_modelled("a kernel launch from device code (dynamic parallelism)");
  static const std::unique_ptr<engine::Backend> backend = engine::cpu::make_cpu_backend();
  cuda_cpu::HostLaunch facts;
  facts.kernel = name;
  facts.file = file;
  facts.line = line;
  facts.grid = config.grid;
  facts.block = config.block;
  facts.cluster = config.cluster;
  facts.dynamic_shared_bytes = config.dynamic_shared_bytes;
  cudaError_t error = sticky_error;
  if (error == cudaSuccess) {
    try {
      engine::RunOptions options;
      options.limit_each_block = true;  // a program's grid may be as large as its authors made it
      last_launch = backend->launch(image, config, args, options);
      facts.ran = !last_launch.rejected.refused();
      error = error_of(last_launch);
    } catch (const engine::Error&) {
      last_launch = engine::LaunchResult{};
      error = cudaErrorLaunchFailure;
    }
    if (sticky(error)) sticky_error = error;
  } else {
    last_launch = engine::LaunchResult{};
  }
  facts.result = &last_launch;
  facts.cuda_error = error;
  facts.cuda_error_name = cudaGetErrorName(error);
  if (launch_observer) launch_observer(facts);
  return last_error = error;
}

// A whole program's kernels, as cudaLaunchKernel(Ex) describes them (cuda_cpu::run_as_program).
struct Described {
  std::string name;
  cuda_cpu::KernelType type;
};
struct ProgramStorage {
  bool on = false;
  void* (*dynamic_shared)() = nullptr;
  std::size_t bytes = 0;
  bool instrumented = false;
} program;
std::map<const void*, Described>& described() {
  static std::map<const void*, Described> kernels;
  return kernels;
}

const engine::KernelImage& site_image(const cuda_cpu::ChevronSite& site, const void* kernel,
                                      const cuda_cpu::KernelType& type);

cudaError_t host_launch(const void* kernel, const engine::LaunchConfig& config, void** args) {
  const engine::KernelImage* image = cuda_cpu::registered_kernel_image(kernel);
  if (image == nullptr && program.on) {
    std::map<const void*, Described>::iterator found;
    {
      std::lock_guard<std::mutex> hold(kernel_images_lock());
      found = described().find(kernel);
      if (found == described().end()) return last_error = cudaErrorInvalidDeviceFunction;
    }
    cuda_cpu::ChevronSite site{found->second.name.c_str(), "", 0, program.dynamic_shared, program.bytes,
                               program.instrumented};
    image = &site_image(site, kernel, found->second.type);
  }
  if (image == nullptr) return last_error = cudaErrorInvalidDeviceFunction;
  return host_launch(*image, config, args, image->name, "", 0);
}

// The image of a kernel that no build exports, made at its first launch from what the
// launch's site knows; kept for the program's life.
const engine::KernelImage& site_image(const cuda_cpu::ChevronSite& site, const void* kernel,
                                      const cuda_cpu::KernelType& type) {
  // Images keep the site's strings: names from the symbol table live in described().
  static std::map<const void*, std::unique_ptr<engine::KernelImage>> made;
  std::lock_guard<std::mutex> hold(kernel_images_lock());
  std::unique_ptr<engine::KernelImage>& image = made[kernel];
  if (!image) {
    image = std::make_unique<engine::KernelImage>();
    image->name = site.kernel;
    image->signature = type.signature;
    image->cpu_invoke = type.invoke;
    image->address = kernel;
    image->instrumented = site.instrumented;
    image->source = site.file;
    image->dynamic_shared = site.dynamic_shared;
    image->dynamic_shared_capacity = site.dynamic_shared_bytes;
  }
  return *image;
}

}  // namespace

bool cuda_cpu::register_kernel_image(const engine::KernelImage* image) {
  std::lock_guard<std::mutex> hold(kernel_images_lock());
  kernel_images()[image->address] = image;
  return true;
}

const engine::KernelImage* cuda_cpu::registered_kernel_image(const void* kernel) {
  std::lock_guard<std::mutex> hold(kernel_images_lock());
  auto found = kernel_images().find(kernel);
  return found == kernel_images().end() ? nullptr : found->second;
}

const engine::LaunchResult& cuda_cpu::last_host_launch() { return last_launch; }

void cuda_cpu::observe_host_launches(HostLaunchObserver observer) { launch_observer = observer; }

void cuda_cpu::run_as_program(void* (*dynamic_shared)(), std::size_t dynamic_shared_bytes, bool instrumented) {
  program = ProgramStorage{true, dynamic_shared, dynamic_shared_bytes, instrumented};
}

void cuda_cpu::describe_kernel(const void* kernel, const char* signature, void (*invoke)(void* const*)) {
  if (!program.on) return;
  std::lock_guard<std::mutex> hold(kernel_images_lock());
  if (described().count(kernel)) return;
  std::string name = engine::cpu::SymbolTable::self().function_at(reinterpret_cast<std::uintptr_t>(kernel));
  described()[kernel] = Described{name.empty() ? "a kernel" : name, KernelType{signature, invoke}};
}
void cuda_cpu::observe_not_modelled(NotModelledObserver observer) { not_modelled_observer = observer; }

void cuda_cpu::not_modelled(const char* call) {
  if (not_modelled_observer) {
    not_modelled_observer(call);
  } else {
    std::fprintf(stderr, "%s is not modelled by the CPU backend: the program stops here.\n", call);
  }
  std::fflush(nullptr);
  std::_Exit(cuda_cpu::kNotModelledStatus);
}

cudaError_t cuda_cpu::launch_at(const ChevronSite& site, const void* kernel, const KernelType& type,
                                const ChevronConfig& c, void** args) {
  engine::LaunchConfig config;
  config.grid = engine::Dim3(c.grid.x, c.grid.y, c.grid.z);
  config.block = engine::Dim3(c.block.x, c.block.y, c.block.z);
  config.dynamic_shared_bytes = c.shared;
  const engine::KernelImage* image = registered_kernel_image(kernel);
  return host_launch(image ? *image : site_image(site, kernel, type), config, args, site.kernel, site.file,
                     site.line);
}

cudaError_t cuda_cpu_sticky_error() { return sticky_error; }

cudaError_t cudaGetLastError() {
  cudaError_t e = last_error;
  last_error = sticky_error;
  return e;
}
cudaError_t cudaPeekAtLastError() { return last_error; }

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* kernel, void** args) {
  if (config == nullptr || kernel == nullptr || (config->numAttrs > 0 && config->attrs == nullptr))
    return last_error = cudaErrorInvalidValue;
  engine::LaunchConfig c;
  c.grid = engine::Dim3(config->gridDim.x, config->gridDim.y, config->gridDim.z);
  c.block = engine::Dim3(config->blockDim.x, config->blockDim.y, config->blockDim.z);
  c.dynamic_shared_bytes = config->dynamicSmemBytes;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute& a = config->attrs[i];
    if (a.id == cudaLaunchAttributeIgnore) continue;
    if (a.id != cudaLaunchAttributeClusterDimension) return last_error = cudaErrorNotSupported;
    c.cluster = engine::Dim3(a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z);
  }
  return host_launch(kernel, c, args);
}

cudaError_t cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args, std::size_t dynamic_shared_bytes,
                             cudaStream_t) {
  if (kernel == nullptr) return last_error = cudaErrorInvalidValue;
  engine::LaunchConfig c;
  c.grid = engine::Dim3(grid.x, grid.y, grid.z);
  c.block = engine::Dim3(block.x, block.y, block.z);
  c.dynamic_shared_bytes = dynamic_shared_bytes;
  return host_launch(kernel, c, args);
}
// Launches are synchronous here: what is left to report is a sticky error.
cudaError_t cudaDeviceSynchronize() { return sticky_error; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return sticky_error; }

cudaError_t(cudaMalloc)(void** pointer, std::size_t bytes) {
  return cuda_cpu_malloc(pointer, bytes, 1, nullptr, false);
}

cudaError_t cuda_cpu_malloc(void** pointer, std::size_t bytes, std::size_t element_size, const char* expression,
                            bool managed) {
  if (pointer == nullptr) return cudaErrorInvalidValue;
  // "&d_out" or "(void**)&d_out" names d_out.
  std::string name = expression ? expression : "";
  if (!name.empty() && name[0] == '(') {
    std::size_t close = name.find(')');
    name = close == std::string::npos ? name : name.substr(close + 1);
  }
  name.erase(0, name.find_first_not_of(" \t&"));
  if (name.empty()) name = managed ? "a cudaMallocManaged buffer" : "a cudaMalloc buffer";
  if (element_size == 0 || bytes % element_size != 0) element_size = 1;
  try {
    *pointer = DeviceArena::instance().allocate(bytes, element_size, name);
    return cudaSuccess;
  } catch (const BufferRefused& refused) {
    using Limit = cuda_cpu::AllocationRefusal::Limit;
    const Limit limit = refused.limit == BufferRefused::Limit::buffer_size    ? Limit::buffer_size
                        : refused.limit == BufferRefused::Limit::buffer_count ? Limit::buffer_count
                                                                              : Limit::host_memory;
    if (allocation_observer) allocation_observer(cuda_cpu::AllocationRefusal{limit, bytes, refused.most});
    return cudaErrorMemoryAllocation;
  } catch (const engine::Error&) {
    return cudaErrorMemoryAllocation;
  }
}

void cuda_cpu::observe_allocation_refusals(AllocationRefusedObserver observer) { allocation_observer = observer; }

cudaError_t cudaFree(void* pointer) {
  DeviceArena::instance().release(pointer);
  return cudaSuccess;
}

// Device and host memory are one here; a device pointer is checked where the arena can tell:
// the bytes must lie inside a live buffer, as CUDA requires.
static bool device_range_ok(const void* p, std::size_t bytes) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  const DeviceArena& arena = DeviceArena::instance();
  if (!arena.contains(a)) return p != nullptr || bytes == 0;
  return arena.slot_of(a).live && a + bytes <= arena.slot_of(a).end;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
  if (sticky_error != cudaSuccess) return sticky_error;
  if (!device_range_ok(dst, bytes) || !device_range_ok(src, bytes)) return cudaErrorInvalidValue;
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  if (sticky_error != cudaSuccess) return sticky_error;
  if (!device_range_ok(pointer, bytes)) return cudaErrorInvalidValue;
  std::memset(pointer, value, bytes);
  return cudaSuccess;
}

cudaError_t cuda_cpu_func_set_attribute(const void* kernel, cudaFuncAttribute attribute, int value) {
  if (attribute == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;  // a hint
  if (attribute != cudaFuncAttributeMaxDynamicSharedMemorySize) return cudaErrorInvalidValue;
  return cuda_cpu::set_max_dynamic_shared(kernel, value) ? cudaSuccess : cudaErrorInvalidValue;
}

struct cublasContext {};

cublasStatus_t cublasCreate(cublasHandle_t* handle) {
  if (handle == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new (std::nothrow) cublasContext;
  return *handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t) {
  return handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

const char* cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "the operation completed successfully";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
  }
  return "unknown status";
}

// Column-major, as cuBLAS: C = alpha · op(A) · op(B) + beta · C.
cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const float* alpha, const float* a, int lda, const float* b, int ldb,
                           const float* beta, float* c, int ldc) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || k < 0 || alpha == nullptr || beta == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  auto at = [&](int i, int p) { return transa == CUBLAS_OP_N ? a[i + std::size_t(p) * lda] : a[p + std::size_t(i) * lda]; };
  auto bt = [&](int p, int j) { return transb == CUBLAS_OP_N ? b[p + std::size_t(j) * ldb] : b[j + std::size_t(p) * ldb]; };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float sum = 0;
      for (int p = 0; p < k; ++p) sum += at(i, p) * bt(p, j);
      float& out = c[i + std::size_t(j) * ldc];
      out = *alpha * sum + (*beta == 0.0f ? 0.0f : *beta * out);
    }
  return CUBLAS_STATUS_SUCCESS;
}

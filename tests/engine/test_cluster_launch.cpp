// Thread block clusters: the launch rules both backends check, a launch in clusters of every
// shape (each block sees its rank), and host code's cudaLaunchKernelEx on the CPU backend, which
// hands the cluster's shape to the launch.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "backend_fixture.h"
#include "cluster_kernels_kernels.h"
#include "cuda_cpu/host_launch.h"
#include "cuda_cpu/runtime_api.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "engine_kernels_kernels.h"

using engine::DeviceArray;
using engine::Dim3;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;
using Why = engine::LaunchRejection::Why;

namespace {

LaunchConfig in_clusters(Dim3 grid, Dim3 block, Dim3 cluster) {
  LaunchConfig c{grid, block};
  c.cluster = cluster;
  return c;
}

}  // namespace

BACKEND_TEST("a cluster that does not tile the grid, is empty, or holds more than 8 blocks is refused with its numbers") {
  auto record = engine::Kernel<void(unsigned*)>(kernels::engine_kernels::cpu_record_coordinates(),
                                                kernels::engine_kernels::gpu_record_coordinates());
  DeviceArray<unsigned> out(backend, 12 * 64 * 32, "out");
  CHECK(backend.limits().max_cluster_blocks == 8);

  LaunchResult r = engine::launch(backend, record, in_clusters(Dim3(3, 2), Dim3(32), Dim3(2, 1)), RunOptions{}, out.get());
  CHECK(r.rejected.why == Why::grid_not_whole_clusters);
  CHECK(r.rejected.shape == Dim3(3, 2));
  CHECK(r.rejected.cluster == Dim3(2, 1));
  CHECK(r.rejected.kernel == "record_coordinates");
  r = engine::launch(backend, record, in_clusters(Dim3(4, 3), Dim3(32), Dim3(2, 2)), RunOptions{}, out.get());
  CHECK(r.rejected.why == Why::grid_not_whole_clusters);  // y: 3 is no multiple of 2
  CHECK(r.rejected.cluster == Dim3(2, 2));
  r = engine::launch(backend, record, in_clusters(Dim3(4), Dim3(32), Dim3(0, 1)), RunOptions{}, out.get());
  CHECK(r.rejected.why == Why::empty_cluster);
  CHECK(r.rejected.shape == Dim3(0, 1));
  r = engine::launch(backend, record, in_clusters(Dim3(16, 2), Dim3(32), Dim3(8, 2)), RunOptions{}, out.get());
  CHECK(r.rejected.why == Why::cluster_too_large);
  CHECK(r.rejected.shape == Dim3(8, 2));
  CHECK(r.rejected.requested == 16);
  CHECK(r.rejected.limit == 8);
  CHECK(std::string(engine::to_string(Why::grid_not_whole_clusters)) == "grid_not_whole_clusters");
}

TEST_CASE("cpu: a grid that clusters tile runs every block") {
  auto backend = test_support::backend_or_skip(engine::BackendKind::cpu);
  if (!backend) return;
  auto record = engine::Kernel<void(unsigned*)>(kernels::engine_kernels::cpu_record_coordinates(),
                                                kernels::engine_kernels::gpu_record_coordinates());
  DeviceArray<unsigned> out(*backend, 12 * 8 * 2, "out");
  LaunchResult r = engine::launch(*backend, record, in_clusters(Dim3(4, 2), Dim3(2), Dim3(2, 2)), RunOptions{}, out.get());
  CHECK(r.clean());
  std::vector<unsigned> o = out.download();
  for (unsigned linear = 0; linear < 16; ++linear) CHECK(o[12 * linear + 3] == (linear / 2) % 4);  // blockIdx.x
}

BACKEND_TEST("a kernel launched in clusters of any shape sees its rank in the cluster and the cluster's size") {
  if (backend.limits().compute_capability < 90) {
    test_support::note_skipped("thread block clusters need a GPU of compute capability 9.0 or newer");
    return;
  }
  auto ranks = engine::Kernel<void(unsigned*)>(kernels::cluster_kernels::cpu_cluster_ranks(),
                                               kernels::cluster_kernels::gpu_cluster_ranks());
  struct Shape {
    Dim3 grid, cluster;
  };
  for (const Shape& s : {Shape{Dim3(8), Dim3(2)}, Shape{Dim3(4, 6), Dim3(2, 2)}, Shape{Dim3(2, 2, 2), Dim3(1, 2, 2)},
                         Shape{Dim3(6), Dim3(1)}}) {
    CAPTURE(s.grid.str(true));
    CAPTURE(s.cluster.str(true));
    const unsigned blocks = static_cast<unsigned>(s.grid.count());
    DeviceArray<unsigned> out(backend, 2 * blocks, "out");
    out.upload(std::vector<unsigned>(2 * blocks, 12345u));
    LaunchResult r = engine::launch(backend, ranks, in_clusters(s.grid, Dim3(64), s.cluster), RunOptions{}, out.get());
    REQUIRE(r.clean());
    std::vector<unsigned> o = out.download();
    for (unsigned b = 0; b < blocks; ++b) {
      Dim3 at = s.grid.unlinear(b);
      // %cluster_ctarank: the block's place in its cluster, x fastest.
      Dim3 in_cluster(at.x % s.cluster.x, at.y % s.cluster.y, at.z % s.cluster.z);
      CAPTURE(b);
      CHECK(o[2 * b] == s.cluster.linear(in_cluster));
      CHECK(o[2 * b + 1] == s.cluster.count());
    }
  }
}

TEST_CASE("cpu: host code's cudaLaunchKernelEx runs the kernel, with the cluster shape it names in the launch") {
  auto backend = test_support::backend_or_skip(engine::BackendKind::cpu);
  if (!backend) return;
  using Reverse = void (*)(const float*, float*, int);
  auto kernel = reinterpret_cast<Reverse>(const_cast<void*>(kernels::engine_kernels::cpu_reverse_with_dynamic_shared().address));
  REQUIRE(kernels::engine_kernels::cpu_reverse_with_dynamic_shared().address != nullptr);
  const int n = 6;
  DeviceArray<float> in(*backend, n, "in");
  DeviceArray<float> out(*backend, n + 1, "out");
  in.upload({1, 2, 3, 4, 5, 6});

  cudaLaunchAttribute cluster[1] = {};
  cluster[0].id = cudaLaunchAttributeClusterDimension;
  cluster[0].val.clusterDim.x = 2;
  cluster[0].val.clusterDim.y = 1;
  cluster[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(4);
  config.blockDim = dim3(8);
  config.dynamicSmemBytes = n * sizeof(float);  // the kernel's extern __shared__ array
  config.attrs = cluster;
  config.numAttrs = 1;
  // int argument from a long, converted to the kernel's parameter type as CUDA's template does.
  CHECK(cudaLaunchKernelEx(&config, kernel, in.get(), out.get(), 6L) == cudaSuccess);
  CHECK(cuda_cpu::last_host_launch().clean());
  CHECK(out.download() == std::vector<float>{6, 5, 4, 3, 2, 1, 1});
  CHECK(cudaGetLastError() == cudaSuccess);

  config.gridDim = dim3(3);  // not a whole number of clusters of 2
  CHECK(cudaLaunchKernelEx(&config, kernel, in.get(), out.get(), n) == cudaErrorInvalidClusterSize);
  const engine::LaunchRejection& refused = cuda_cpu::last_host_launch().rejected;
  CHECK(refused.why == Why::grid_not_whole_clusters);
  CHECK(refused.shape == Dim3(3));
  CHECK(refused.cluster == Dim3(2));
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidClusterSize);
  CHECK(cudaGetLastError() == cudaErrorInvalidClusterSize);
  CHECK(cudaGetLastError() == cudaSuccess);  // read once, then cleared

  cluster[0].val.clusterDim.x = 16;
  config.gridDim = dim3(16);
  CHECK(cudaLaunchKernelEx(&config, kernel, in.get(), out.get(), n) == cudaErrorInvalidClusterSize);
  CHECK(cuda_cpu::last_host_launch().rejected.why == Why::cluster_too_large);

  cluster[0].id = cudaLaunchAttributePriority;  // an attribute the CPU backend does not know
  CHECK(cudaLaunchKernelEx(&config, kernel, in.get(), out.get(), n) == cudaErrorNotSupported);
  cudaGetLastError();

  // Without clusters, through the C API and cudaLaunchKernel: the same kernel, the same result.
  out.upload(std::vector<float>(n + 1, 0.f));
  config.numAttrs = 0;
  config.gridDim = dim3(1);
  const float* in_arg = in.get();
  float* out_arg = out.get();
  int n_arg = n;
  void* args[] = {&in_arg, &out_arg, &n_arg};
  CHECK(cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(kernel), args) == cudaSuccess);
  CHECK(out.download() == std::vector<float>{6, 5, 4, 3, 2, 1, 1});
  out.upload(std::vector<float>(n + 1, 0.f));
  CHECK(cudaLaunchKernel(kernel, dim3(1), dim3(8), args, n * sizeof(float)) == cudaSuccess);
  CHECK(out.download() == std::vector<float>{6, 5, 4, 3, 2, 1, 1});
}

TEST_CASE("cpu: cudaLaunchKernelEx of a function that no build exports as a kernel is refused") {
  auto backend = test_support::backend_or_skip(engine::BackendKind::cpu);
  if (!backend) return;
  struct NotAKernel {
    static void run(int) {}
  };
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(1);
  CHECK(cudaLaunchKernelEx(&config, &NotAKernel::run, 1) == cudaErrorInvalidDeviceFunction);
  CHECK(cudaGetLastError() == cudaErrorInvalidDeviceFunction);
  CHECK(cudaLaunchKernelEx(nullptr, &NotAKernel::run, 1) == cudaErrorInvalidValue);
  cudaGetLastError();
}

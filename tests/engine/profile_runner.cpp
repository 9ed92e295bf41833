// Launches each kernel of profile_kernels.cu once on the GPU, for Nsight Compute to measure
// (tests/engine/test_profile.cpp compares its counts with the CPU backend's).
#include <cstdio>
#include <vector>

#include "engine/device_array.h"
#include "profile_kernels_kernels.h"

namespace p = kernels::profile_kernels;

int main() {
  try {
    auto gpu = engine::open_backend(engine::BackendChoice::gpu, engine::BackendSettings{false}).backend;
    engine::DeviceArray<float> in(*gpu, 32 * 32 * 4, "in"), out(*gpu, 32, "out");
    in.upload(std::vector<float>(32 * 32 * 4, 1.0f));
    const engine::KernelImage* output_only[] = {&p::gpu_shared_row(), &p::gpu_shared_column(),
                                                &p::gpu_shared_column_padded(), &p::gpu_shared_column_swizzled(),
                                                &p::gpu_shared_broadcast(), &p::gpu_shared_float4_row(),
                                                &p::gpu_shared_float4_column(), &p::gpu_ldmatrix_rows_64b(),
                                                &p::gpu_ldmatrix_rows_64b_swizzled(), &p::gpu_ldmatrix_rows_128b()};
    const engine::KernelImage* with_input[] = {&p::gpu_global_coalesced(), &p::gpu_global_strided(),
                                               &p::gpu_global_float4()};
    void* i = in.get();
    void* o = out.get();
    void* out_args[] = {&o, nullptr};
    void* in_args[] = {&i, &o, nullptr};
    for (const engine::KernelImage* k : output_only) {
      engine::LaunchResult r = gpu->launch(*k, engine::LaunchConfig{1, 32}, out_args, engine::RunOptions{});
      if (!r.clean()) return std::fprintf(stderr, "%s failed\n", k->name), 1;
    }
    for (const engine::KernelImage* k : with_input) {
      engine::LaunchResult r = gpu->launch(*k, engine::LaunchConfig{1, 32}, in_args, engine::RunOptions{});
      if (!r.clean()) return std::fprintf(stderr, "%s failed\n", k->name), 1;
    }
    return 0;
  } catch (const engine::Error& e) {
    std::fprintf(stderr, "profile_runner: %s\n", e.what());
    return 2;
  }
}

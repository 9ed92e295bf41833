// The memory profile (bank conflicts, wavefronts, sectors per request) on kernels whose
// counts are known by hand (profile_kernels.cu), and the model's rules on their own.
#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <sstream>
#include <vector>

#include "backend_fixture.h"
#include "cuda_cpu/vector_types.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "engine/ncu_csv.h"
#include "memory_profile.h"
#include "process.h"
#include "profile_kernels_kernels.h"

namespace p = kernels::profile_kernels;

namespace {

struct Expected {
  const char* kernel;
  bool shared;
  std::uint64_t requests, wavefronts, ideal;  // shared loads
  unsigned worst_ways;
  std::uint64_t sectors, ideal_sectors;       // global loads
};

// The one load of each kernel: shared or global.
const engine::AccessProfile* measured_load(const engine::LaunchResult& r, bool shared) {
  const engine::AccessProfile* found = nullptr;
  for (const engine::AccessProfile& a : r.profile)
    if (a.shared == shared && !a.write) {
      REQUIRE_MESSAGE(found == nullptr, "more than one load line");
      found = &a;
    }
  return found;
}

engine::LaunchResult run_profiled(engine::Backend& be, const engine::KernelImage& image, void* in, void* out) {
  engine::RunOptions options;
  options.profile = true;
  void* args[] = {&in, &out, nullptr};
  void* out_only[] = {&out, nullptr};
  return be.launch(image, engine::LaunchConfig{1, 32}, in ? args : out_only, options);
}

}  // namespace

TEST_CASE("cpu: bank conflicts and sectors per request of one warp's accesses match the hardware's rules") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  engine::DeviceArray<float> in(*be, 32 * 32 * 4, "in"), out(*be, 32, "out");
  struct Case {
    const engine::KernelImage& image;
    bool takes_input;
    Expected e;
  };
  const Case cases[] = {
      {p::cpu_shared_row(), false, {"shared_row", true, 1, 1, 1, 1, 0, 0}},
      {p::cpu_shared_column(), false, {"shared_column", true, 1, 32, 1, 32, 0, 0}},
      {p::cpu_shared_column_padded(), false, {"shared_column_padded", true, 1, 1, 1, 1, 0, 0}},
      {p::cpu_shared_column_swizzled(), false, {"shared_column_swizzled", true, 1, 1, 1, 1, 0, 0}},
      {p::cpu_shared_broadcast(), false, {"shared_broadcast", true, 1, 1, 1, 1, 0, 0}},
      {p::cpu_shared_float4_row(), false, {"shared_float4_row", true, 1, 4, 4, 1, 0, 0}},
      {p::cpu_shared_float4_column(), false, {"shared_float4_column", true, 1, 32, 4, 8, 0, 0}},
      {p::cpu_global_coalesced(), true, {"global_coalesced", false, 1, 0, 0, 0, 4, 4}},
      {p::cpu_global_strided(), true, {"global_strided", false, 1, 0, 0, 0, 32, 4}},
      {p::cpu_global_float4(), true, {"global_float4", false, 1, 0, 0, 0, 16, 16}},
      // ldmatrix.x4: four phases of 8 rows.
      {p::cpu_ldmatrix_rows_64b(), false, {"ldmatrix_rows_64b", true, 1, 16, 4, 4, 0, 0}},
      {p::cpu_ldmatrix_rows_64b_swizzled(), false, {"ldmatrix_rows_64b_swizzled", true, 1, 4, 4, 1, 0, 0}},
      {p::cpu_ldmatrix_rows_128b(), false, {"ldmatrix_rows_128b", true, 1, 32, 4, 8, 0, 0}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.e.kernel);
    engine::LaunchResult r = run_profiled(*be, c.image, c.takes_input ? in.get() : nullptr, out.get());
    REQUIRE(r.clean());
    const engine::AccessProfile* load = measured_load(r, c.e.shared);
    REQUIRE(load);
    CHECK(load->at.file.find("profile_kernels.cu") != std::string::npos);
    CHECK(load->requests == c.e.requests);
    CHECK(load->accesses == 32);
    if (c.e.shared) {
      CHECK(load->wavefronts == c.e.wavefronts);
      CHECK(load->ideal_wavefronts == c.e.ideal);
      CHECK(load->worst_ways == c.e.worst_ways);
    } else {
      CHECK(load->sectors == c.e.sectors);
      CHECK(load->ideal_sectors == c.e.ideal_sectors);
    }
  }
}

TEST_CASE("cpu: without the profile option no access is logged") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  engine::DeviceArray<float> out(*be, 32, "out");
  void* o = out.get();
  void* args[] = {&o, nullptr};
  engine::LaunchResult r = be->launch(p::cpu_shared_column(), engine::LaunchConfig{1, 32}, args, engine::RunOptions{});
  CHECK(r.clean());
  CHECK(r.profile.empty());
}

TEST_CASE("bank model: 64-bit loads merge half-warps when lanes pair up, stores never do") {
  test_support::note_started();
  using Model = engine::cpu::MemoryProfile;
  Model::Lane lanes[32];
  // Lanes 2i and 2i+1 read the same 8 bytes: 16 distinct doubles, 128 bytes, one phase.
  for (unsigned l = 0; l < 32; ++l) lanes[l] = {true, 0x1000 + 8 * (l / 2), 8};
  CHECK(Model::shared_request(lanes, false).wavefronts == 1);
  CHECK(Model::shared_request(lanes, true).wavefronts == 2);
  // Every lane its own double, contiguous: two half-warp phases, no conflict.
  for (unsigned l = 0; l < 32; ++l) lanes[l] = {true, 0x1000 + 8 * l, 8};
  Model::SharedCost c = Model::shared_request(lanes, false);
  CHECK(c.wavefronts == 2);
  CHECK(c.ideal == 2);
  CHECK(c.worst_ways == 1);
  // Inactive lanes cost nothing: only lanes 0-7 of a float4 row read.
  for (unsigned l = 0; l < 32; ++l) lanes[l] = {l < 8, 0x1000 + 16 * l, 16};
  c = Model::shared_request(lanes, false);
  CHECK(c.wavefronts == 1);
  CHECK(c.ideal == 1);
}

// --- The same counts from the GPU's own counters --------------------------------------------

TEST_CASE("ncu's CSV report reads back per launch, thousands separators and all") {
  test_support::note_started();
  const char* report =
      "==PROF== Connected to process 4242\n"
      "Puzzle 7: this line is the program's own output\n"
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"4242\",\"shared_column(float *)\",\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\",\"\",\"1,024\"\n"
      "\"0\",\"4242\",\"shared_column(float *)\",\"smsp__sass_inst_executed_op_shared_ld.sum\",\"inst\",\"32\"\n"
      "\"1\",\"4242\",\"void tiled<(int)16>(const float *, int)\",\"smsp__sass_inst_executed_op_shared_ld.sum\",\"\",\"7\"\n";
  std::vector<engine::NcuLaunch> launches = engine::read_ncu_csv(report);
  REQUIRE(launches.size() == 2);
  const engine::NcuLaunch* column = engine::find_launch(launches, "shared_column");
  REQUIRE(column);
  CHECK(column->value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 1024);
  CHECK(column->value("smsp__sass_inst_executed_op_shared_ld.sum") == 32);
  CHECK(column->value("no_such_metric") == -1);
  const engine::NcuLaunch* tiled = engine::find_launch(launches, "tiled");
  REQUIRE(tiled);
  CHECK(tiled->value("smsp__sass_inst_executed_op_shared_ld.sum") == 7);
  CHECK(engine::find_launch(launches, "shared") == nullptr);
}

TEST_CASE("gpu: the CPU backend's bank conflicts and sectors agree with Nsight Compute's counters" *
          doctest::test_suite("gpu")) {
  if (!test_support::gpu_or_skip()) return;
  std::string ncu = engine::cuda_tool_path("ncu");
  if (ncu.empty()) {
    test_support::note_skipped("Nsight Compute (ncu) is not installed here: it comes with the CUDA toolkit, not a Debian package");
    return;
  }
  const char* metrics =
      "smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,"
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__sass_inst_executed_op_ldsm.sum";
  auto r = test_support::run_program(ncu, {"--csv", "--metrics", metrics, "--cache-control", "none",
                                           std::string(TEST_PROGRAM_DIR) + "/profile_runner"});
  INFO(r.output);
  REQUIRE(r.output.find("==ERROR==") == std::string::npos);
  std::vector<engine::NcuLaunch> measured = engine::read_ncu_csv(r.output);
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  engine::DeviceArray<float> in(*be, 32 * 32 * 4, "in"), out(*be, 32, "out");
  struct Kernel {
    const char* name;
    const engine::KernelImage& image;
    bool takes_input, shared;
  };
  const Kernel kernels[] = {
      {"shared_row", p::cpu_shared_row(), false, true},
      {"shared_column", p::cpu_shared_column(), false, true},
      {"shared_column_padded", p::cpu_shared_column_padded(), false, true},
      {"shared_column_swizzled", p::cpu_shared_column_swizzled(), false, true},
      {"shared_broadcast", p::cpu_shared_broadcast(), false, true},
      {"shared_float4_row", p::cpu_shared_float4_row(), false, true},
      {"shared_float4_column", p::cpu_shared_float4_column(), false, true},
      {"global_coalesced", p::cpu_global_coalesced(), true, false},
      {"global_strided", p::cpu_global_strided(), true, false},
      {"global_float4", p::cpu_global_float4(), true, false},
      {"ldmatrix_rows_64b", p::cpu_ldmatrix_rows_64b(), false, true},
      {"ldmatrix_rows_64b_swizzled", p::cpu_ldmatrix_rows_64b_swizzled(), false, true},
      {"ldmatrix_rows_128b", p::cpu_ldmatrix_rows_128b(), false, true},
  };
  for (const Kernel& k : kernels) {
    CAPTURE(k.name);
    const engine::NcuLaunch* gpu = engine::find_launch(measured, k.name);
    REQUIRE(gpu);
    engine::LaunchResult cpu = run_profiled(*be, k.image, k.takes_input ? in.get() : nullptr, out.get());
    const engine::AccessProfile* load = measured_load(cpu, k.shared);
    REQUIRE(load);
    // Printed for docs/dev/profile.md: both sides of the comparison.
    bool ldsm = std::string(k.name).rfind("ldmatrix", 0) == 0;
    if (ldsm) {
      // ldmatrix counts as an instruction of its own, and its wavefronts with the shared loads'.
      MESSAGE(k.name << ": CPU requests " << load->requests << ", wavefronts " << load->wavefronts << "; ncu ldmatrix "
                     << gpu->value("smsp__sass_inst_executed_op_ldsm.sum") << ", wavefronts "
                     << gpu->value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"));
      CHECK(double(load->requests) == gpu->value("smsp__sass_inst_executed_op_ldsm.sum"));
      CHECK(double(load->wavefronts) == gpu->value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"));
    } else if (k.shared) {
      MESSAGE(k.name << ": CPU requests " << load->requests << ", wavefronts " << load->wavefronts << " (ideal "
                     << load->ideal_wavefronts << "); ncu requests "
                     << gpu->value("smsp__sass_inst_executed_op_shared_ld.sum") << ", wavefronts "
                     << gpu->value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") << ", bank conflicts "
                     << gpu->value("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"));
      CHECK(double(load->requests) == gpu->value("smsp__sass_inst_executed_op_shared_ld.sum"));
      CHECK(double(load->wavefronts) == gpu->value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"));
    } else {
      MESSAGE(k.name << ": CPU requests " << load->requests << ", sectors " << load->sectors << "; ncu requests "
                     << gpu->value("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") << ", sectors "
                     << gpu->value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
      CHECK(double(load->requests) == gpu->value("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
      CHECK(double(load->sectors) == gpu->value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    }
  }
}

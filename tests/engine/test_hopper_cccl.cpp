// Hopper kernels written with libcu++'s cuda::ptx and cuda::barrier (hopper_cccl_kernels.cu) on
// both backends: a tensor copy completing a cuda::barrier lands as each swizzle lays it out and
// is stored back; a producer/consumer ring on cuda::ptx mbarriers hands every round over. On the
// CPU backend, the bindings are the engine's own inline PTX, so its findings apply to them:
// a wrong transaction byte count and a wait on the wrong parity (hopper_cccl_misuse_kernels.cu)
// are deadlocks, at the kernel's line.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "hopper_test_support.h"
#include "cuda_cpu/compat/cuda.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "hopper_cccl_kernels_kernels.h"
#include "hopper_cccl_misuse_kernels_kernels.h"

using engine::DeviceArray;
using engine::FindingKind;
using engine::LaunchConfig;
using engine::LaunchResult;
using engine::RunOptions;

namespace hc = kernels::hopper_cccl_kernels;
namespace hcm = kernels::hopper_cccl_misuse_kernels;

using hopper_test::describe;
using hopper_test::first_of;
using hopper_test::hopper_or_skip;
using hopper_test::line_of;
using hopper_test::require_clean;
using hopper_test::as_cu;
using hopper_test::request_for;

namespace {

// CU_TENSOR_MAP_SWIZZLE_{NONE,32B,64B,128B} = 0..3; their spans in bytes.
const unsigned kSwizzleBytes[4] = {0, 32, 64, 128};

// Where element (row, col) of a box with `row_bytes` per row lands for a swizzle of `span`
// bytes (the PTX ISA's swizzle modes, as measured on an H100 in test_hopper.cpp).
std::size_t landed_at(unsigned row, unsigned col, unsigned row_bytes, unsigned span) {
  std::size_t offset = std::size_t(row) * row_bytes + col * 2;
  if (span == 0) return offset;
  std::size_t chunks = span / 16 - 1;
  return offset ^ (((offset >> 7) & chunks) << 4);
}

}  // namespace

BACKEND_TEST("cuda::ptx + cuda::barrier: a tensor copy lands as each swizzle lays it out and is stored back") {
  if (!hopper_or_skip(backend)) return;
  constexpr unsigned kWidth = 104, kHeight = 70, kBoxRows = 32;
  std::vector<std::uint16_t> tensor(kWidth * kHeight);
  for (std::size_t i = 0; i < tensor.size(); ++i) tensor[i] = static_cast<std::uint16_t>(1 + i);  // never 0
  DeviceArray<std::uint16_t> global(backend, tensor.size(), "tensor");
  global.upload(tensor);
  engine::Kernel<void(CUtensorMap, CUtensorMap, int, int, int, std::uint16_t*)> box(hc::cpu_cccl_tma_box(),
                                                                                      hc::gpu_cccl_tma_box());
  const int corners[2][2] = {{8, 4}, {72, 50}};  // inside, and across the right and bottom edges
  for (unsigned swizzle = 0; swizzle < 4; ++swizzle) {
    const unsigned box_cols = swizzle == 0 ? 64 : kSwizzleBytes[swizzle] / 2, bytes = box_cols * 2 * kBoxRows;
    for (const auto& corner : corners) {
      CAPTURE(swizzle);
      CAPTURE(corner[0]);
      CAPTURE(corner[1]);
      DeviceArray<std::uint16_t> stored(backend, tensor.size(), "stored");
      stored.upload(std::vector<std::uint16_t>(tensor.size(), 0));
      CUtensorMap in_map = as_cu(backend.encode_tensor_map(request_for(global.get(), kWidth, kHeight, box_cols,
                                                                       kBoxRows, swizzle)));
      CUtensorMap out_map = as_cu(backend.encode_tensor_map(request_for(stored.get(), kWidth, kHeight, box_cols,
                                                                        kBoxRows, swizzle)));
      DeviceArray<std::uint16_t> out(backend, bytes / 2, "out");
      require_clean(engine::launch(backend, box, LaunchConfig{1, 128, 16384 + 8}, RunOptions{}, in_map, out_map,
                                   corner[0], corner[1], static_cast<int>(bytes), out.get()));
      std::vector<std::uint16_t> landed = out.download(), back = stored.download();
      std::size_t wrong_landed = 0, wrong_stored = 0;
      for (unsigned r = 0; r < kBoxRows; ++r)
        for (unsigned c = 0; c < box_cols; ++c) {
          int gr = corner[1] + int(r), gc = corner[0] + int(c);
          bool inside = gr < int(kHeight) && gc < int(kWidth);
          std::uint16_t want = inside ? tensor[std::size_t(gr) * kWidth + gc] : 0;
          if (landed[landed_at(r, c, box_cols * 2, kSwizzleBytes[swizzle]) / 2] != want) ++wrong_landed;
        }
      // The store writes the box's part inside the tensor, and nothing else.
      for (unsigned gr = 0; gr < kHeight; ++gr)
        for (unsigned gc = 0; gc < kWidth; ++gc) {
          bool in_box = int(gr) >= corner[1] && int(gr) < corner[1] + int(kBoxRows) && int(gc) >= corner[0] &&
                        int(gc) < corner[0] + int(box_cols);
          std::uint16_t want = in_box ? tensor[std::size_t(gr) * kWidth + gc] : 0;
          if (back[std::size_t(gr) * kWidth + gc] != want) ++wrong_stored;
        }
      CHECK(wrong_landed == 0);
      CHECK(wrong_stored == 0);
    }
  }
}

BACKEND_TEST("cuda::ptx mbarriers: a two-stage ring fed by tensor copies hands every round to its consumers") {
  if (!hopper_or_skip(backend)) return;
  constexpr int kRounds = 7;  // odd, so the two stages end in different phases
  std::vector<std::uint16_t> tensor(32 * 4 * kRounds);
  std::vector<int> want(32, 0);
  for (std::size_t i = 0; i < tensor.size(); ++i) {
    tensor[i] = static_cast<std::uint16_t>(1 + (i * 37) % 1000);
    want[i % 32] += tensor[i];
  }
  DeviceArray<std::uint16_t> global(backend, tensor.size(), "tensor");
  global.upload(tensor);
  CUtensorMap map = as_cu(backend.encode_tensor_map(request_for(global.get(), 32, 4 * kRounds, 32, 4, 0)));
  DeviceArray<int> sums(backend, 32, "sums");
  DeviceArray<unsigned> ranks(backend, 2, "ranks");
  engine::Kernel<void(CUtensorMap, int, int*, unsigned*)> ring(hc::cpu_cccl_mbarrier_ring(),
                                                               hc::gpu_cccl_mbarrier_ring());
  // Every thread order: with consumers first, the producer polls alone while its copies are in flight.
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    const std::string order_name = engine::to_string(order);
    CAPTURE(order_name);
    RunOptions options;
    options.order = order;
    sums.upload(std::vector<int>(32, 0));
    require_clean(engine::launch(backend, ring, LaunchConfig{1, 64}, options, map, kRounds, sums.get(), ranks.get()));
    CHECK(sums.download() == want);
    CHECK(ranks.download() == std::vector<unsigned>{0, 1});  // a block of its own is a cluster of one
  }
}

TEST_CASE("cpu: cuda::ptx::mbarrier_arrive_expect_tx with elements for bytes: the deadlock names both byte counts") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  constexpr unsigned kCols = 64, kRows = 32;
  DeviceArray<std::uint16_t> global(*be, kCols * kRows, "tensor");
  global.upload(std::vector<std::uint16_t>(kCols * kRows, 3));
  CUtensorMap map = as_cu(be->encode_tensor_map(request_for(global.get(), kCols, kRows, kCols, kRows, 3)));
  DeviceArray<std::uint16_t> out(*be, 128, "out");
  engine::Kernel<void(CUtensorMap, int, int, std::uint16_t*)> k(hcm::cpu_cccl_expect_tx_elements_not_bytes(),
                                                                  engine::absent_image("absent"));
  LaunchResult r = engine::launch(*be, k, LaunchConfig{1, 128, 16384 + 8}, RunOptions{}, map, int(kCols), int(kRows),
                                  out.get());
  INFO(describe(r));
  const engine::Finding* f = first_of(r, FindingKind::deadlock);
  REQUIRE(f != nullptr);
  bool named = false;
  for (const auto& g : f->groups)
    if (g.wait.kind == engine::ThreadGroup::BarrierWait::Kind::mbarrier && g.wait.bytes_expected == kCols * kRows &&
        g.wait.bytes_delivered == kCols * kRows * 2) {
      named = true;
      CHECK(g.count == 128);
      CHECK(g.barrier.line == line_of("hopper_cccl_misuse_kernels.cu", "// waits for the box"));
    }
  CHECK(named);
}

TEST_CASE("cpu: cuda::ptx::mbarrier_try_wait_parity on the wrong parity deadlocks, naming the parity and the line") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<int> out(*be, 64, "out");
  engine::Kernel<void(int*)> k(hcm::cpu_cccl_wait_wrong_parity(), engine::absent_image("absent"));
  LaunchResult r = engine::launch(*be, k, LaunchConfig{1, 64}, RunOptions{}, out.get());
  INFO(describe(r));
  const engine::Finding* f = first_of(r, FindingKind::deadlock);
  REQUIRE(f != nullptr);
  bool named = false;
  for (const auto& g : f->groups)
    if (g.wait.kind == engine::ThreadGroup::BarrierWait::Kind::mbarrier) {
      named = true;
      CHECK(g.count == 64);
      CHECK(g.wait.parity == 1);
      CHECK(g.wait.phase_parity == 1);  // phase 0 completed: the barrier is in phase 1
      CHECK(g.wait.pending_arrivals == 1);
      CHECK(g.barrier.line == line_of("hopper_cccl_misuse_kernels.cu", "// the mistake: phase 0"));
    }
  CHECK(named);
}

TEST_CASE("cpu: a cuda::ptx::mbarrier_test_wait_parity polling loop on the wrong parity is a deadlock, not a hang") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  engine::Kernel<void(int*)> k(hcm::cpu_cccl_poll_wrong_parity(), engine::absent_image("absent"));
  for (unsigned threads : {1u, 64u}) {  // one thread polls alone; many poll in turn
    CAPTURE(threads);
    DeviceArray<int> out(*be, threads, "out");
    LaunchResult r = engine::launch(*be, k, LaunchConfig{1, threads}, RunOptions{}, out.get());
    INFO(describe(r));
    const engine::Finding* f = first_of(r, FindingKind::deadlock);
    REQUIRE(f != nullptr);
    unsigned waiting = 0;
    for (const auto& g : f->groups)
      if (!g.returned) waiting += g.count;
    CHECK(waiting == threads);
  }
}

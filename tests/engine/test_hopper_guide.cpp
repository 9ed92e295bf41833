// Hopper code as the CUDA Programming Guide writes it (hopper_guide_kernels.cu), on both
// backends: libcu++'s cuda::device::experimental tensor copies with a cuda::barrier, a tile
// loaded, computed on, fenced and stored, with the tensor map as a __grid_constant__ parameter
// and in global memory; loads and stores of every rank, 1-D to 5-D; __shared__ with alignas or
// __align__ before or after it, aligned as asked; and an extern __shared__ array declared in
// an included header, which the launch finds.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "cuda_cpu/compat/cuda.h"
#include "engine/device_array.h"
#include "engine/kernel.h"
#include "hopper_guide_kernels_kernels.h"
#include "pair_staging_kernels_kernels.h"
#include "hopper_test_support.h"

using engine::DeviceArray;
using engine::LaunchConfig;
using engine::RunOptions;
using hopper_test::as_cu;
using hopper_test::hopper_or_skip;
using hopper_test::require_clean;

namespace hg = kernels::hopper_guide_kernels;

namespace {

constexpr unsigned kFloat32 = 7;  // CU_TENSOR_MAP_DATA_TYPE_FLOAT32

// A tensor of floats, dimension 0 contiguous, with boxes of `box`.
engine::TensorMapRequest float_map(const void* address, const std::vector<std::uint64_t>& dims,
                                   const std::vector<std::uint32_t>& box) {
  engine::TensorMapRequest r;
  r.data_type = kFloat32;
  r.rank = static_cast<unsigned>(dims.size());
  r.global_address = address;
  std::uint64_t stride = 4;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    r.dims[i] = dims[i];
    r.box[i] = box[i];
    if (i > 0) r.strides[i - 1] = stride;
    stride *= dims[i];
  }
  return r;
}

// The 2-D case: a 40 x 80 tensor (not a multiple of the 16 x 32 tiles, so the last tiles
// cross its edges), each element scaled by 2 and shifted by its row in the tile.
constexpr unsigned kCols = 80, kRows = 40, kTileRows = 16, kTileCols = 32;

std::vector<float> scale_input() {
  std::vector<float> in(kCols * kRows);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(1 + i);
  return in;
}

std::size_t wrong_scaled(const std::vector<float>& in, const std::vector<float>& out) {
  std::size_t wrong = 0;
  for (unsigned r = 0; r < kRows; ++r)
    for (unsigned c = 0; c < kCols; ++c)
      if (out[r * kCols + c] != in[r * kCols + c] * 2.0f + static_cast<float>(r % kTileRows)) ++wrong;
  return wrong;
}

const LaunchConfig kScaleLaunch{engine::Dim3{(kCols + kTileCols - 1) / kTileCols, (kRows + kTileRows - 1) / kTileRows, 1},
                                engine::Dim3{128, 1, 1}};

}  // namespace

BACKEND_TEST("Programming Guide TMA: load, compute, fence, store with a __grid_constant__ tensor map") {
  if (!hopper_or_skip(backend)) return;
  const std::vector<float> in = scale_input();
  DeviceArray<float> input(backend, in.size(), "input"), output(backend, in.size(), "output");
  input.upload(in);
  output.upload(std::vector<float>(in.size(), -1.0f));
  CUtensorMap in_map = as_cu(backend.encode_tensor_map(float_map(input.get(), {kCols, kRows}, {kTileCols, kTileRows})));
  CUtensorMap out_map = as_cu(backend.encode_tensor_map(float_map(output.get(), {kCols, kRows}, {kTileCols, kTileRows})));
  engine::Kernel<void(CUtensorMap, CUtensorMap, float)> k(hg::cpu_guide_scale_grid_constant(),
                                                          hg::gpu_guide_scale_grid_constant());
  for (engine::ThreadOrder order : engine::kThreadOrders) {
    const std::string order_name = engine::to_string(order);
    CAPTURE(order_name);
    RunOptions options;
    options.order = order;
    output.upload(std::vector<float>(in.size(), -1.0f));
    require_clean(engine::launch(backend, k, kScaleLaunch, options, in_map, out_map, 2.0f));
    CHECK(wrong_scaled(in, output.download()) == 0);
  }
}

BACKEND_TEST("Programming Guide TMA: the same kernel with its tensor maps in global memory, passed by pointer") {
  if (!hopper_or_skip(backend)) return;
  const std::vector<float> in = scale_input();
  DeviceArray<float> input(backend, in.size(), "input"), output(backend, in.size(), "output");
  input.upload(in);
  output.upload(std::vector<float>(in.size(), -1.0f));
  // As a program does it: cudaMalloc for each map, cudaMemcpy of the encoded map into it.
  DeviceArray<CUtensorMap> maps(backend, 2, "maps");
  maps.upload({as_cu(backend.encode_tensor_map(float_map(input.get(), {kCols, kRows}, {kTileCols, kTileRows}))),
               as_cu(backend.encode_tensor_map(float_map(output.get(), {kCols, kRows}, {kTileCols, kTileRows})))});
  engine::Kernel<void(const CUtensorMap*, const CUtensorMap*, float)> k(hg::cpu_guide_scale_by_pointer(),
                                                                        hg::gpu_guide_scale_by_pointer());
  require_clean(engine::launch(backend, k, kScaleLaunch, RunOptions{}, maps.get(), maps.get() + 1, 2.0f));
  CHECK(wrong_scaled(in, output.download()) == 0);
}

BACKEND_TEST("Programming Guide TMA: 1-D to 5-D boxes load and store at their coordinates") {
  if (!hopper_or_skip(backend)) return;
  struct Case {
    std::vector<std::uint64_t> dims;
    std::vector<std::uint32_t> box;  // 64 floats each
    std::vector<int> at;
  };
  // Dimension 0 a multiple of 4 floats: every stride a multiple of 16 bytes, as the hardware
  // needs; so must the first coordinate be (the last test below).
  const Case cases[] = {{{100}, {64}, {8}},
                        {{20, 9}, {16, 4}, {4, 2}},
                        {{12, 6, 4}, {8, 4, 2}, {4, 1, 1}},
                        {{8, 5, 3, 3}, {4, 4, 2, 2}, {4, 1, 1, 0}},
                        {{8, 3, 3, 3, 3}, {4, 2, 2, 2, 2}, {4, 1, 0, 1, 1}}};
  engine::Kernel<void(CUtensorMap, CUtensorMap, int, int, int, int, int, int)> k(hg::cpu_guide_box_of_rank(),
                                                                                 hg::gpu_guide_box_of_rank());
  for (const Case& c : cases) {
    const int rank = static_cast<int>(c.dims.size());
    CAPTURE(rank);
    std::size_t total = 1;
    for (std::uint64_t d : c.dims) total *= d;
    std::vector<float> in(total);
    for (std::size_t i = 0; i < total; ++i) in[i] = static_cast<float>(10 + i);
    DeviceArray<float> input(backend, total, "input"), output(backend, total, "output");
    input.upload(in);
    output.upload(std::vector<float>(total, 0.0f));
    CUtensorMap in_map = as_cu(backend.encode_tensor_map(float_map(input.get(), c.dims, c.box)));
    CUtensorMap out_map = as_cu(backend.encode_tensor_map(float_map(output.get(), c.dims, c.box)));
    int at[5] = {0, 0, 0, 0, 0};
    for (int d = 0; d < rank; ++d) at[d] = c.at[d];
    require_clean(engine::launch(backend, k, LaunchConfig{1, 64}, RunOptions{}, in_map, out_map, rank, at[0], at[1],
                                 at[2], at[3], at[4]));
    const std::vector<float> out = output.download();
    std::size_t wrong = 0, inside = 0;
    for (std::size_t i = 0; i < total; ++i) {
      bool in_box = true;
      std::size_t rest = i;
      for (int d = 0; d < rank; ++d) {
        const std::size_t coordinate = rest % c.dims[d];
        rest /= c.dims[d];
        if (coordinate < std::size_t(c.at[d]) || coordinate >= std::size_t(c.at[d]) + c.box[d]) in_box = false;
      }
      inside += in_box;
      if (out[i] != (in_box ? in[i] + 1.0f : 0.0f)) ++wrong;
    }
    CHECK(inside == 64);  // every box lies inside its tensor
    CHECK(wrong == 0);
  }
}

BACKEND_TEST("__shared__ with alignas or __align__ before or after it, in a kernel and at file scope, is aligned") {
  DeviceArray<unsigned> remainders(backend, 9, "remainders");
  DeviceArray<float> values(backend, 9, "values");
  remainders.upload(std::vector<unsigned>(9, 12345u));
  engine::Kernel<void(unsigned*, float*)> k(hg::cpu_shared_alignment_orders(), hg::gpu_shared_alignment_orders());
  require_clean(engine::launch(backend, k, LaunchConfig{1, 32}, RunOptions{}, remainders.get(), values.get()));
  CHECK(remainders.download() == std::vector<unsigned>(9, 0u));
  CHECK(values.download() == std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9});
}

BACKEND_TEST("an extern __shared__ array declared in an included header is the kernel's dynamic shared memory") {
  constexpr int kN = 300;
  std::vector<float> in(kN), want(kN);
  for (int i = 0; i < kN; ++i) in[i] = static_cast<float>(i * 3 + 1);
  for (int i = 0; i < kN; ++i) want[i] = in[kN - 1 - i];
  DeviceArray<float> input(backend, kN, "input"), output(backend, kN, "output");
  DeviceArray<unsigned> remainder(backend, 1, "remainder");
  input.upload(in);
  remainder.upload({12345u});
  engine::Kernel<void(const float*, float*, int, unsigned*)> k(hg::cpu_reverse_through_header_staging(),
                                                               hg::gpu_reverse_through_header_staging());
  require_clean(engine::launch(backend, k, LaunchConfig{1, 128, kN * sizeof(float)}, RunOptions{}, input.get(),
                               output.get(), kN, remainder.get()));
  CHECK(output.download() == want);
  CHECK(remainder.download() == std::vector<unsigned>{0u});
}

// On an H200 (CUDA 13.0), a tensor copy whose box starts off 16 bytes in the contiguous
// dimension stops the kernel with an illegal instruction (floats at x = 1, 2, 3, 5, -1, 65; at 0,
// 4, 8, -4, 64 it runs, whatever the other coordinates). The CPU backend refuses it at that line;
// where the box starts on 16 bytes, it runs.
BACKEND_TEST("a tensor copy whose first coordinate is a multiple of 16 bytes runs, at any other coordinates") {
  if (!hopper_or_skip(backend)) return;
  DeviceArray<float> input(backend, 20 * 9, "input");
  std::vector<float> in(20 * 9);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  input.upload(in);
  CUtensorMap map = as_cu(backend.encode_tensor_map(float_map(input.get(), {20, 9}, {16, 4})));
  DeviceArray<float> sum(backend, 1, "sum");
  engine::Kernel<void(CUtensorMap, int, int, float*)> k(hg::cpu_guide_box_sum(), hg::gpu_guide_box_sum());
  for (int x : {0, 4, -4}) {
    for (int y : {0, 3, -1}) {
      CAPTURE(x);
      CAPTURE(y);
      require_clean(engine::launch(backend, k, LaunchConfig{1, 32}, RunOptions{}, map, x, y, sum.get()));
      float want = 0.0f;  // outside the tensor, the box holds zeros
      for (int r = y; r < y + 4; ++r)
        for (int c = x; c < x + 16; ++c)
          if (r >= 0 && r < 9 && c >= 0 && c < 20) want += in[std::size_t(r) * 20 + c];
      CHECK(sum.download() == std::vector<float>{want});
    }
  }
}

TEST_CASE("cpu: a tensor copy whose first coordinate is not a multiple of 16 bytes is refused at its line") {
  test_support::note_started();
  auto be = engine::open_backend(engine::BackendChoice::cpu).backend;
  DeviceArray<float> input(*be, 20 * 9, "input");
  input.upload(std::vector<float>(20 * 9, 1.0f));
  CUtensorMap map = as_cu(be->encode_tensor_map(float_map(input.get(), {20, 9}, {16, 4})));
  DeviceArray<float> sum(*be, 1, "sum");
  engine::Kernel<void(CUtensorMap, int, int, float*)> k(hg::cpu_guide_box_sum(), engine::absent_image("absent"));
  for (int x : {3, -1, 5}) {
    CAPTURE(x);
    engine::LaunchResult r = engine::launch(*be, k, LaunchConfig{1, 32}, RunOptions{}, map, x, 2, sum.get());
    INFO(hopper_test::describe(r));
    const engine::Finding* f = hopper_test::first_of(r, engine::FindingKind::inline_ptx);
    REQUIRE(f != nullptr);
    CHECK(f->detail.find("its first coordinate, " + std::to_string(x) +
                         ", is not a multiple of 16 bytes (of 4 elements)") != std::string::npos);
    CHECK(f->at.line == hopper_test::line_of("hopper_guide_kernels.cu", "// the box's load"));
  }
}

// The kernel's parameter type, as pair_staging.cuh defines it (that header is device code).
namespace pair_staging {
struct Pair {
  float low, high;
};
}  // namespace pair_staging

BACKEND_TEST("an extern __shared__ array of a namespace's own type, declared in a header, builds and launches") {
  using pair_staging::Pair;
  constexpr int kN = 77;
  std::vector<Pair> in(kN);
  for (int i = 0; i < kN; ++i) in[i] = {static_cast<float>(i), static_cast<float>(1000 + i)};
  DeviceArray<Pair> input(backend, kN, "input"), output(backend, kN, "output");
  input.upload(in);
  engine::Kernel<void(const Pair*, Pair*, int)> k(kernels::pair_staging_kernels::cpu_swap_pairs_through_header(),
                                                  kernels::pair_staging_kernels::gpu_swap_pairs_through_header());
  require_clean(engine::launch(backend, k, LaunchConfig{1, 32, kN * sizeof(Pair)}, RunOptions{}, input.get(),
                               output.get(), kN));
  const std::vector<Pair> out = output.download();
  int wrong = 0;
  for (int i = 0; i < kN; ++i) wrong += out[i].low != in[i].high || out[i].high != in[i].low;
  CHECK(wrong == 0);
}

// nvcuda::wmma on the CPU backend: what the last lane of a warp does for the whole warp at
// load_matrix_sync, store_matrix_sync and mma_sync (the kernel side is cuda_cpu/compat/mma.h).
// Element e of a 16 × 16 tile (row e / 16, column e % 16 of the logical matrix) is held by
// lane e / 8 as its x[e % 8].
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "cuda_cpu/compat/mma.h"
#include "ptx/tensor_math.h"
#include "worker.h"

namespace {

using namespace nvcuda::wmma;
using cuda_cpu::WarpOp;

constexpr int kTile = detail::kTile;

detail::Lane& lane(void* const* lane_data, int l) { return *static_cast<detail::Lane*>(lane_data[l]); }

float read_element(const void* p, bool half) {
  if (half) {
    __half h;
    std::memcpy(&h, p, 2);
    return __half2float(h);
  }
  float f;
  std::memcpy(&f, p, 4);
  return f;
}

void write_element(void* p, float v, bool half) {
  if (half) {
    __half h = __float2half_rn(v);
    std::memcpy(p, &h, 2);
  } else {
    std::memcpy(p, &v, 4);
  }
}

// The kernel's own fragment objects, on each lane's stack.
unsigned char* fragment_bytes(void* fragment) { return static_cast<unsigned char*>(fragment); }

void check_memory_arguments(void* const* lane_data, WarpOp op, bool half) {
  const detail::Lane& first = lane(lane_data, 0);
  for (int l = 1; l < 32; ++l) {
    const detail::Lane& other = lane(lane_data, l);
    if (other.pointer != first.pointer || other.ldm != first.ldm || other.layout != first.layout) {
      const char* which = other.pointer != first.pointer ? "pointer" : other.ldm != first.ldm ? "ldm" : "layout";
      engine::cpu::warp_misuse(op, static_cast<unsigned>(l), {engine::Finding::Misuse::wmma_arguments_differ, l, 0, which});
    }
  }
  if (reinterpret_cast<std::uintptr_t>(first.pointer) % 32 != 0)
    engine::cpu::warp_misuse(op, 0, {engine::Finding::Misuse::wmma_pointer_misaligned, 0, 32, nullptr});
  unsigned multiple = half ? 8 : 4;  // 16 bytes
  if (first.ldm % multiple != 0 || first.ldm < static_cast<unsigned>(kTile))
    engine::cpu::warp_misuse(op, 0, {engine::Finding::Misuse::wmma_bad_ldm, first.ldm, multiple, half ? "__half" : "float"});
}

const unsigned char* element_address(const detail::Lane& l, int e, std::size_t size) {
  int row = e / kTile, col = e % kTile;
  std::size_t offset = l.layout == mem_row_major ? std::size_t(row) * l.ldm + col : std::size_t(col) * l.ldm + row;
  return static_cast<const unsigned char*>(l.pointer) + offset * size;
}

}  // namespace

void nvcuda::wmma::detail::complete(void* const* lane_data, unsigned mask, const void* context) {
  const Collective& c = *static_cast<const Collective*>(context);
  if (mask != 0xFFFFFFFFu)
    engine::cpu::warp_misuse(c.op, 0, {engine::Finding::Misuse::wmma_partial_warp, 0, 32, nullptr});
  switch (c.op) {
    case WarpOp::wmma_load:
    case WarpOp::wmma_store: {
      bool half = c.half_elements;
      std::size_t size = half ? 2 : 4;
      check_memory_arguments(lane_data, c.op, half);
      bool store = c.op == WarpOp::wmma_store;
      for (int e = 0; e < kTile * kTile; ++e) {
        int owner = e / kPerLane;
        const detail::Lane& l = lane(lane_data, owner);
        auto* memory = const_cast<unsigned char*>(element_address(l, e, size));
        unsigned char* element = fragment_bytes(l.fragment) + (e % kPerLane) * size;
        cuda_cpu::lane_access(static_cast<unsigned>(owner), memory, static_cast<unsigned>(size), store);
        if (store) std::memcpy(memory, element, size);
        else std::memcpy(element, memory, size);
      }
      return;
    }
    case WarpOp::wmma_mma: {
      float a[kTile * kTile], b[kTile * kTile], acc[kTile * kTile];
      std::size_t acc_size = c.half_accumulator ? 2 : 4;
      for (int e = 0; e < kTile * kTile; ++e) {
        const detail::Lane& l = lane(lane_data, e / kPerLane);
        a[e] = read_element(static_cast<const unsigned char*>(l.a) + (e % kPerLane) * 2, true);
        b[e] = read_element(static_cast<const unsigned char*>(l.b) + (e % kPerLane) * 2, true);
        acc[e] = read_element(static_cast<const unsigned char*>(l.c) + (e % kPerLane) * acc_size, c.half_accumulator);
      }
      // The tensor cores' own sum (ptx/tensor_math.h), as mma.sync m16n8k16 forms it.
      float d[kTile * kTile];
      for (int i = 0; i < kTile; ++i)
        for (int j = 0; j < kTile; ++j) {
          float column[kTile];
          for (int k = 0; k < kTile; ++k) column[k] = b[k * kTile + j];
          float c_value = acc[i * kTile + j];
          d[i * kTile + j] = c.half_accumulator
                                 ? engine::cpu::tensor::half_to_float(engine::cpu::tensor::dot_to_half(
                                       &a[i * kTile], column, kTile, c_value, -14, -14))
                                 : engine::cpu::tensor::dot_to_float(&a[i * kTile], column, kTile, c_value, -14);
        }
      // d may be the same fragment as c: everything was read before anything is written.
      for (int e = 0; e < kTile * kTile; ++e) {
        const detail::Lane& l = lane(lane_data, e / kPerLane);
        write_element(fragment_bytes(l.fragment) + (e % kPerLane) * acc_size, d[e], c.half_accumulator);
      }
      return;
    }
    default:
      return;
  }
}

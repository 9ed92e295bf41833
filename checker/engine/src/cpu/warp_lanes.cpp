// Shuffles, votes and __syncwarp: what the last lane to arrive computes for the warp.
#include <cstdio>

#include "cuda_cpu/warp_functions.h"
#include "worker.h"

namespace {

using cuda_cpu::WarpLane;
using cuda_cpu::WarpOp;

bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

void cuda_cpu::complete_warp_lanes(void* const* lane_data, unsigned mask, const void* context) {
  WarpOp op = *static_cast<const WarpOp*>(context);
  auto lane = [&](unsigned l) { return static_cast<WarpLane*>(lane_data[l]); };
  switch (op) {
    case WarpOp::syncwarp:
      return;
    case WarpOp::ballot:
    case WarpOp::any:
    case WarpOp::all: {
      std::uint64_t votes = 0;
      for (unsigned l = 0; l < 32; ++l)
        if ((mask >> l) & 1u && lane(l)->value) votes |= 1ull << l;
      std::uint64_t result = op == WarpOp::ballot ? votes : op == WarpOp::any ? (votes != 0) : (votes == mask);
      for (unsigned l = 0; l < 32; ++l)
        if ((mask >> l) & 1u) lane(l)->result = result;
      return;
    }
    default:
      break;
  }
  // Shuffles: each lane reads the value of a source lane in its own section of `width`.
  for (unsigned l = 0; l < 32; ++l) {
    if (!((mask >> l) & 1u)) continue;
    WarpLane& me = *lane(l);
    if (!power_of_two(me.width) || me.width > 32)
      engine::cpu::warp_misuse(op, l, {engine::Finding::Misuse::bad_shuffle_width, me.width, 32, nullptr});
    auto w = static_cast<unsigned>(me.width);
    unsigned section = l & ~(w - 1);
    unsigned source = l;
    switch (op) {
      case WarpOp::shfl:
        source = section + (static_cast<unsigned>(me.param) & (w - 1));
        break;
      case WarpOp::shfl_up:
        source = l - section >= static_cast<unsigned>(me.param) ? l - static_cast<unsigned>(me.param) : l;
        break;
      case WarpOp::shfl_down:
        source = l - section + static_cast<unsigned>(me.param) < w ? l + static_cast<unsigned>(me.param) : l;
        break;
      case WarpOp::shfl_xor: {
        unsigned x = l ^ static_cast<unsigned>(me.param);
        source = x < section + w ? x : l;  // later sections are out of reach: own value
        break;
      }
      default:
        break;
    }
    if (source >= 32 || !((mask >> source) & 1u))
      engine::cpu::warp_misuse(op, l, {engine::Finding::Misuse::source_lane_not_in_mask, source, 0, nullptr});
    me.result = lane(source)->value;
  }
}

void cuda_cpu::complete_gather(void* const* lane_data, unsigned mask, const void*) {
  for (unsigned to = 0; to < 32; ++to) {
    if (!((mask >> to) & 1u)) continue;
    auto& receiver = *static_cast<GatherLane*>(lane_data[to]);
    for (unsigned from = 0; from < 32; ++from)
      if ((mask >> from) & 1u) {
        const auto& sender = *static_cast<const GatherLane*>(lane_data[from]);
        receiver.all[from][0] = sender.value[0];
        receiver.all[from][1] = sender.value[1];
      }
  }
}

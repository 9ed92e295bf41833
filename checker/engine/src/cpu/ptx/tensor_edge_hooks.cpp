// What the tensor copies tell the launch's edge notes (tensor_edges.h): every box, on every
// launch, counted by the CTA that issued it.
#include "../tensor_edges.h"
#include "hopper.h"

namespace engine::cpu::ptx_run {

void note_tensor_box(const Lane& lane, const cuda_cpu::EmulatedTensorMap& map, const std::int64_t* coordinate,
                     bool store) {
  Worker& w = *current_worker;
  w.tensor_edges().box(lane.site, store, map, coordinate, w.current_block());
}

}  // namespace engine::cpu::ptx_run

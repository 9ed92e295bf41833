// --explain: the CPU backend's notes on tensor copies whose boxes hung over the tensor's edges
// (engine::TensorEdgeNote). Legal, and how TMA kernels handle edge tiles, so they are said
// only when asked for, one line per source line, direction and tensor.
#pragma once

#include <string>
#include <vector>

#include "engine/findings.h"

namespace checker {

// The notes of one launch, merged per kernel line: a PTX wrapper inlined several times at one
// line of the kernel is one place to the student.
std::vector<engine::TensorEdgeNote> merged_tensor_edges(const engine::LaunchResult& r);
// "Note: the tensor copies at line 78 of p12_tma_wgmma.cu (called from line 163) hung over the
// edge of a in 2 of 12 boxes (...)": one line per merged note.
std::vector<std::string> explain_tensor_edges(const engine::LaunchResult& r);

}  // namespace checker

// What the Hopper and cluster tests (test_hopper.cpp, test_hopper_cccl.cpp, test_clusters.cpp)
// share: a launch's findings in one line for test messages, the checks of a clean launch, the
// line of a marker in a test kernel file, and the skip on GPUs without Hopper's instructions.
#pragma once

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <string>

#include "backend_fixture.h"
#include "cuda_cpu/compat/cuda.h"
#include "engine/backend.h"
#include "engine/findings.h"

namespace hopper_test {

// Every finding with its kind, op, words, thread and line, and each group with what it waits for.
inline std::string describe(const engine::LaunchResult& r) {
  std::string s;
  for (const auto& f : r.findings) {
    s += "kind " + std::to_string(static_cast<int>(f.kind)) + " op '" + f.op + "' " + f.detail + " " +
         f.where.str() + " line " + std::to_string(f.at.line) + "; ";
    for (const auto& g : f.groups)
      s += "group of " + std::to_string(g.count) + " at line " + std::to_string(g.barrier.line) + " waits for '" +
           g.wait.barrier + "' parity " + std::to_string(g.wait.parity) + " (phase parity " +
           std::to_string(g.wait.phase_parity) + ", arrivals " + std::to_string(g.wait.pending_arrivals) + " of " +
           std::to_string(g.wait.expected_arrivals) + ", bytes " + std::to_string(g.wait.bytes_delivered) + " of " +
           std::to_string(g.wait.bytes_expected) + "); ";
  }
  return s;
}

inline void require_clean(const engine::LaunchResult& r) {
  const std::string why = engine::to_string(r.rejected.why);
  CAPTURE(why);
  INFO("findings: " << describe(r));
  REQUIRE(!r.rejected.refused());
  REQUIRE(r.findings.empty());
}

inline const engine::Finding* first_of(const engine::LaunchResult& r, engine::FindingKind kind) {
  for (const auto& finding : r.findings)
    if (finding.kind == kind) return &finding;
  return nullptr;
}

// The first line of tests/engine/<file> that contains `text`; -1 when none does.
inline int line_of(const char* file, const std::string& text) {
  std::ifstream in(std::string(TEST_SOURCE_DIR) + "/engine/" + file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  return -1;
}

// The kernels take CUtensorMap; the backend encodes engine::TensorMap, the same 128 bytes.
inline CUtensorMap as_cu(const engine::TensorMap& map) {
  CUtensorMap m;
  std::memcpy(&m, map.bytes, sizeof m);
  return m;
}

// A 2-D tensor of 16-bit elements, `width` x `height` row-major, boxes of `box_cols` x
// `box_rows`; swizzle: CU_TENSOR_MAP_SWIZZLE_{NONE,32B,64B,128B} = 0..3.
inline engine::TensorMapRequest request_for(const void* address, unsigned width, unsigned height, unsigned box_cols,
                                            unsigned box_rows, unsigned swizzle) {
  engine::TensorMapRequest request;
  request.rank = 2;
  request.global_address = address;
  request.dims[0] = width;
  request.dims[1] = height;
  request.strides[0] = width * 2;
  request.box[0] = box_cols;
  request.box[1] = box_rows;
  request.swizzle = swizzle;
  return request;
}

inline bool hopper_or_skip(engine::Backend& backend) {
  if (backend.limits().compute_capability == 90) return true;
  test_support::note_skipped("these instructions need a Hopper GPU (compute capability 9.0)");
  return false;
}

}  // namespace hopper_test

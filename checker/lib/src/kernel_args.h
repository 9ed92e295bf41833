// A case's matrices in device memory, and the kernel's arguments in the order of the spec's
// signature: what the correctness cases and the speed harness both launch with.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "checker/puzzle.h"
#include "engine/device_array.h"

namespace checker {

// A matrix in device memory, as float or as half bits.
class DeviceMatrix {
 public:
  DeviceMatrix(engine::Backend& backend, const std::vector<float>& values, ElementType type, const std::string& name);
  void* get() const;
  void upload(const std::vector<float>& values);

 private:
  ElementType type_;
  std::unique_ptr<engine::DeviceArray<float>> f32_;
  std::unique_ptr<engine::DeviceArray<std::uint16_t>> f16_;
};

// The values behind each parameter, and the array of pointers to them that a launch takes.
struct KernelArgs {
  void* a;
  void* b;
  void* c;
  int m, n, k;
  float alpha, beta;
  engine::TensorMap a_map{}, b_map{}, c_map{};  // for kernels that take tensor maps (encode_maps)

  // Encodes the spec's tensor maps of a, b and c (as they are now) on this backend. Throws
  // engine::Error with the driver's refusal.
  void encode_maps(engine::Backend& backend, const PuzzleSpec& spec, const Dims& d);

  // Points into this object: keep it alive, and unmoved, until the launch returns.
  std::vector<void*> pointers(const PuzzleSpec& spec);
};

}  // namespace checker

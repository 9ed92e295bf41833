// __device__ and __managed__ variables of a program, across the fork of each launch
// (isolated_launch.cpp): the child runs the kernels, so their writes to such variables would
// stay in the child. The program's build places them in one section (ptx_rewrite:
// tools/device_variables.cpp); the child saves the section into shared memory when the grid
// has run to its end, and the parent takes it back, as a GPU's memory would keep it.
#pragma once

#include <cstddef>

namespace engine::cpu {

class DeviceGlobals {
 public:
  DeviceGlobals();  // nothing to do when the program has no such variables
  ~DeviceGlobals();
  DeviceGlobals(const DeviceGlobals&) = delete;
  DeviceGlobals& operator=(const DeviceGlobals&) = delete;

  void save();     // in the child, after the grid ran
  void restore();  // in the parent, after the child exited normally

 private:
  char* begin_ = nullptr;
  std::size_t size_ = 0;
  void* copy_ = nullptr;
};

}  // namespace engine::cpu

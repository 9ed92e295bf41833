// The target the CPU build compiles kernels for, when it is not this machine's (a cross build):
// KERNEL_TARGET_FLAGS, a CMake list that tests/CMakeLists.txt defines for engine_tests.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace test_support {

inline std::vector<std::string> kernel_target_flags() {
  std::vector<std::string> flags;
  std::string list = KERNEL_TARGET_FLAGS;
  for (std::size_t begin = 0, end; begin < list.size(); begin = end + 1) {
    end = list.find(';', begin);
    if (end == std::string::npos) end = list.size();
    if (end > begin) flags.push_back(list.substr(begin, end - begin));
  }
  return flags;
}

}  // namespace test_support

// The launch checks that both backends make before running anything, in CUDA's words
// (cudaErrorInvalidConfiguration is "invalid configuration argument").
#include <string>

#include "engine/backend.h"

namespace engine {

std::string check_max_dynamic_shared(std::size_t bytes, const DeviceLimits& limits, const std::string& kernel) {
  if (bytes <= limits.max_shared_optin) return {};
  return "invalid argument: cudaFuncSetAttribute(" + kernel + ", cudaFuncAttributeMaxDynamicSharedMemorySize, " +
         std::to_string(bytes) + ") asks for more than the " + std::to_string(limits.max_shared_optin) +
         " bytes (" + std::to_string(limits.max_shared_optin / 1024) + " KiB) of shared memory a block may have";
}

std::string check_launch_config(const LaunchConfig& c, const DeviceLimits& limits,
                                std::size_t static_shared, std::size_t max_dynamic_shared, const std::string& kernel) {
  const std::string bad = "invalid configuration argument: ";
  if (c.grid.count() == 0)
    return bad + "the grid " + c.grid.str(true) + " is empty; every dimension must be at least 1";
  if (c.block.count() == 0)
    return bad + "the block " + c.block.str(true) + " is empty; every dimension must be at least 1";
  if (c.block.count() > limits.max_threads_per_block)
    return bad + "the block " + c.block.str(true) + " has " + std::to_string(c.block.count()) +
           " threads; the limit is " + std::to_string(limits.max_threads_per_block) + " threads per block";
  if (c.block.x > limits.max_block.x || c.block.y > limits.max_block.y || c.block.z > limits.max_block.z)
    return bad + "the block " + c.block.str(true) + " is larger than " + limits.max_block.str(true) +
           " in some dimension";
  if (c.grid.x > limits.max_grid.x || c.grid.y > limits.max_grid.y || c.grid.z > limits.max_grid.z)
    return bad + "the grid " + c.grid.str(true) + " is larger than " + limits.max_grid.str(true) +
           " in some dimension";
  if (static_shared > limits.max_shared_per_block)
    return "too much shared data: " + kernel + " declares " + std::to_string(static_shared) +
           " bytes of __shared__ memory; the limit is " + std::to_string(limits.max_shared_per_block) +
           " bytes (" + std::to_string(limits.max_shared_per_block / 1024) + " KiB) per block";
  std::size_t dynamic_limit = max_dynamic_shared ? max_dynamic_shared : limits.max_shared_per_block - static_shared;
  if (c.dynamic_shared_bytes > dynamic_limit) {
    std::string s = "too many resources requested for launch: " + kernel + " asks for " +
                    std::to_string(c.dynamic_shared_bytes) + " bytes of dynamic shared memory";
    if (static_shared) s += " (and declares " + std::to_string(static_shared) + " bytes of static)";
    s += "; its limit is " + std::to_string(dynamic_limit) + " bytes";
    if (!max_dynamic_shared && static_shared + c.dynamic_shared_bytes <= limits.max_shared_optin)
      s += ". Above 48 KiB, a kernel must first be allowed more with cudaFuncSetAttribute(" + kernel +
           ", cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)";
    return s;
  }
  if (static_shared + c.dynamic_shared_bytes > limits.max_shared_optin)
    return "too many resources requested for launch: " + kernel + " needs " + std::to_string(static_shared) +
           " bytes of static and " + std::to_string(c.dynamic_shared_bytes) + " bytes of dynamic shared memory; "
           "the limit is " + std::to_string(limits.max_shared_optin) + " bytes per block";
  return {};
}

}  // namespace engine

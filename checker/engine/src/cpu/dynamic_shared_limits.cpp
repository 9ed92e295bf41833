#include "dynamic_shared_limits.h"

#include <map>
#include <mutex>

#include "cuda_cpu/runtime_hooks.h"
#include "engine/backend.h"

namespace engine::cpu {
namespace {
std::mutex lock;
std::map<const void*, std::size_t>& limits() {
  static std::map<const void*, std::size_t> by_kernel;
  return by_kernel;
}
}  // namespace

void allow_dynamic_shared(const void* kernel, std::size_t bytes) {
  std::lock_guard<std::mutex> guard(lock);
  limits()[kernel] = bytes;
}

std::size_t allowed_dynamic_shared(const void* kernel) {
  std::lock_guard<std::mutex> guard(lock);
  auto it = limits().find(kernel);
  return it == limits().end() ? 0 : it->second;
}

}  // namespace engine::cpu

bool cuda_cpu::set_max_dynamic_shared(const void* kernel, int bytes) {
  if (bytes < 0 || static_cast<std::size_t>(bytes) > engine::DeviceLimits{}.max_shared_optin) return false;
  engine::cpu::allow_dynamic_shared(kernel, static_cast<std::size_t>(bytes));
  return true;
}

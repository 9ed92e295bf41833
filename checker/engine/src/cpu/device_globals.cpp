#include "device_globals.h"

#include <sys/mman.h>

#include <cstring>

// Defined by the linker when the program has the section (a C identifier as its name), else
// null: the section's bounds.
extern "C" char __start_cuda_cpu_device_vars[] __attribute__((weak));
extern "C" char __stop_cuda_cpu_device_vars[] __attribute__((weak));

namespace engine::cpu {

DeviceGlobals::DeviceGlobals() {
  char* begin = __start_cuda_cpu_device_vars;
  char* end = __stop_cuda_cpu_device_vars;
  if (begin == nullptr || end <= begin) return;
  begin_ = begin;
  size_ = static_cast<std::size_t>(end - begin);
  copy_ = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (copy_ == MAP_FAILED) copy_ = nullptr;
}

DeviceGlobals::~DeviceGlobals() {
  if (copy_) munmap(copy_, size_);
}

void DeviceGlobals::save() {
  if (copy_) std::memcpy(copy_, begin_, size_);
}

void DeviceGlobals::restore() {
  if (copy_) std::memcpy(begin_, copy_, size_);
}

}  // namespace engine::cpu

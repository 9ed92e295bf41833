// Chooses the backend: the GPU when asked for or, with "auto", when one can be used.
#include <cxxabi.h>

#include <cstdlib>
#include <memory>

#include "cpu/cpu_backend.h"
#include "engine/backend.h"
#include "engine/kernel.h"
#include "gpu/gpu_backend.h"

namespace engine {

const char* to_string(BackendKind kind) { return kind == BackendKind::cpu ? "cpu" : "gpu"; }

const char* to_string(ThreadOrder order) {
  switch (order) {
    case ThreadOrder::forward: return "forward";
    case ThreadOrder::reverse: return "reverse";
    case ThreadOrder::shuffled: return "shuffled";
  }
  return "?";
}

BackendChoice parse_backend_choice(const std::string& text) {
  if (text == "auto") return BackendChoice::automatic;
  if (text == "cpu") return BackendChoice::cpu;
  if (text == "gpu") return BackendChoice::gpu;
  throw Error("unknown backend '" + text + "': use gpu, cpu or auto");
}

std::string readable_signature(const char* mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
  std::string s = status == 0 && text ? text.get() : mangled;
  // "void (float const*, int)" reads better as "(const float*, int)"
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  return s;
}

bool gpu_backend_built() { return gpu::built(); }

std::string gpu_unavailable_reason() { return gpu::unavailable_reason(); }

GpuUnavailable gpu_availability() { return gpu::availability(); }

const char* to_string(GpuUnavailable::Why why) {
  switch (why) {
    case GpuUnavailable::Why::none: return "none";
    case GpuUnavailable::Why::not_built: return "not_built";
    case GpuUnavailable::Why::no_device: return "no_device";
    case GpuUnavailable::Why::no_driver: return "no_driver";
    case GpuUnavailable::Why::runtime_error: return "runtime_error";
  }
  return "?";
}

OpenedBackend open_backend(BackendChoice choice, const BackendSettings& settings) {
  OpenedBackend opened;
  if (choice == BackendChoice::cpu) {
    opened.backend = cpu::make_cpu_backend();
    return opened;
  }
  std::string why = gpu::unavailable_reason();
  if (why.empty()) {
    opened.backend = gpu::make_gpu_backend(settings);
    return opened;
  }
  if (choice == BackendChoice::gpu) throw Error("the GPU backend cannot be used: " + why);
  opened.backend = cpu::make_cpu_backend();
  return opened;
}

}  // namespace engine

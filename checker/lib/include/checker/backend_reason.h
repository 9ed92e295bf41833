// Why a kernel runs on the backend it runs on, as a fact with its numbers. explain.cpp words
// it for people (the "Backend:" lines); --json gives it to tools as a code and its data.
#pragma once

#include "engine/backend.h"

namespace checker {

struct BackendReason {
  enum class Code {
    requested,        // --backend=cpu or --backend=gpu named it
    gpu_found,        // auto: a CUDA device can be used
    gpu_unavailable,  // auto: none can (`gpu` says why), so the CPU backend runs the kernel
    gpu_too_old,      // auto: the kernel needs a newer GPU than `device_sm`
    no_gpu_code,      // auto: this build has no GPU code for the kernel
  };
  Code code = Code::requested;
  engine::GpuUnavailable gpu;  // gpu_unavailable
  unsigned device_sm = 0;      // gpu_too_old: the device's compute capability (90 for sm_90)
};

// "gpu_unavailable": the code's name, for tools.
const char* to_string(BackendReason::Code code);

}  // namespace checker

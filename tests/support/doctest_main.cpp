// doctest's main, plus one rule: a run in which every test that started was skipped
// (CTest runs one test case per process) exits with 77, CTest's SKIP_RETURN_CODE.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "backend_fixture.h"

namespace test_support {
namespace {
int started = 0;
int skipped = 0;
}  // namespace

void note_started() { ++started; }

void note_skipped(const std::string& reason) {
  ++skipped;
  std::printf("SKIPPED: %s\n", reason.c_str());
  std::fflush(stdout);
}

namespace {
// A GPU is here, but this build left out the GPU images of the kernels: the GPU tests would run
// nothing. A failure, not a skip.
void require_test_gpu_images() {
#if !PUZZLES_GPU_IMAGES
  FAIL("this build has no GPU images of the kernels (it was configured where no GPU was listed); "
       "configure it with -DPUZZLES_GPU_IMAGES=ON to run the GPU tests");
#endif
}
}  // namespace

bool gpu_or_skip() {
  note_started();
  std::string why = engine::gpu_unavailable_reason();
  if (why.empty()) {
    require_test_gpu_images();
    return true;
  }
  note_skipped("this test needs a CUDA GPU: " + why);
  return false;
}

std::unique_ptr<engine::Backend> backend_or_skip(engine::BackendKind kind) {
  note_started();
  if (kind == engine::BackendKind::gpu) {
    std::string why = engine::gpu_unavailable_reason();
    if (!why.empty()) {
      note_skipped("this test needs a CUDA GPU: " + why);
      return nullptr;
    }
    require_test_gpu_images();
    return engine::open_backend(engine::BackendChoice::gpu).backend;
  }
  return engine::open_backend(engine::BackendChoice::cpu).backend;
}

}  // namespace test_support

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  int result = context.run();
  if (context.shouldExit()) return result;
  if (result == 0 && test_support::started > 0 && test_support::started == test_support::skipped) return 77;
  return result;
}

// This build has no CUDA toolkit: there is no cuBLAS to time against.
#include "bench/cublas_runner.h"

#include "engine/backend.h"

namespace checker {

std::unique_ptr<CublasRunner> open_cublas() {
  throw engine::Error("this build has no GPU backend (it was configured without the CUDA toolkit), so --bench "
                      "cannot time anything");
}

}  // namespace checker

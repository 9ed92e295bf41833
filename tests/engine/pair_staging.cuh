// A header that keeps a kernel file's dynamic shared memory as an array of its own type, inside
// its namespace: the type is not visible at file scope (see pair_staging_kernels.cu).
#pragma once

namespace pair_staging {

struct Pair {
  float low, high;
};

extern __shared__ Pair pairs[];

}  // namespace pair_staging

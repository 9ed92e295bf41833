// A header that declares a kernel file's dynamic shared memory, as libraries do: the kernel
// file that includes it declares no extern __shared__ array of its own. Aligned as a 128-byte
// swizzled tensor copy needs its destination (1024 bytes), with alignas after __shared__.
#pragma once

namespace guide_staging {

extern __shared__ alignas(1024) unsigned char staging[];

// The dynamic shared memory as `count` floats.
__device__ inline float* staging_floats() { return reinterpret_cast<float*>(staging); }

}  // namespace guide_staging

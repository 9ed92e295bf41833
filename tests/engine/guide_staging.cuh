// A header that declares a kernel file's dynamic shared memory, as libraries do: the kernel
// file that includes it declares no extern __shared__ array of its own. Aligned as a 128-byte
// swizzled tensor copy needs its destination (1024 bytes). (nvcc 13.0 refuses alignas between
// extern __shared__ and the type, "attribute does not apply to any entity"; it takes it first.)
#pragma once

namespace guide_staging {

alignas(1024) extern __shared__ unsigned char staging[];

// The dynamic shared memory as `count` floats.
__device__ inline float* staging_floats() { return reinterpret_cast<float*>(staging); }

}  // namespace guide_staging

// Broken on purpose: the matrix descriptors say 64-byte swizzle while the tensor maps lay the
// tiles out with 128-byte swizzle. Expected finding: descriptor and tensor map disagree.
//
// Checker: (no options)
// Expect: Descriptor and tensor map disagree
// Needs: instrumented kernels
//
// Change to solutions/p12_tma_wgmma.cu:
// --- solutions/p12_tma_wgmma.cu
// +++ p12_descriptor_64b_swizzle.cu
// @@ -85,7 +85,7 @@
//  // the 128-byte swizzle (mode 1), in wgmma's bit fields.
//  __device__ __forceinline__ uint64_t descriptor(const void* start, uint32_t leading, uint32_t stride) {
//    return uint64_t((shared_address(start) & 0x3FFFF) >> 4) | (uint64_t((leading & 0x3FFFF) >> 4) << 16) |
// -         (uint64_t((stride & 0x3FFFF) >> 4) << 32) | (uint64_t(1) << 62);
// +         (uint64_t((stride & 0x3FFFF) >> 4) << 32) | (uint64_t(2) << 62);
//  }
//
//  __device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }

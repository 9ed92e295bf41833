// The CPU backend's tensor map: what cuTensorMapEncodeTiled was given, kept in the 128 bytes
// of a CUtensorMap (the GPU's own encoding is the driver's secret). The engine's tensor
// copies (cp.async.bulk.tensor) read it; cuda_cpu/compat/cuda.h's cuTensorMapEncodeTiled
// writes it, after the driver's own checks.
#ifndef CUDA_CPU_TENSOR_MAP_H_
#define CUDA_CPU_TENSOR_MAP_H_

#include <cstdint>

namespace cuda_cpu {

inline constexpr std::uint32_t kTensorMapMagic = 0x504D5454;  // "TTMP"

struct EmulatedTensorMap {
  std::uint32_t magic;
  std::uint8_t data_type;      // CUtensorMapDataType
  std::uint8_t rank;           // 1 .. 5
  std::uint8_t swizzle_bytes;  // 0 (none), 32, 64, 128
  std::uint8_t element_bytes;
  std::uint8_t interleave, l2_promotion, oob_fill, unused;
  std::uint64_t global_address;
  std::uint32_t dims[5];          // elements; dims[0] is the contiguous one
  std::uint64_t strides[5];       // bytes between consecutive indices of each dimension; strides[0] = element size
  std::uint16_t box[5];           // elements per dimension
  std::uint8_t element_strides[5];
};
static_assert(sizeof(EmulatedTensorMap) <= 128, "a tensor map is 128 bytes");

// cuTensorMapEncodeTiled's checks and encoding, as the CUDA driver API documents them.
// Returns 0 (CUDA_SUCCESS) or 1 (CUDA_ERROR_INVALID_VALUE), and in `why` the rule broken.
int encode_tensor_map(void* map, unsigned data_type, unsigned rank, const void* global_address,
                      const std::uint64_t* global_dims, const std::uint64_t* global_strides, const std::uint32_t* box,
                      const std::uint32_t* element_strides, unsigned interleave, unsigned swizzle,
                      unsigned l2_promotion, unsigned oob_fill, const char** why);

}  // namespace cuda_cpu

#endif  // CUDA_CPU_TENSOR_MAP_H_

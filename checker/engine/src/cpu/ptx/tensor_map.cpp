// cuTensorMapEncodeTiled on the CPU backend (cuda_cpu/tensor_map.h): the checks that CUDA's
// driver API documents for it, and the map that the engine's tensor copies read.
#include "cuda_cpu/tensor_map.h"

#include <cstring>

namespace {

unsigned element_bytes(unsigned data_type) {
  switch (data_type) {
    case 0: return 1;              // UINT8
    case 1: return 2;              // UINT16
    case 2: case 3: return 4;      // UINT32, INT32
    case 4: case 5: return 8;      // UINT64, INT64
    case 6: return 2;              // FLOAT16
    case 7: return 4;              // FLOAT32
    case 8: return 8;              // FLOAT64
    case 9: return 2;              // BFLOAT16
    case 10: case 11: case 12: return 4;  // FLOAT32_FTZ, TFLOAT32, TFLOAT32_FTZ
    default: return 0;
  }
}

int refuse(const char** why, const char* rule) {
  if (why) *why = rule;
  return 1;  // CUDA_ERROR_INVALID_VALUE
}

}  // namespace

int cuda_cpu::encode_tensor_map(void* map, unsigned data_type, unsigned rank, const void* global_address,
                                const std::uint64_t* global_dims, const std::uint64_t* global_strides,
                                const std::uint32_t* box, const std::uint32_t* element_strides, unsigned interleave,
                                unsigned swizzle, unsigned l2_promotion, unsigned oob_fill, const char** why) {
  if (!map) return refuse(why, "the tensor map pointer is null");
  unsigned bytes = element_bytes(data_type);
  if (bytes == 0) return refuse(why, "the data type is not one of CUtensorMapDataType's");
  if (rank < 1 || rank > 5) return refuse(why, "the rank must be 1 to 5");
  if (interleave > 2 || swizzle > 3 || l2_promotion > 3 || oob_fill > 1)
    return refuse(why, "interleave, swizzle, L2 promotion or out-of-bounds fill is not one of CUDA's values");
  if (interleave != 0 && rank < 3) return refuse(why, "an interleaved layout needs a rank of 3 or more");
  auto address = reinterpret_cast<std::uintptr_t>(global_address);
  if (address == 0 || address % (interleave == 2 ? 32 : 16) != 0)
    return refuse(why, "the global address must be 16-byte aligned (32 with 32-byte interleave)");
  EmulatedTensorMap m{};
  m.magic = kTensorMapMagic;
  m.data_type = static_cast<std::uint8_t>(data_type);
  m.rank = static_cast<std::uint8_t>(rank);
  m.element_bytes = static_cast<std::uint8_t>(bytes);
  m.interleave = static_cast<std::uint8_t>(interleave);
  m.l2_promotion = static_cast<std::uint8_t>(l2_promotion);
  m.oob_fill = static_cast<std::uint8_t>(oob_fill);
  m.swizzle_bytes = static_cast<std::uint8_t>(swizzle == 0 ? 0 : 16u << swizzle);
  m.global_address = address;
  for (unsigned i = 0; i < rank; ++i) {
    if (global_dims[i] == 0 || global_dims[i] > (std::uint64_t{1} << 32))
      return refuse(why, "every global dimension must be 1 to 2^32");
    m.dims[i] = static_cast<std::uint32_t>(global_dims[i] - 1) + 1;
    if (box[i] == 0 || box[i] > 256) return refuse(why, "every box dimension must be 1 to 256");
    m.box[i] = static_cast<std::uint16_t>(box[i]);
    if (element_strides[i] == 0 || element_strides[i] > 8) return refuse(why, "every element stride must be 1 to 8");
    m.element_strides[i] = static_cast<std::uint8_t>(element_strides[i]);
  }
  m.strides[0] = bytes;
  for (unsigned i = 1; i < rank; ++i) {
    std::uint64_t stride = global_strides[i - 1];
    if (stride % 16 != 0 || stride >= (std::uint64_t{1} << 40))
      return refuse(why, "every global stride must be a multiple of 16 bytes, below 2^40");
    // Strides need not grow with the dimension: a row-major matrix viewed as blocks of 64
    // columns ({64, rows, blocks}, block stride 128 bytes) is a map the driver accepts.
    m.strides[i] = stride;
  }
  if (interleave == 0) {
    if ((m.box[0] * bytes) % 16 != 0) return refuse(why, "the box's inner dimension must span a multiple of 16 bytes");
    if (m.swizzle_bytes && m.box[0] * bytes > m.swizzle_bytes)
      return refuse(why, "the box's inner dimension spans more bytes than the swizzle (32, 64 or 128)");
  }
  static_assert(sizeof(EmulatedTensorMap) <= 128, "a tensor map is 128 bytes");
  std::memset(map, 0, 128);
  std::memcpy(map, &m, sizeof m);
  if (why) *why = nullptr;
  return 0;
}

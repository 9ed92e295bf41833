// CUDA's built-in vector types for the CPU backend, with CUDA's sizes and alignments.
//
// The 16-byte types (float4, int4, uint4, double2, ...) copy themselves with one 16-byte
// vector load and store, as nvcc's LDG.128 / LDS.128 do. A plain struct copy would leave
// the access's shape to the optimizer (four 4-byte loads, or a memcpy), and the engine's
// checks (alignment, bank conflicts per warp request) need the shape the kernel wrote.
// The price: they are not aggregates, so float4{1, 2, 3, 4} uses a constructor.
#ifndef CUDA_CPU_VECTOR_TYPES_H_
#define CUDA_CPU_VECTOR_TYPES_H_

struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

#define CUDA_CPU_VECTOR1(T, name)                                                         \
  struct name {                                                                           \
    T x;                                                                                  \
  };                                                                                      \
  inline constexpr name make_##name(T x) { return name{x}; }
#define CUDA_CPU_VECTOR2(T, name, align)                                                  \
  struct alignas(align) name {                                                            \
    T x, y;                                                                               \
  };                                                                                      \
  inline constexpr name make_##name(T x, T y) { return name{x, y}; }
#define CUDA_CPU_VECTOR3(T, name)                                                         \
  struct name {                                                                           \
    T x, y, z;                                                                            \
  };                                                                                      \
  inline constexpr name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define CUDA_CPU_VECTOR4(T, name, align)                                                  \
  struct alignas(align) name {                                                            \
    T x, y, z, w;                                                                         \
  };                                                                                      \
  inline constexpr name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }

// One 16-byte load and store per copy (see the top of this file).
#define CUDA_CPU_WIDE_COPY(name)                                                          \
  name() = default;                                                                       \
  name(const name& o) noexcept { cuda_cpu_copy16(this, &o); }                             \
  name& operator=(const name& o) noexcept {                                               \
    cuda_cpu_copy16(this, &o);                                                            \
    return *this;                                                                         \
  }
#define CUDA_CPU_VECTOR4_WIDE(T, name)                                                    \
  struct alignas(16) name {                                                               \
    T x, y, z, w;                                                                         \
    constexpr name(T vx, T vy, T vz, T vw) : x(vx), y(vy), z(vz), w(vw) {}                \
    CUDA_CPU_WIDE_COPY(name)                                                              \
  };                                                                                      \
  inline name make_##name(T x, T y, T z, T w) { return name(x, y, z, w); }
#define CUDA_CPU_VECTOR2_WIDE(T, name)                                                    \
  struct alignas(16) name {                                                               \
    T x, y;                                                                               \
    constexpr name(T vx, T vy) : x(vx), y(vy) {}                                          \
    CUDA_CPU_WIDE_COPY(name)                                                              \
  };                                                                                      \
  inline name make_##name(T x, T y) { return name(x, y); }

typedef float cuda_cpu_v4sf __attribute__((vector_size(16), aligned(16)));
inline void cuda_cpu_copy16(void* to, const void* from) {
  *static_cast<cuda_cpu_v4sf*>(to) = *static_cast<const cuda_cpu_v4sf*>(from);
}

CUDA_CPU_VECTOR1(char, char1)
CUDA_CPU_VECTOR2(char, char2, 2)
CUDA_CPU_VECTOR3(char, char3)
CUDA_CPU_VECTOR4(char, char4, 4)
CUDA_CPU_VECTOR1(unsigned char, uchar1)
CUDA_CPU_VECTOR2(unsigned char, uchar2, 2)
CUDA_CPU_VECTOR3(unsigned char, uchar3)
CUDA_CPU_VECTOR4(unsigned char, uchar4, 4)
CUDA_CPU_VECTOR1(short, short1)
CUDA_CPU_VECTOR2(short, short2, 4)
CUDA_CPU_VECTOR3(short, short3)
CUDA_CPU_VECTOR4(short, short4, 8)
CUDA_CPU_VECTOR1(unsigned short, ushort1)
CUDA_CPU_VECTOR2(unsigned short, ushort2, 4)
CUDA_CPU_VECTOR3(unsigned short, ushort3)
CUDA_CPU_VECTOR4(unsigned short, ushort4, 8)
CUDA_CPU_VECTOR1(int, int1)
CUDA_CPU_VECTOR2(int, int2, 8)
CUDA_CPU_VECTOR3(int, int3)
CUDA_CPU_VECTOR4_WIDE(int, int4)
CUDA_CPU_VECTOR1(unsigned int, uint1)
CUDA_CPU_VECTOR2(unsigned int, uint2, 8)
CUDA_CPU_VECTOR4_WIDE(unsigned int, uint4)
CUDA_CPU_VECTOR1(float, float1)
CUDA_CPU_VECTOR2(float, float2, 8)
CUDA_CPU_VECTOR3(float, float3)
CUDA_CPU_VECTOR4_WIDE(float, float4)
CUDA_CPU_VECTOR1(long long, longlong1)
CUDA_CPU_VECTOR2_WIDE(long long, longlong2)
CUDA_CPU_VECTOR1(unsigned long long, ulonglong1)
CUDA_CPU_VECTOR2_WIDE(unsigned long long, ulonglong2)
CUDA_CPU_VECTOR1(double, double1)
CUDA_CPU_VECTOR2_WIDE(double, double2)
CUDA_CPU_VECTOR3(double, double3)
CUDA_CPU_VECTOR4(double, double4, 16)
CUDA_CPU_VECTOR3(long long, longlong3)
CUDA_CPU_VECTOR4(long long, longlong4, 16)
CUDA_CPU_VECTOR3(unsigned long long, ulonglong3)
CUDA_CPU_VECTOR4(unsigned long long, ulonglong4, 16)
CUDA_CPU_VECTOR1(long, long1)
CUDA_CPU_VECTOR2(long, long2, 2 * sizeof(long))
CUDA_CPU_VECTOR3(long, long3)
CUDA_CPU_VECTOR4(long, long4, 16)
CUDA_CPU_VECTOR1(unsigned long, ulong1)
CUDA_CPU_VECTOR2(unsigned long, ulong2, 2 * sizeof(unsigned long))
CUDA_CPU_VECTOR3(unsigned long, ulong3)
CUDA_CPU_VECTOR4(unsigned long, ulong4, 16)

namespace cuda_cpu {
// The vector types above that copy themselves (CUDA_CPU_WIDE_COPY): bytes only, like CUDA's.
template <typename T>
struct is_wide_vector {
  static constexpr bool value = false;
};
#define CUDA_CPU_WIDE(name)               \
  template <>                             \
  struct is_wide_vector<name> {           \
    static constexpr bool value = true;   \
  };
CUDA_CPU_WIDE(int4)
CUDA_CPU_WIDE(uint4)
CUDA_CPU_WIDE(float4)
CUDA_CPU_WIDE(longlong2)
CUDA_CPU_WIDE(ulonglong2)
CUDA_CPU_WIDE(double2)
#undef CUDA_CPU_WIDE
}  // namespace cuda_cpu

inline constexpr uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }
inline constexpr dim3 make_dim3(unsigned int x, unsigned int y, unsigned int z) { return dim3(x, y, z); }

#undef CUDA_CPU_VECTOR1
#undef CUDA_CPU_VECTOR2
#undef CUDA_CPU_VECTOR3
#undef CUDA_CPU_VECTOR4
#undef CUDA_CPU_VECTOR4_WIDE
#undef CUDA_CPU_VECTOR2_WIDE
#undef CUDA_CPU_WIDE_COPY

#endif  // CUDA_CPU_VECTOR_TYPES_H_

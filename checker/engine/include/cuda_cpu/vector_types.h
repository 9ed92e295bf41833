// CUDA's built-in vector types for the CPU backend, with CUDA's sizes and alignments, so
// that a float4 load is one 16-byte load here too.
#pragma once

struct uint3 { unsigned int x, y, z; };

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

#define CUDA_CPU_VECTOR2(T, name, align)                                    \
  struct alignas(align) name { T x, y; };                                   \
  inline constexpr name make_##name(T x, T y) { return name{x, y}; }
#define CUDA_CPU_VECTOR3(T, name)                                           \
  struct name { T x, y, z; };                                               \
  inline constexpr name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define CUDA_CPU_VECTOR4(T, name, align)                                    \
  struct alignas(align) name { T x, y, z, w; };                             \
  inline constexpr name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }

CUDA_CPU_VECTOR2(float, float2, 8)
CUDA_CPU_VECTOR3(float, float3)
CUDA_CPU_VECTOR4(float, float4, 16)
CUDA_CPU_VECTOR2(int, int2, 8)
CUDA_CPU_VECTOR3(int, int3)
CUDA_CPU_VECTOR4(int, int4, 16)
CUDA_CPU_VECTOR2(unsigned int, uint2, 8)
CUDA_CPU_VECTOR4(unsigned int, uint4, 16)
CUDA_CPU_VECTOR2(double, double2, 16)
inline constexpr uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) {
  return uint3{x, y, z};
}

#undef CUDA_CPU_VECTOR2
#undef CUDA_CPU_VECTOR3
#undef CUDA_CPU_VECTOR4

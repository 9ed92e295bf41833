// The device half of the project's arithmetic: scaled() for saxpy.cu, and a kernel that runs
// CUDA's integer intrinsics so that main.cpp can compare them with what CUDA documents.
#include "vector_ops.cuh"

__device__ float scaled(float a, float x) { return a * x; }

__global__ void integer_intrinsics(unsigned long long* out) {
  out[0] = __clzll(0x00F0000000000000LL);
  out[1] = __ffsll(0x100LL);
  out[2] = __byte_perm(0x33221100u, 0x77665544u, 0x0123u);
  out[3] = __funnelshift_l(0x80000000u, 0x1u, 4);
  out[4] = __funnelshift_r(0x80000000u, 0x1u, 4);
  out[5] = __brevll(1ULL);
  out[6] = __umul64hi(1ULL << 62, 8ULL);
  out[7] = __sad(3, 10, 5u);
  out[8] = __rhadd(5, 8);
  out[9] = __umul24(0x1000001u, 3u);
}

int integer_intrinsics_on_device(unsigned long long* out, int count) {
  if (count < 10) return -1;
  integer_intrinsics<<<1, 1>>>(out);
  return static_cast<int>(cudaDeviceSynchronize());
}

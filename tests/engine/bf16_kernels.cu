// bfloat16 kernels: a bit-for-bit comparison of the two backends (the GPU runs CUDA's own
// <cuda_bf16.h>, the CPU backend the engine's), and a warp reduction that runs in every
// thread order. The comparison kernels read raw bit patterns, apply a fixed list of
// operations to each element and write the results' bits; each walks its elements with a
// grid-stride loop. Output element i occupies out[i * N .. i * N + N - 1], N given below.
//
// Deliberately absent: `__hadd(__hmul(a, b), c)` and `a * b + c`, which ptxas may fuse into
// one fma on the GPU; entry 30 of bf16_ops uses the _rn forms, which are never fused.
#include <cuda_bf16.h>

constexpr int kBf16Ops = 35;        // results per element of bf16_ops
constexpr int kFloatToBf16 = 6;     // results per element of float_to_bf16
constexpr int kBf16ToInt = 26;      // results per element of bf16_to_int
constexpr int kIntToBf16 = 16;      // results per element of int_to_bf16
constexpr int kBf162Ops = 16;       // results per element of bf162_ops

__device__ inline unsigned short bf16_bits(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }

__device__ inline __nv_bfloat162 bf16_unpack2(unsigned int v) {
  return __halves2bfloat162(__ushort_as_bfloat16(static_cast<unsigned short>(v & 0xFFFFu)),
                            __ushort_as_bfloat16(static_cast<unsigned short>(v >> 16)));
}

__device__ inline unsigned int bf16_pack2(__nv_bfloat162 h) {
  return static_cast<unsigned int>(__bfloat16_as_ushort(__low2bfloat16(h))) |
         (static_cast<unsigned int>(__bfloat16_as_ushort(__high2bfloat16(h))) << 16);
}

// Scalar arithmetic, comparisons and rounding on x[i], y[i], z[i] (as bfloat16s: a, b, c).
//   0 __hadd(a,b)      1 __hsub(a,b)      2 __hmul(a,b)      3 __hdiv(a,b)
//   4 __hfma(a,b,c)    5 __hadd_rn(a,b)   6 __hsub_rn(a,b)   7 __hmul_rn(a,b)
//   8 __hadd_sat(a,b)  9 __hsub_sat(a,b) 10 __hmul_sat(a,b) 11 __hfma_sat(a,b,c)
//  12 __hfma_relu(a,b,c)                 13 __hmax(a,b)     14 __hmin(a,b)
//  15 __hmax_nan(a,b) 16 __hmin_nan(a,b) 17 __hneg(a)       18 __habs(a)
//  19 a + b           20 a - b           21 a * b           22 a / b
//  23 -a              24 intrinsic comparison bits (below)  25 operator comparison bits
//  26 htrunc(a)       27 hceil(a)        28 hfloor(a)       29 hrint(a)
//  30 __hadd_rn(__hmul_rn(a,b),c)        31 __half(a) (half bits)
//  32 __nv_bfloat16(x[i] read as a __half)                  33, 34 float(a): low, high 16 bits
// Entry 24, bit k: __heq __hne __hlt __hle __hgt __hge __hequ __hneu __hltu __hleu __hgtu
// __hgeu (k = 0..11) of (a, b), then __hisnan(a) (12), __hisinf(a) == 1 (13), == -1 (14).
// Entry 25, bit k: a == b, a != b, a < b, a <= b, a > b, a >= b (k = 0..5), bool(a) (6).
__global__ void bf16_ops(const unsigned short* x, const unsigned short* y, const unsigned short* z,
                         unsigned short* out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const __nv_bfloat16 a = __ushort_as_bfloat16(x[i]);
    const __nv_bfloat16 b = __ushort_as_bfloat16(y[i]);
    const __nv_bfloat16 c = __ushort_as_bfloat16(z[i]);
    unsigned short* o = out + static_cast<long long>(i) * kBf16Ops;
    o[0] = bf16_bits(__hadd(a, b));
    o[1] = bf16_bits(__hsub(a, b));
    o[2] = bf16_bits(__hmul(a, b));
    o[3] = bf16_bits(__hdiv(a, b));
    o[4] = bf16_bits(__hfma(a, b, c));
    o[5] = bf16_bits(__hadd_rn(a, b));
    o[6] = bf16_bits(__hsub_rn(a, b));
    o[7] = bf16_bits(__hmul_rn(a, b));
    o[8] = bf16_bits(__hadd_sat(a, b));
    o[9] = bf16_bits(__hsub_sat(a, b));
    o[10] = bf16_bits(__hmul_sat(a, b));
    o[11] = bf16_bits(__hfma_sat(a, b, c));
    o[12] = bf16_bits(__hfma_relu(a, b, c));
    o[13] = bf16_bits(__hmax(a, b));
    o[14] = bf16_bits(__hmin(a, b));
    o[15] = bf16_bits(__hmax_nan(a, b));
    o[16] = bf16_bits(__hmin_nan(a, b));
    o[17] = bf16_bits(__hneg(a));
    o[18] = bf16_bits(__habs(a));
    o[19] = bf16_bits(a + b);
    o[20] = bf16_bits(a - b);
    o[21] = bf16_bits(a * b);
    o[22] = bf16_bits(a / b);
    o[23] = bf16_bits(-a);
    const bool cmp[15] = {__heq(a, b),  __hne(a, b),  __hlt(a, b),  __hle(a, b),  __hgt(a, b),
                          __hge(a, b),  __hequ(a, b), __hneu(a, b), __hltu(a, b), __hleu(a, b),
                          __hgtu(a, b), __hgeu(a, b), __hisnan(a),  __hisinf(a) == 1, __hisinf(a) == -1};
    unsigned short bits = 0;
    for (int k = 0; k < 15; ++k) bits = static_cast<unsigned short>(bits | (cmp[k] ? 1u << k : 0u));
    o[24] = bits;
    const bool ops[7] = {a == b, a != b, a < b, a <= b, a > b, a >= b, static_cast<bool>(a)};
    bits = 0;
    for (int k = 0; k < 7; ++k) bits = static_cast<unsigned short>(bits | (ops[k] ? 1u << k : 0u));
    o[25] = bits;
    o[26] = bf16_bits(htrunc(a));
    o[27] = bf16_bits(hceil(a));
    o[28] = bf16_bits(hfloor(a));
    o[29] = bf16_bits(hrint(a));
    o[30] = bf16_bits(__hadd_rn(__hmul_rn(a, b), c));
    o[31] = __half_as_ushort(__half(a));
    o[32] = bf16_bits(__nv_bfloat16(__ushort_as_half(x[i])));
    const unsigned int f = __float_as_uint(__bfloat162float(a));
    o[33] = static_cast<unsigned short>(f & 0xFFFFu);
    o[34] = static_cast<unsigned short>(f >> 16);
  }
}

// float bits -> bf16: _rn, _rz, _rd, _ru, the implicit conversion, and the double of the
// float's value with two more low bits set (so that it is not a float: one rounding).
__global__ void float_to_bf16(const unsigned int* in, unsigned short* out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const float f = __uint_as_float(in[i]);
    unsigned short* o = out + static_cast<long long>(i) * kFloatToBf16;
    o[0] = bf16_bits(__float2bfloat16_rn(f));
    o[1] = bf16_bits(__float2bfloat16_rz(f));
    o[2] = bf16_bits(__float2bfloat16_rd(f));
    o[3] = bf16_bits(__float2bfloat16_ru(f));
    const __nv_bfloat16 implicit = f;
    o[4] = bf16_bits(implicit);
    const long long d = __double_as_longlong(static_cast<double>(f)) | 0x3LL;
    o[5] = bf16_bits(__double2bfloat16(__longlong_as_double(d)));
  }
}

// bf16 -> integers: int, uint, short, ushort, ll, ull in _rn, _rz, _rd, _ru (entries 0..23),
// then char_rz and uchar_rz; each widened to 64 bits.
__global__ void bf16_to_int(const unsigned short* x, unsigned long long* out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const __nv_bfloat16 a = __ushort_as_bfloat16(x[i]);
    unsigned long long* o = out + static_cast<long long>(i) * kBf16ToInt;
    o[0] = static_cast<unsigned long long>(__bfloat162int_rn(a));
    o[1] = static_cast<unsigned long long>(__bfloat162int_rz(a));
    o[2] = static_cast<unsigned long long>(__bfloat162int_rd(a));
    o[3] = static_cast<unsigned long long>(__bfloat162int_ru(a));
    o[4] = __bfloat162uint_rn(a);
    o[5] = __bfloat162uint_rz(a);
    o[6] = __bfloat162uint_rd(a);
    o[7] = __bfloat162uint_ru(a);
    o[8] = static_cast<unsigned long long>(__bfloat162short_rn(a));
    o[9] = static_cast<unsigned long long>(__bfloat162short_rz(a));
    o[10] = static_cast<unsigned long long>(__bfloat162short_rd(a));
    o[11] = static_cast<unsigned long long>(__bfloat162short_ru(a));
    o[12] = __bfloat162ushort_rn(a);
    o[13] = __bfloat162ushort_rz(a);
    o[14] = __bfloat162ushort_rd(a);
    o[15] = __bfloat162ushort_ru(a);
    o[16] = static_cast<unsigned long long>(__bfloat162ll_rn(a));
    o[17] = static_cast<unsigned long long>(__bfloat162ll_rz(a));
    o[18] = static_cast<unsigned long long>(__bfloat162ll_rd(a));
    o[19] = static_cast<unsigned long long>(__bfloat162ll_ru(a));
    o[20] = __bfloat162ull_rn(a);
    o[21] = __bfloat162ull_rz(a);
    o[22] = __bfloat162ull_rd(a);
    o[23] = __bfloat162ull_ru(a);
    o[24] = static_cast<unsigned long long>(__bfloat162char_rz(a));
    o[25] = static_cast<unsigned long long>(__bfloat162uchar_rz(a));
  }
}

// Integers -> bf16 in _rn, _rz, _rd, _ru: int and unsigned int of in32[i], long long and
// unsigned long long of in64[i].
__global__ void int_to_bf16(const unsigned int* in32, const unsigned long long* in64, unsigned short* out,
                            int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const int s = static_cast<int>(in32[i]);
    const unsigned int u = in32[i];
    const long long sl = static_cast<long long>(in64[i]);
    const unsigned long long ul = in64[i];
    unsigned short* o = out + static_cast<long long>(i) * kIntToBf16;
    o[0] = bf16_bits(__int2bfloat16_rn(s));
    o[1] = bf16_bits(__int2bfloat16_rz(s));
    o[2] = bf16_bits(__int2bfloat16_rd(s));
    o[3] = bf16_bits(__int2bfloat16_ru(s));
    o[4] = bf16_bits(__uint2bfloat16_rn(u));
    o[5] = bf16_bits(__uint2bfloat16_rz(u));
    o[6] = bf16_bits(__uint2bfloat16_rd(u));
    o[7] = bf16_bits(__uint2bfloat16_ru(u));
    o[8] = bf16_bits(__ll2bfloat16_rn(sl));
    o[9] = bf16_bits(__ll2bfloat16_rz(sl));
    o[10] = bf16_bits(__ll2bfloat16_rd(sl));
    o[11] = bf16_bits(__ll2bfloat16_ru(sl));
    o[12] = bf16_bits(__ull2bfloat16_rn(ul));
    o[13] = bf16_bits(__ull2bfloat16_rz(ul));
    o[14] = bf16_bits(__ull2bfloat16_rd(ul));
    o[15] = bf16_bits(__ull2bfloat16_ru(ul));
  }
}

// __nv_bfloat162 lanes: x, y, z hold two bfloat16s each (low lane in the low bits).
//   0 __hadd2  1 __hsub2  2 __hmul2  3 __h2div  4 __hfma2  5 __hfma2_relu  6 __hmax2
//   7 __hmin2  8 __hmax2_nan  9 __hneg2  10 __habs2  11 __hlt2  12 __hlt2_mask
//  13 __hbltu2 (0 or 1)  14 __floats2bfloat162_rn(low2float(a) + 1, high2float(b))
//  15 __lowhigh2highlow(a) + b
__global__ void bf162_ops(const unsigned int* x, const unsigned int* y, const unsigned int* z, unsigned int* out,
                          int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const __nv_bfloat162 a = bf16_unpack2(x[i]);
    const __nv_bfloat162 b = bf16_unpack2(y[i]);
    const __nv_bfloat162 c = bf16_unpack2(z[i]);
    unsigned int* o = out + static_cast<long long>(i) * kBf162Ops;
    o[0] = bf16_pack2(__hadd2(a, b));
    o[1] = bf16_pack2(__hsub2(a, b));
    o[2] = bf16_pack2(__hmul2(a, b));
    o[3] = bf16_pack2(__h2div(a, b));
    o[4] = bf16_pack2(__hfma2(a, b, c));
    o[5] = bf16_pack2(__hfma2_relu(a, b, c));
    o[6] = bf16_pack2(__hmax2(a, b));
    o[7] = bf16_pack2(__hmin2(a, b));
    o[8] = bf16_pack2(__hmax2_nan(a, b));
    o[9] = bf16_pack2(__hneg2(a));
    o[10] = bf16_pack2(__habs2(a));
    o[11] = bf16_pack2(__hlt2(a, b));
    o[12] = __hlt2_mask(a, b);
    o[13] = __hbltu2(a, b) ? 1u : 0u;
    o[14] = bf16_pack2(__floats2bfloat162_rn(__low2float(a) + 1.0f, __high2float(b)));
    o[15] = bf16_pack2(__lowhigh2highlow(a) + b);
  }
}

// Each warp: lane l holds the pair (x[2t], x[2t+1]) * (y[2t], y[2t+1]) of its thread t,
// stored through shared memory, accumulated with __hfma2, then summed across the warp with
// __shfl_xor_sync of __nv_bfloat162 and __nv_bfloat16. out[warp] is the warp's sum.
__global__ void bf16_warp_dot(const __nv_bfloat16* x, const __nv_bfloat16* y, __nv_bfloat16* out) {
  __shared__ __nv_bfloat162 products[256];
  const int t = threadIdx.x;
  const __nv_bfloat162 a = __halves2bfloat162(x[2 * t], x[2 * t + 1]);
  const __nv_bfloat162 b = __halves2bfloat162(y[2 * t], y[2 * t + 1]);
  products[t] = __hfma2(a, b, __float2bfloat162_rn(0.0f));
  __syncthreads();
  __nv_bfloat162 sum = products[t ^ 1];  // a neighbour's product, so that the barrier matters
  for (int offset = 16; offset > 1; offset /= 2) sum = __hadd2(sum, __shfl_xor_sync(0xFFFFFFFFu, sum, offset));
  __nv_bfloat16 total = __hadd(__low2bfloat16(sum), __high2bfloat16(sum));
  total = __hadd(total, __shfl_xor_sync(0xFFFFFFFFu, total, 1));
  if (t % 32 == 0) out[t / 32] = total;
}

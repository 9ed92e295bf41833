// Half-precision kernels for a bit-for-bit comparison of the two backends: the GPU runs
// CUDA's own <cuda_fp16.h>, the CPU backend our compat header. Every kernel reads raw bit
// patterns, applies a fixed list of operations to each element and writes the results'
// bits, so the two outputs must be identical byte for byte (NaNs included).
//
// Each kernel walks its elements with a grid-stride loop: any launch shape covers all
// `count` elements. Output element i occupies out[i * N .. i * N + N - 1], N given below.
//
// Deliberately absent: `__hadd(__hmul(a, b), c)` and `a * b + c` on halves. ptxas may fuse
// them into one fma on the GPU (PTX allows it for add/mul without .rn), the CPU backend
// never does; the _rn forms used in entry 33 of half_ops are never fused.
#include <cuda_fp16.h>

constexpr int kHalfOps = 34;         // results per element of half_ops
constexpr int kHalfConversions = 20; // results per element of half_conversions
constexpr int kFloatToHalf = 6;      // results per element of float_to_half
constexpr int kDoubleToHalf = 2;     // results per element of double_to_half
constexpr int kIntToHalf = 12;       // results per element of int_to_half
constexpr int kHalf2Ops = 32;        // results per element of half2_ops

__device__ inline unsigned short fp16_bits(__half h) { return __half_as_ushort(h); }

__device__ inline __half2 fp16_unpack2(unsigned int v) {
  return __halves2half2(__ushort_as_half(static_cast<unsigned short>(v & 0xFFFFu)),
                        __ushort_as_half(static_cast<unsigned short>(v >> 16)));
}

__device__ inline unsigned int fp16_pack2(__half2 h) {
  return static_cast<unsigned int>(__half_as_ushort(__low2half(h))) |
         (static_cast<unsigned int>(__half_as_ushort(__high2half(h))) << 16);
}

// Scalar arithmetic, comparisons and rounding on x[i], y[i], z[i] (as halves: a, b, c).
//   0 __hadd(a,b)      1 __hsub(a,b)      2 __hmul(a,b)      3 __hdiv(a,b)
//   4 __hfma(a,b,c)    5 __hadd_rn(a,b)   6 __hsub_rn(a,b)   7 __hmul_rn(a,b)
//   8 __hadd_sat(a,b)  9 __hsub_sat(a,b) 10 __hmul_sat(a,b) 11 __hfma_sat(a,b,c)
//  12 __hfma_relu(a,b,c)                 13 __hmax(a,b)     14 __hmin(a,b)
//  15 __hmax_nan(a,b) 16 __hmin_nan(a,b) 17 __hneg(a)       18 __habs(a)
//  19 a + b           20 a - b           21 a * b           22 a / b
//  23 -a              24 intrinsic comparison bits (below)  25 operator comparison bits
//  26 hsqrt(a)        27 hrsqrt(a)       28 hrcp(a)         29 htrunc(a)
//  30 hceil(a)        31 hfloor(a)       32 hrint(a)        33 __hadd_rn(__hmul_rn(a,b),c)
// Entry 24, bit k: __heq __hne __hlt __hle __hgt __hge __hequ __hneu __hltu __hleu __hgtu
// __hgeu (k = 0..11) of (a, b), then __hisnan(a) (12), __hisinf(a) == 1 (13), == -1 (14).
// Entry 25, bit k: a == b, a != b, a < b, a <= b, a > b, a >= b (k = 0..5), bool(a) (6).
__global__ void half_ops(const unsigned short* x, const unsigned short* y,
                         const unsigned short* z, unsigned short* out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += gridDim.x * blockDim.x) {
    const __half a = __ushort_as_half(x[i]);
    const __half b = __ushort_as_half(y[i]);
    const __half c = __ushort_as_half(z[i]);
    unsigned short* o = out + static_cast<long long>(i) * kHalfOps;
    o[0] = fp16_bits(__hadd(a, b));
    o[1] = fp16_bits(__hsub(a, b));
    o[2] = fp16_bits(__hmul(a, b));
    o[3] = fp16_bits(__hdiv(a, b));
    o[4] = fp16_bits(__hfma(a, b, c));
    o[5] = fp16_bits(__hadd_rn(a, b));
    o[6] = fp16_bits(__hsub_rn(a, b));
    o[7] = fp16_bits(__hmul_rn(a, b));
    o[8] = fp16_bits(__hadd_sat(a, b));
    o[9] = fp16_bits(__hsub_sat(a, b));
    o[10] = fp16_bits(__hmul_sat(a, b));
    o[11] = fp16_bits(__hfma_sat(a, b, c));
    o[12] = fp16_bits(__hfma_relu(a, b, c));
    o[13] = fp16_bits(__hmax(a, b));
    o[14] = fp16_bits(__hmin(a, b));
    o[15] = fp16_bits(__hmax_nan(a, b));
    o[16] = fp16_bits(__hmin_nan(a, b));
    o[17] = fp16_bits(__hneg(a));
    o[18] = fp16_bits(__habs(a));
    o[19] = fp16_bits(a + b);
    o[20] = fp16_bits(a - b);
    o[21] = fp16_bits(a * b);
    o[22] = fp16_bits(a / b);
    o[23] = fp16_bits(-a);
    unsigned cmp = 0;
    cmp |= __heq(a, b) ? 1u << 0 : 0u;
    cmp |= __hne(a, b) ? 1u << 1 : 0u;
    cmp |= __hlt(a, b) ? 1u << 2 : 0u;
    cmp |= __hle(a, b) ? 1u << 3 : 0u;
    cmp |= __hgt(a, b) ? 1u << 4 : 0u;
    cmp |= __hge(a, b) ? 1u << 5 : 0u;
    cmp |= __hequ(a, b) ? 1u << 6 : 0u;
    cmp |= __hneu(a, b) ? 1u << 7 : 0u;
    cmp |= __hltu(a, b) ? 1u << 8 : 0u;
    cmp |= __hleu(a, b) ? 1u << 9 : 0u;
    cmp |= __hgtu(a, b) ? 1u << 10 : 0u;
    cmp |= __hgeu(a, b) ? 1u << 11 : 0u;
    cmp |= __hisnan(a) ? 1u << 12 : 0u;
    cmp |= __hisinf(a) == 1 ? 1u << 13 : 0u;
    cmp |= __hisinf(a) == -1 ? 1u << 14 : 0u;
    o[24] = static_cast<unsigned short>(cmp);
    unsigned ops = 0;
    ops |= (a == b) ? 1u << 0 : 0u;
    ops |= (a != b) ? 1u << 1 : 0u;
    ops |= (a < b) ? 1u << 2 : 0u;
    ops |= (a <= b) ? 1u << 3 : 0u;
    ops |= (a > b) ? 1u << 4 : 0u;
    ops |= (a >= b) ? 1u << 5 : 0u;
    ops |= static_cast<bool>(a) ? 1u << 6 : 0u;
    o[25] = static_cast<unsigned short>(ops);
    o[26] = fp16_bits(hsqrt(a));
    o[27] = fp16_bits(hrsqrt(a));
    o[28] = fp16_bits(hrcp(a));
    o[29] = fp16_bits(htrunc(a));
    o[30] = fp16_bits(hceil(a));
    o[31] = fp16_bits(hfloor(a));
    o[32] = fp16_bits(hrint(a));
    o[33] = fp16_bits(__hadd_rn(__hmul_rn(a, b), c));
  }
}

// Conversions out of half of x[i] (as a half h), each result as 32 bits.
//   0 float bits of __half2float(h)     1 __half2int_rn   2 __half2int_rz
//   3 __half2int_rd    4 __half2int_ru   5 __half2uint_rn  6 __half2uint_rz
//   7 __half2short_rz  8 __half2ushort_rz  9 __half2char_rz 10 __half2uchar_rz
//  11 low, 12 high 32 bits of __half2ll_rz  13 low, 14 high 32 bits of __half2ull_rz
//  15 (int)h (operator int)  16 float bits of (float)h (operator float)
//  17 float bits of __low2float(__half2half2(h))  18 __half2short_rn  19 __half2ll_rd (low)
// Signed results are stored as their two's-complement bits.
__global__ void half_conversions(const unsigned short* x, unsigned int* out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += gridDim.x * blockDim.x) {
    const __half h = __ushort_as_half(x[i]);
    unsigned int* o = out + static_cast<long long>(i) * kHalfConversions;
    o[0] = static_cast<unsigned int>(__float_as_int(__half2float(h)));
    o[1] = static_cast<unsigned int>(__half2int_rn(h));
    o[2] = static_cast<unsigned int>(__half2int_rz(h));
    o[3] = static_cast<unsigned int>(__half2int_rd(h));
    o[4] = static_cast<unsigned int>(__half2int_ru(h));
    o[5] = __half2uint_rn(h);
    o[6] = __half2uint_rz(h);
    o[7] = static_cast<unsigned int>(static_cast<unsigned short>(__half2short_rz(h)));
    o[8] = __half2ushort_rz(h);
    o[9] = static_cast<unsigned int>(static_cast<unsigned char>(__half2char_rz(h)));
    o[10] = __half2uchar_rz(h);
    const unsigned long long ll = static_cast<unsigned long long>(__half2ll_rz(h));
    o[11] = static_cast<unsigned int>(ll);
    o[12] = static_cast<unsigned int>(ll >> 32);
    const unsigned long long ull = __half2ull_rz(h);
    o[13] = static_cast<unsigned int>(ull);
    o[14] = static_cast<unsigned int>(ull >> 32);
    o[15] = static_cast<unsigned int>(static_cast<int>(h));
    o[16] = static_cast<unsigned int>(__float_as_int(static_cast<float>(h)));
    o[17] = static_cast<unsigned int>(__float_as_int(__low2float(__half2half2(h))));
    o[18] = static_cast<unsigned int>(static_cast<unsigned short>(__half2short_rn(h)));
    o[19] = static_cast<unsigned int>(static_cast<unsigned long long>(__half2ll_rd(h)));
  }
}

// float -> half of the float with bits f[i]:
//   0 __float2half  1 __float2half_rn  2 __float2half_rz  3 __float2half_rd
//   4 __float2half_ru  5 __half(float) (the converting constructor)
__global__ void float_to_half(const unsigned int* f, unsigned short* out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += gridDim.x * blockDim.x) {
    const float v = __int_as_float(static_cast<int>(f[i]));
    unsigned short* o = out + static_cast<long long>(i) * kFloatToHalf;
    o[0] = fp16_bits(__float2half(v));
    o[1] = fp16_bits(__float2half_rn(v));
    o[2] = fp16_bits(__float2half_rz(v));
    o[3] = fp16_bits(__float2half_rd(v));
    o[4] = fp16_bits(__float2half_ru(v));
    o[5] = fp16_bits(__half(v));
  }
}

// double -> half of the double with bits d[i]:  0 __double2half  1 __half(double)
__global__ void double_to_half(const unsigned long long* d, unsigned short* out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += gridDim.x * blockDim.x) {
    double v;
    memcpy(&v, &d[i], sizeof v);
    unsigned short* o = out + static_cast<long long>(i) * kDoubleToHalf;
    o[0] = fp16_bits(__double2half(v));
    o[1] = fp16_bits(__half(v));
  }
}

// integer -> half of v[i]:
//   0 __int2half_rn  1 __int2half_rz  2 __int2half_rd  3 __int2half_ru
//   4 __uint2half_rn((unsigned)v)  5 __uint2half_rz((unsigned)v)
//   6 __short2half_rn((short)v)  7 __ushort2half_rn((unsigned short)v)
//   8 __ll2half_rn(v * 2^20)  9 __ll2half_rd(v * 2^20)  10 __ull2half_ru((unsigned)v * 2^24)
//  11 __half(v) (the int constructor)
__global__ void int_to_half(const int* v, unsigned short* out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += gridDim.x * blockDim.x) {
    const int n = v[i];
    const unsigned int u = static_cast<unsigned int>(n);
    const long long big = static_cast<long long>(n) * (1ll << 20);
    unsigned short* o = out + static_cast<long long>(i) * kIntToHalf;
    o[0] = fp16_bits(__int2half_rn(n));
    o[1] = fp16_bits(__int2half_rz(n));
    o[2] = fp16_bits(__int2half_rd(n));
    o[3] = fp16_bits(__int2half_ru(n));
    o[4] = fp16_bits(__uint2half_rn(u));
    o[5] = fp16_bits(__uint2half_rz(u));
    o[6] = fp16_bits(__short2half_rn(static_cast<short>(n)));
    o[7] = fp16_bits(__ushort2half_rn(static_cast<unsigned short>(n)));
    o[8] = fp16_bits(__ll2half_rn(big));
    o[9] = fp16_bits(__ll2half_rd(big));
    o[10] = fp16_bits(__ull2half_ru(static_cast<unsigned long long>(u) << 24));
    o[11] = fp16_bits(__half(n));
  }
}

// __half2 operations on x[i], y[i], z[i] (each two halves, low half first: a, b, c).
//   0 __hadd2   1 __hsub2   2 __hmul2   3 __h2div   4 __hfma2(a,b,c)   5 __hneg2(a)
//   6 __habs2(a)  7 __hmax2  8 __hmin2  9 __hmax2_nan  10 __hmin2_nan  11 __hadd2_sat
//  12 __hfma2_sat  13 __hfma2_relu  14 a + b  15 a - b  16 a * b  17 a / b  18 -a
//  19 __heq2  20 __hltu2  21 __hle2_mask  22 __hgtu2_mask  23 __hisnan2(a)
//  24 bits: __hbeq2 __hbne2 __hblt2 __hble2 __hbgt2 __hbge2 __hbequ2 __hbneu2 __hbltu2
//     __hbleu2 __hbgtu2 __hbgeu2 (k = 0..11), a == b, a != b, a < b, a <= b, a > b,
//     a >= b (k = 12..17)
//  25 __lowhigh2highlow(a)  26 __halves2half2(__high2half(b), __low2half(c))
//  27 __lows2half2(a, b)  28 __highs2half2(a, b)  29 h2sqrt(a)  30 h2rcp(a)
//  31 __floats2half2_rn(__low2float(a), __high2float(b)) after __float22half2_rn round trip
__global__ void half2_ops(const unsigned int* x, const unsigned int* y, const unsigned int* z,
                          unsigned int* out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += gridDim.x * blockDim.x) {
    const __half2 a = fp16_unpack2(x[i]);
    const __half2 b = fp16_unpack2(y[i]);
    const __half2 c = fp16_unpack2(z[i]);
    unsigned int* o = out + static_cast<long long>(i) * kHalf2Ops;
    o[0] = fp16_pack2(__hadd2(a, b));
    o[1] = fp16_pack2(__hsub2(a, b));
    o[2] = fp16_pack2(__hmul2(a, b));
    o[3] = fp16_pack2(__h2div(a, b));
    o[4] = fp16_pack2(__hfma2(a, b, c));
    o[5] = fp16_pack2(__hneg2(a));
    o[6] = fp16_pack2(__habs2(a));
    o[7] = fp16_pack2(__hmax2(a, b));
    o[8] = fp16_pack2(__hmin2(a, b));
    o[9] = fp16_pack2(__hmax2_nan(a, b));
    o[10] = fp16_pack2(__hmin2_nan(a, b));
    o[11] = fp16_pack2(__hadd2_sat(a, b));
    o[12] = fp16_pack2(__hfma2_sat(a, b, c));
    o[13] = fp16_pack2(__hfma2_relu(a, b, c));
    o[14] = fp16_pack2(a + b);
    o[15] = fp16_pack2(a - b);
    o[16] = fp16_pack2(a * b);
    o[17] = fp16_pack2(a / b);
    o[18] = fp16_pack2(-a);
    o[19] = fp16_pack2(__heq2(a, b));
    o[20] = fp16_pack2(__hltu2(a, b));
    o[21] = __hle2_mask(a, b);
    o[22] = __hgtu2_mask(a, b);
    o[23] = fp16_pack2(__hisnan2(a));
    unsigned cmp = 0;
    cmp |= __hbeq2(a, b) ? 1u << 0 : 0u;
    cmp |= __hbne2(a, b) ? 1u << 1 : 0u;
    cmp |= __hblt2(a, b) ? 1u << 2 : 0u;
    cmp |= __hble2(a, b) ? 1u << 3 : 0u;
    cmp |= __hbgt2(a, b) ? 1u << 4 : 0u;
    cmp |= __hbge2(a, b) ? 1u << 5 : 0u;
    cmp |= __hbequ2(a, b) ? 1u << 6 : 0u;
    cmp |= __hbneu2(a, b) ? 1u << 7 : 0u;
    cmp |= __hbltu2(a, b) ? 1u << 8 : 0u;
    cmp |= __hbleu2(a, b) ? 1u << 9 : 0u;
    cmp |= __hbgtu2(a, b) ? 1u << 10 : 0u;
    cmp |= __hbgeu2(a, b) ? 1u << 11 : 0u;
    cmp |= (a == b) ? 1u << 12 : 0u;
    cmp |= (a != b) ? 1u << 13 : 0u;
    cmp |= (a < b) ? 1u << 14 : 0u;
    cmp |= (a <= b) ? 1u << 15 : 0u;
    cmp |= (a > b) ? 1u << 16 : 0u;
    cmp |= (a >= b) ? 1u << 17 : 0u;
    o[24] = cmp;
    o[25] = fp16_pack2(__lowhigh2highlow(a));
    o[26] = fp16_pack2(__halves2half2(__high2half(b), __low2half(c)));
    o[27] = fp16_pack2(__lows2half2(a, b));
    o[28] = fp16_pack2(__highs2half2(a, b));
    o[29] = fp16_pack2(h2sqrt(a));
    o[30] = fp16_pack2(h2rcp(a));
    const float2 f = __half22float2(__floats2half2_rn(__low2float(a), __high2float(b)));
    o[31] = fp16_pack2(__float22half2_rn(f));
  }
}

// Kernels that use the CUDA of fast kernels: warp functions, vector types, templates,
// dynamic shared memory above 48 KiB, asynchronous copies and tensor cores. The same file is
// compiled by nvcc and, unchanged, for the CPU backend; it includes what CUDA kernel files
// include, so that this compiles there too.
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <mma.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

// --- Warp functions ---------------------------------------------------------------------
// Per thread: 10 results of shuffles and votes on value = 3 * lane + warp.
__global__ void warp_functions(int* out) {
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int value = 3 * lane + warp;
  int* o = out + 10 * (blockIdx.x * blockDim.x + t);
  o[0] = __shfl_sync(0xFFFFFFFFu, value, 5);           // everyone reads lane 5
  o[1] = __shfl_sync(0xFFFFFFFFu, value, lane + 1, 8);  // wraps within groups of 8
  o[2] = __shfl_up_sync(0xFFFFFFFFu, value, 3);
  o[3] = __shfl_down_sync(0xFFFFFFFFu, value, 2, 16);
  o[4] = __shfl_xor_sync(0xFFFFFFFFu, value, 1);
  o[5] = static_cast<int>(__ballot_sync(0xFFFFFFFFu, lane % 3 == 0));
  o[6] = __any_sync(0xFFFFFFFFu, lane == 31);
  o[7] = __all_sync(0xFFFFFFFFu, lane < 31);
  o[8] = static_cast<int>(__activemask());
  // A warp sum by the xor butterfly.
  int sum = value;
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xFFFFFFFFu, sum, offset);
  o[9] = sum;
}

// A warp-synchronous reduction through shared memory, ordered by __syncwarp() alone.
__global__ void warp_reduce_shared(const float* in, float* out) {
  __shared__ float partial[32];
  int lane = threadIdx.x;
  partial[lane] = in[blockIdx.x * 32 + lane];
  __syncwarp();
  for (int stride = 16; stride > 0; stride /= 2) {
    float mine = partial[lane], other = lane < stride ? partial[lane + stride] : 0.0f;
    __syncwarp();
    partial[lane] = mine + other;
    __syncwarp();
  }
  if (lane == 0) out[blockIdx.x] = partial[0];
}

// --- Vector types ------------------------------------------------------------------------
// float4 and int4 through global and shared memory; float2 and uint4 too.
__global__ void vector_copies(const float4* in, float4* out, const int4* in_int, int4* out_int, float2* out2) {
  __shared__ float4 staged[64];
  __shared__ uint4 bits[64];
  int t = threadIdx.x;
  staged[t] = in[blockIdx.x * 64 + t];
  bits[t] = reinterpret_cast<const uint4*>(in_int)[blockIdx.x * 64 + t];
  __syncthreads();
  float4 v = staged[63 - t];
  out[blockIdx.x * 64 + t] = make_float4(v.w, v.z, v.y, v.x);
  uint4 u = bits[(t + 1) % 64];
  out_int[blockIdx.x * 64 + t] = make_int4(static_cast<int>(u.x), static_cast<int>(u.y), static_cast<int>(u.z),
                                           static_cast<int>(u.w));
  const float* flat = reinterpret_cast<const float*>(in);
  out2[blockIdx.x * 64 + t] = reinterpret_cast<const float2*>(flat)[blockIdx.x * 64 + t];
}

// --- Language features --------------------------------------------------------------------
template <int kItems>
__global__ void __launch_bounds__(128) template_features(const float* __restrict__ in, float* __restrict__ out,
                                                          int* counts) {
  float local[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) local[i] = __ldg(&in[(blockIdx.x * blockDim.x + threadIdx.x) * kItems + i]);
  float acc = 0.0f;
#pragma unroll
  for (int i = 0; i < kItems; ++i) acc = fmaf(local[i], 2.0f, __fmaf_rn(acc, 1.0f, 0.5f));
  assert(kItems > 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  int positive = __syncthreads_count(acc > 100.0f);
  int all = __syncthreads_and(acc >= 0.0f);
  int any = __syncthreads_or(threadIdx.x == 7);
  if (threadIdx.x == 0) {
    counts[3 * blockIdx.x] = positive;
    counts[3 * blockIdx.x + 1] = all;
    counts[3 * blockIdx.x + 2] = any;
  }
  atomicAdd(reinterpret_cast<float*>(&counts[3 * gridDim.x]), 0.25f);
}

// --- Dynamic shared memory above 48 KiB ---------------------------------------------------
// Each block fills `count` floats of dynamic shared memory and writes them back reversed.
__global__ void big_dynamic_shared(const float* in, float* out, int count) {
  extern __shared__ float big[];
  for (int i = threadIdx.x; i < count; i += blockDim.x) big[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < count; i += blockDim.x) out[i] = big[count - 1 - i];
}

// --- Asynchronous copies --------------------------------------------------------------------
// Sums 8 chunks of 256 floats per block, staging each chunk through shared memory with two
// buffers: chunk c+1 is copied while chunk c is summed.
__global__ void async_double_buffer(const float* in, float* out) {
  __shared__ __align__(16) float stage[2][256];
  int t = threadIdx.x;  // 64 threads, each copies 16 bytes per chunk
  const float* base = in + blockIdx.x * 8 * 256;
  __pipeline_memcpy_async(&stage[0][4 * t], base + 4 * t, 16);
  __pipeline_commit();
  float sum = 0.0f;
  for (int c = 0; c < 8; ++c) {
    if (c + 1 < 8) __pipeline_memcpy_async(&stage[(c + 1) % 2][4 * t], base + (c + 1) * 256 + 4 * t, 16);
    __pipeline_commit();
    __pipeline_wait_prior(1);  // chunk c has landed; c + 1 may still be on its way
    __syncthreads();
    for (int i = 0; i < 4; ++i) sum += stage[c % 2][(4 * t + 17 * i) % 256];
    __syncthreads();  // nobody still reads this buffer when it is filled again
  }
  out[blockIdx.x * 64 + t] = sum;
}

// --- Tensor cores ---------------------------------------------------------------------------
// One warp: c (16 × 16, float) = a (16 × 16, half, row-major) · b (half, col-major or
// row-major) + c, then every element times 2 in the fragment.
__global__ void wmma_tile(const __half* a, const __half* b_row, const __half* b_col, float* c_row, float* c_col) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb_row;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb_col;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb_row, b_row, 16);
  wmma::load_matrix_sync(fb_col, b_col, 16);
  wmma::load_matrix_sync(acc, c_row, 16, wmma::mem_row_major);
  wmma::mma_sync(acc, fa, fb_row, acc);
  for (int i = 0; i < acc.num_elements; ++i) acc.x[i] *= 2.0f;
  wmma::store_matrix_sync(c_row, acc, 16, wmma::mem_row_major);
  wmma::fill_fragment(acc, 0.0f);
  wmma::mma_sync(acc, fa, fb_col, acc);
  wmma::store_matrix_sync(c_col, acc, 16, wmma::mem_col_major);
}

// --- A kernel in the style of the public step-by-step SGEMM tutorials -----------------------
// Templated 2-D block tiling: BM × BN per block, TM × TN per thread, float4 loads from
// global memory, the a tile stored transposed in shared memory, __launch_bounds__ and
// #pragma unroll. Row-major c = a · b for m, n, k multiples of the tiles.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN))
    sgemm_2d_blocktiling(int m, int n, int k, const float* a, const float* b, float* c) {
  __shared__ float As[BK * BM];  // transposed: As[kk * BM + row]
  __shared__ float Bs[BK * BN];
  const int threads = (BM * BN) / (TM * TN);
  const int thread_col = threadIdx.x % (BN / TN), thread_row = threadIdx.x / (BN / TN);
  a += blockIdx.y * BM * k;
  b += blockIdx.x * BN;
  c += blockIdx.y * BM * n + blockIdx.x * BN;
  float results[TM * TN] = {0.0f};
  float reg_m[TM], reg_n[TN];
  for (int block_k = 0; block_k < k; block_k += BK) {
    for (int i = threadIdx.x; i < BM * BK / 4; i += threads) {
      int row = i / (BK / 4), col4 = i % (BK / 4);
      float4 t = reinterpret_cast<const float4*>(&a[row * k + col4 * 4])[0];
      As[(col4 * 4 + 0) * BM + row] = t.x;
      As[(col4 * 4 + 1) * BM + row] = t.y;
      As[(col4 * 4 + 2) * BM + row] = t.z;
      As[(col4 * 4 + 3) * BM + row] = t.w;
    }
    for (int i = threadIdx.x; i < BK * BN / 4; i += threads) {
      int row = i / (BN / 4), col4 = i % (BN / 4);
      reinterpret_cast<float4*>(&Bs[row * BN + col4 * 4])[0] =
          reinterpret_cast<const float4*>(&b[row * n + col4 * 4])[0];
    }
    __syncthreads();
    a += BK;
    b += BK * n;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int i = 0; i < TM; ++i) reg_m[i] = As[kk * BM + thread_row * TM + i];
#pragma unroll
      for (int j = 0; j < TN; ++j) reg_n[j] = Bs[kk * BN + thread_col * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) results[i * TN + j] += reg_m[i] * reg_n[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 4) {
      float4 r = make_float4(results[i * TN + j], results[i * TN + j + 1], results[i * TN + j + 2],
                             results[i * TN + j + 3]);
      reinterpret_cast<float4*>(&c[(thread_row * TM + i) * n + thread_col * TN + j])[0] = r;
    }
}

// The same kernel with the barrier after the loads removed: a race in every thread order.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void sgemm_missing_barrier(int m, int n, int k, const float* a, const float* b, float* c) {
  __shared__ float As[BK * BM];
  __shared__ float Bs[BK * BN];
  const int threads = (BM * BN) / (TM * TN);
  const int thread_col = threadIdx.x % (BN / TN), thread_row = threadIdx.x / (BN / TN);
  a += blockIdx.y * BM * k;
  b += blockIdx.x * BN;
  c += blockIdx.y * BM * n + blockIdx.x * BN;
  float results[TM * TN] = {0.0f};
  for (int block_k = 0; block_k < k; block_k += BK) {
    for (int i = threadIdx.x; i < BM * BK / 4; i += threads) {
      int row = i / (BK / 4), col4 = i % (BK / 4);
      float4 t = reinterpret_cast<const float4*>(&a[row * k + col4 * 4])[0];
      As[(col4 * 4 + 0) * BM + row] = t.x;
      As[(col4 * 4 + 1) * BM + row] = t.y;
      As[(col4 * 4 + 2) * BM + row] = t.z;
      As[(col4 * 4 + 3) * BM + row] = t.w;
    }
    for (int i = threadIdx.x; i < BK * BN / 4; i += threads) {
      int row = i / (BN / 4), col4 = i % (BN / 4);
      reinterpret_cast<float4*>(&Bs[row * BN + col4 * 4])[0] =
          reinterpret_cast<const float4*>(&b[row * n + col4 * 4])[0];
    }
    a += BK;
    b += BK * n;
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          results[i * TN + j] += As[kk * BM + thread_row * TM + i] * Bs[kk * BN + thread_col * TN + j];
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) c[(thread_row * TM + i) * n + thread_col * TN + j] = results[i * TN + j];
}

// Neighbouring threads write the two halves of each 4-byte word of a shared array of
// halves: not a race (each byte has one writer).
__global__ void half_words(float* out) {
  __shared__ __half halves[64];
  halves[threadIdx.x] = __float2half(static_cast<float>(threadIdx.x));
  __syncthreads();
  out[threadIdx.x] = __half2float(halves[63 - threadIdx.x]);
}

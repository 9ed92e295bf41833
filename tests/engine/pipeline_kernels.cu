// libcu++'s thread-scoped cuda::pipeline and cuda::memcpy_async on both backends: a
// double-buffered copy through shared memory, every memcpy_async form, and (CPU backend)
// the finding for a stage read before its wait. test_pipeline.cpp checks the lines of the
// mistakes: keep them where they are.
#include <cooperative_groups.h>
#include <cuda/pipeline>

// Two stages of 64 floats: each thread copies its float4 of a tile with
// aligned_size_t<16>, and after the stage's wait reads the float4 of the thread 16 places
// on (so that the barrier matters). out[t] sums what thread t read over all tiles.
__global__ void pipeline_double_buffer(const float* in, float* out, int tiles) {
  __shared__ __align__(16) float stage[2][256];
  const int t = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&stage[0][4 * t], &in[4 * t], cuda::aligned_size_t<16>(16), pipe);
  pipe.producer_commit();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[(k + 1) % 2][4 * t], &in[(k + 1) * 256 + 4 * t], cuda::aligned_size_t<16>(16), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    __syncthreads();
    const int from = 4 * ((t + 16) % 64);
    for (int i = 0; i < 4; ++i) sum += stage[k % 2][from + i];
    __syncthreads();
    pipe.consumer_release();
  }
  out[t] = sum;
}

// Every form, one block of 32 threads. Each thread copies its 64 bytes of `in` (16 floats at
// 16 t) with each of forms 0..5 into a buffer of that form; forms 6 and 7 copy 2 KiB of `in`
// with the whole block. out[16 t ...] is form 0's copy; mismatches[t] counts the floats
// where another form's copy differs; fulfilled[8 t + f] is form f's result (1: async).
//   0 memcpy_async(float*, const float*, size_t)            4-byte pieces
//   1 memcpy_async(float4*, const float4*, size_t)          16-byte pieces
//   2 memcpy_async(float*, const float*, aligned_size_t<8>)
//   3 memcpy_async(void*, const void*, size_t)              at once
//   4 memcpy_async(void*, const void*, aligned_size_t<16>)
//   5 memcpy_async(char*, const char*, size_t)              at once
//   6 memcpy_async(group, float*, const float*, aligned_size_t<16>)
//   7 memcpy_async(group, void*, const void*, size_t)      at once
__global__ void pipeline_forms(const float* in, float* out, int* fulfilled, int* mismatches) {
  __shared__ __align__(16) float copies[6][32 * 16];
  __shared__ __align__(16) float group_copy[2][32 * 16];
  const int t = threadIdx.x;
  auto block = cooperative_groups::this_thread_block();
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const float* src = in + 16 * t;
  auto is_async = [](cuda::async_contract_fulfillment f) { return f == cuda::async_contract_fulfillment::async ? 1 : 0; };
  int* f = fulfilled + 8 * t;
  pipe.producer_acquire();
  f[0] = is_async(cuda::memcpy_async(&copies[0][16 * t], src, 64, pipe));
  f[1] = is_async(cuda::memcpy_async(reinterpret_cast<float4*>(&copies[1][16 * t]),
                                     reinterpret_cast<const float4*>(src), 64, pipe));
  f[2] = is_async(cuda::memcpy_async(&copies[2][16 * t], src, cuda::aligned_size_t<8>(64), pipe));
  f[3] = is_async(cuda::memcpy_async(static_cast<void*>(&copies[3][16 * t]), static_cast<const void*>(src), 64, pipe));
  f[4] = is_async(cuda::memcpy_async(static_cast<void*>(&copies[4][16 * t]), static_cast<const void*>(src),
                                     cuda::aligned_size_t<16>(64), pipe));
  f[5] = is_async(cuda::memcpy_async(reinterpret_cast<char*>(&copies[5][16 * t]), reinterpret_cast<const char*>(src),
                                     64, pipe));
  f[6] = is_async(cuda::memcpy_async(block, &group_copy[0][0], in, cuda::aligned_size_t<16>(sizeof group_copy[0]), pipe));
  f[7] = is_async(cuda::memcpy_async(block, static_cast<void*>(&group_copy[1][0]), static_cast<const void*>(in),
                                     sizeof group_copy[1], pipe));
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  __syncthreads();
  int differ = 0;
  for (int i = 0; i < 16; ++i) {
    const float v = copies[0][16 * t + i];
    out[16 * t + i] = v;
    for (int c = 1; c < 6; ++c) differ += copies[c][16 * t + i] != v;
    differ += group_copy[0][16 * t + i] != v;
    differ += group_copy[1][16 * t + i] != v;
  }
  mismatches[t] = differ;
  pipe.consumer_release();
}

// Mistakes (CPU backend only).
// Two stages in flight; consumer_wait waits for the first only, and the second is read.
__global__ void pipeline_reads_newer_stage(const float* in, float* out) {
  __shared__ __align__(16) float stage[2][32];
  const int t = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int s = 0; s < 2; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[s][t], &in[32 * s + t], sizeof(float), pipe);
    pipe.producer_commit();
  }
  pipe.consumer_wait();
  out[t] = stage[0][t] + stage[1][t];  // stage 1 is not waited for
  pipe.consumer_release();
}

// pipeline_consumer_wait_prior<1> leaves the newest stage in flight.
__global__ void pipeline_wait_prior_too_early(const float* in, float* out) {
  __shared__ __align__(16) float stage[2][32];
  const int t = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int s = 0; s < 2; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[s][t], &in[32 * s + t], sizeof(float), pipe);
    pipe.producer_commit();
  }
  cuda::pipeline_consumer_wait_prior<1>(pipe);
  out[t] = stage[0][t];
  out[32 + t] = stage[1][t];  // the newest stage is still in flight
}

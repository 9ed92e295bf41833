// Kernels that exercise the engine's semantics. Plain CUDA C++: the same file is compiled
// by nvcc for the GPU backend and by the host compiler for the CPU backend.

// Each thread writes its index to shared memory; after the barrier it reads its
// neighbour's. Wrong without a true barrier.
__global__ void exchange_through_shared(int* out) {
  __shared__ int slots[1024];
  unsigned t = threadIdx.x;
  slots[t] = static_cast<int>(t) * 10 + static_cast<int>(blockIdx.x);
  __syncthreads();
  unsigned neighbour = (t + 1) % blockDim.x;
  out[blockIdx.x * blockDim.x + t] = slots[neighbour];
}

// Every block fills its shared array with its own number, waits, and checks that no other
// block's value got in; blocks run concurrently on different workers or SMs.
__global__ void shared_isolation(int* errors, int rounds) {
  __shared__ int mine[256];
  for (int r = 0; r < rounds; ++r) {
    mine[threadIdx.x] = static_cast<int>(blockIdx.x) * 1000 + r;
    __syncthreads();
    for (int i = 0; i < static_cast<int>(blockDim.x); ++i)
      if (mine[i] != static_cast<int>(blockIdx.x) * 1000 + r) atomicAdd(errors, 1);
    __syncthreads();
  }
}

// Writes the full coordinates of every thread, for 1-, 2- and 3-D launches.
__global__ void record_coordinates(unsigned* out) {
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned linear = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
  unsigned* o = out + 12 * linear;
  o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
  o[3] = blockIdx.x;  o[4] = blockIdx.y;  o[5] = blockIdx.z;
  o[6] = blockDim.x;  o[7] = blockDim.y;  o[8] = blockDim.z;
  o[9] = gridDim.x;   o[10] = gridDim.y;  o[11] = gridDim.z;
}

// A block-wide sum by tree reduction in shared memory: log2(n) barriers in a loop.
__global__ void block_sum(const float* in, float* out) {
  __shared__ float partial[1024];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

__global__ void atomic_counts(int* int_total, float* float_total, int* per_block) {
  __shared__ int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  atomicAdd(&block_count, 1);
  atomicAdd(int_total, 1);
  atomicAdd(float_total, 0.5f);
  __syncthreads();
  if (threadIdx.x == 0) per_block[blockIdx.x] = block_count;
}

// Dynamic shared memory sized at launch; two extern arrays alias the same storage.
__global__ void reverse_with_dynamic_shared(const float* in, float* out, int n) {
  extern __shared__ float buffer[];
  extern __shared__ int same_storage[];
  int t = static_cast<int>(threadIdx.x);
  if (t < n) buffer[t] = in[t];
  __syncthreads();
  if (t < n) out[t] = buffer[n - 1 - t];
  if (t == 0) out[n] = (static_cast<void*>(buffer) == static_cast<void*>(same_storage)) ? 1.f : 0.f;
}

// Uses min/max/fmaf and float4, as later puzzles do.
__global__ void vector_math(const float4* in, float* out, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  float4 v = in[i];
  out[i] = fmaf(v.x, v.y, max(v.z, v.w)) + static_cast<float>(min(i, 3));
}

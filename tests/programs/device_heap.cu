// The device heap outlives a launch, as on a GPU: objects made with new in one kernel are used by
// the next and deleted by a third; new[] and delete[]; an allocation per thread; a null pointer
// from a full heap; placement new into shared memory; host code's own new and delete. Checked by
// main (tests/programs/test_programs.py).
#include <cstdio>
#include <new>

#include "include/expect.cuh"

struct Counter {
  __device__ virtual ~Counter() {}
  __device__ virtual void add(int v) { total += v; }
  int total = 0;
};
struct Doubler : Counter {
  __device__ void add(int v) override { total += 2 * v; }
};

__global__ void create(Counter** slot) { *slot = new Doubler(); }
__global__ void use(Counter** slot) {
  if (blockIdx.x == 1 && threadIdx.x == 0) (*slot)->add(5);
}
__global__ void read_and_destroy(Counter** slot, int* out) {
  *out = (*slot)->total;
  delete *slot;
}

// One array per thread, kept between launches in a table of pointers.
__global__ void allocate_rows(int** rows, int length) {
  int i = threadIdx.x;
  rows[i] = new int[length];
  if (rows[i])
    for (int j = 0; j < length; ++j) rows[i][j] = i * length + j;
}
__global__ void sum_and_free_rows(int** rows, int length, long long* sums) {
  int i = threadIdx.x;
  long long s = -1;
  if (rows[i]) {
    s = 0;
    for (int j = 0; j < length; ++j) s += rows[i][j];
    delete[] rows[i];
  }
  sums[i] = s;
}

// A heap too small for every thread's block: some get a null pointer, as on a GPU.
__global__ void allocate_big(char** blocks, int bytes) { blocks[threadIdx.x] = new char[bytes]; }
__global__ void free_big(char** blocks) { delete[] blocks[threadIdx.x]; }

// Placement new into shared memory allocates nothing.
__global__ void placement(int* out) {
  __shared__ alignas(Counter) unsigned char storage[sizeof(Counter)];
  if (threadIdx.x == 0) {
    Counter* c = new (storage) Counter();
    c->add(41);
    c->add(1);
    *out = c->total;
    c->~Counter();
  }
}

int main() {
  // Before any launch, as CUDA asks: 1 MiB of device heap, which CUDA makes its smallest, 4 MiB.
  EXPECT(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20) == cudaSuccess);
  size_t heap = 0;
  EXPECT(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess && heap == (4 << 20));

  Counter** slot;
  int* out;
  cudaMalloc(&slot, sizeof(Counter*));
  cudaMallocManaged(&out, sizeof(int));
  create<<<1, 1>>>(slot);
  use<<<2, 32>>>(slot);
  read_and_destroy<<<1, 1>>>(slot, out);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess);
  EXPECT(*out == 10);  // the derived class's add, through the object a former launch made

  const int threads = 64, length = 100;
  int** rows;
  long long* sums;
  cudaMalloc(&rows, threads * sizeof(int*));
  cudaMallocManaged(&sums, threads * sizeof(long long));
  allocate_rows<<<1, threads>>>(rows, length);
  sum_and_free_rows<<<1, threads>>>(rows, length, sums);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess);
  bool sums_right = true;
  for (int i = 0; i < threads; ++i) {
    long long first = static_cast<long long>(i) * length;
    sums_right &= sums[i] == first * length + length * (length - 1) / 2;
  }
  EXPECT(sums_right);

  // 32 blocks of 256 KiB: the 4 MiB heap holds fewer. Freed, the memory serves again.
  char** blocks;
  cudaMallocManaged(&blocks, 32 * sizeof(char*));
  for (int round = 0; round < 2; ++round) {
    allocate_big<<<1, 32>>>(blocks, 256 << 10);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    int granted = 0;
    for (int i = 0; i < 32; ++i) granted += blocks[i] != nullptr;
    EXPECT(granted > 0 && granted < 32);
    free_big<<<1, 32>>>(blocks);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
  }

  placement<<<1, 32>>>(out);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess);
  EXPECT(*out == 42);

  // Host code's new and delete are the C++ library's, as in any program.
  int* host = new int[1000];
  host[999] = 3;
  EXPECT(host[999] == 3);
  delete[] host;

  EXPECT(cudaGetLastError() == cudaSuccess);
  std::printf("device heap: %d failed expectations\n", failures);
  cudaFree(slot);
  cudaFree(out);
  cudaFree(rows);
  cudaFree(sums);
  cudaFree(blocks);
  return failures == 0 ? 0 : 1;
}

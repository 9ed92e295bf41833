// A buffer per row, as programs keep a buffer per row, per object or per layer: 1025 cudaMalloc
// buffers and a device array of their pointers, which a kernel follows. Then more allocations
// than the CPU backend holds at once, and one larger than it gives a buffer: each returns
// cudaErrorMemoryAllocation there, which a GPU with the memory would not, and the program's
// report says why once (tests/programs/test_programs.py).
#include <cstdio>
#include <vector>

#include "include/expect.cuh"

constexpr int kRows = 1025, kColumns = 12;

__global__ void fill(int** rows) {
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < kRows; row += gridDim.x * blockDim.x)
    for (int column = 0; column < kColumns; ++column) rows[row][column] = 2 * row + column;
}

int main() {
  std::vector<int*> rows(kRows, nullptr);
  for (int row = 0; row < kRows; ++row) EXPECT(cudaMalloc(&rows[row], kColumns * sizeof(int)) == cudaSuccess);
  int** device_rows = nullptr;
  EXPECT(cudaMalloc(&device_rows, kRows * sizeof(int*)) == cudaSuccess);
  EXPECT(cudaMemcpy(device_rows, rows.data(), kRows * sizeof(int*), cudaMemcpyHostToDevice) == cudaSuccess);
  fill<<<4, 128>>>(device_rows);
  EXPECT(cudaGetLastError() == cudaSuccess);
  EXPECT(cudaDeviceSynchronize() == cudaSuccess);
  int wrong = 0;
  for (int row = 0; row < kRows; ++row) {
    int values[kColumns] = {};
    EXPECT(cudaMemcpy(values, rows[row], sizeof values, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int column = 0; column < kColumns; ++column) wrong += values[column] != 2 * row + column;
  }
  std::printf("%d rows of %d: %d wrong\n", kRows, kColumns, wrong);

  // 5000 more small buffers: a GPU gives them all.
  std::vector<void*> more;
  cudaError_t first_refusal = cudaSuccess;
  for (int i = 0; i < 5000; ++i) {
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, 64);
    if (e != cudaSuccess) {
      if (first_refusal == cudaSuccess) first_refusal = e;
      continue;
    }
    more.push_back(p);
  }
  std::printf("5000 more buffers: %zu given, %s\n", more.size(), cudaGetErrorName(first_refusal));
  for (void* p : more) EXPECT(cudaFree(p) == cudaSuccess);
  cudaGetLastError();  // a refused cudaMalloc is the last error, as on a GPU

  void* large = nullptr;
  cudaError_t e = cudaMalloc(&large, std::size_t{3} << 30);
  std::printf("a 3 GiB buffer: %s\n", cudaGetErrorName(e));
  if (e == cudaSuccess) cudaFree(large);
  cudaGetLastError();

  for (int* row : rows) EXPECT(cudaFree(row) == cudaSuccess);
  EXPECT(cudaFree(device_rows) == cudaSuccess);
  EXPECT(wrong == 0);
  std::printf("many buffers: %d failed expectations\n", failures);
  return failures == 0 ? 0 : 1;
}

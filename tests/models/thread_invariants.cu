// Values that a thread computes the same before and after each barrier: pointers into its
// inputs and its output made from its arguments and its indices, two addresses in shared memory,
// quotients of blockDim by constants. The block-loop pass computes them again after each barrier instead of keeping
// them in the thread's frame (docs/dev/engine.md, "Block loops"); the sums must not change.
#include <cstdio>
#include <vector>

constexpr int kTile = 16;

__global__ void transposed_sums(const int* a, const int* b, const int* c, int* out, int n, int steps) {
  __shared__ int tile[kTile][kTile + 1];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  const int *from_a = a + row * n + col, *from_b = b + row * n + col, *from_c = c + row * n + col;
  int* result = out + row * n + col;
  int* slot = &tile[threadIdx.y][threadIdx.x];
  const int* mirror = &tile[threadIdx.x][threadIdx.y];
  const int weight = static_cast<int>(blockDim.x) / 4, offset = static_cast<int>(blockDim.y) / 8;
  int total = 0;
  for (int step = 0; step < steps; ++step) {
    *slot = *from_a + *from_b + *from_c + step;
    __syncthreads();
    total += *mirror * weight + offset;
    __syncthreads();
  }
  *result = total;
}

int main() {
  const int n = 64, steps = 5, tiles = n / kTile;
  std::vector<int> a(n * n), b(n * n), c(n * n), out(n * n);
  for (int i = 0; i < n * n; ++i) a[i] = i % 97, b[i] = i % 13, c[i] = i % 7;
  int *d_a = nullptr, *d_b = nullptr, *d_c = nullptr, *d_out = nullptr;
  const size_t bytes = n * n * sizeof(int);
  if (cudaMalloc(&d_a, bytes) != cudaSuccess || cudaMalloc(&d_b, bytes) != cudaSuccess ||
      cudaMalloc(&d_c, bytes) != cudaSuccess || cudaMalloc(&d_out, bytes) != cudaSuccess ||
      cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(d_c, c.data(), bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
    std::printf("could not set up the buffers\n");
    return 2;
  }
  transposed_sums<<<dim3(tiles, tiles), dim3(kTile, kTile)>>>(d_a, d_b, d_c, d_out, n, steps);
  if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess ||
      cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("the kernel failed\n");
    return 2;
  }
  int wrong = 0;
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col) {
      // The thread at (row, col) read the element of its tile's transpose: row and column
      // swapped inside the tile.
      int tile_row = row / kTile * kTile, tile_col = col / kTile * kTile;
      int source = (tile_row + col % kTile) * n + tile_col + row % kTile;
      int expected = 0;
      for (int step = 0; step < steps; ++step)
        expected += (a[source] + b[source] + c[source] + step) * (kTile / 4) + kTile / 8;
      wrong += out[row * n + col] != expected;
    }
  std::printf("%d of %d sums wrong\n", wrong, n * n);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  cudaFree(d_out);
  return wrong == 0 ? 0 : 1;
}

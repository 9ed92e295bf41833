// The warp functions without _sync (__shfl, __shfl_up, __shfl_down, __shfl_xor, __any, __all,
// __ballot), as books written for sm_30 to sm_61 use them: built for such an architecture
// (checker/nvcc -arch=sm_60) each acts on the warp's active lanes. nvcc does not declare them for
// sm_70 and newer, and neither does the CPU backend (test_nvcc_driver.py builds this for both).
#include <cstdio>

#include "include/expect.cuh"

constexpr int kLanes = 32;

struct WarpResults {
  int sum_by_xor[kLanes];       // a butterfly reduction: every lane holds the warp's sum
  int sum_by_down[kLanes];      // a tree reduction: lane 0 holds it
  int prefix_by_up[kLanes];     // an inclusive scan
  float broadcast[kLanes];      // lane 5's value in every lane
  int in_eights[kLanes];        // width 8: lane 2 of each group of eight
  unsigned odd_lanes[kLanes];   // __ballot of lane & 1
  int any_above_30[kLanes], all_below_32[kLanes], all_even[kLanes];
};

__global__ void warp_functions(WarpResults* r) {
  int lane = threadIdx.x;
  int value = lane + 1;
  int sum = value;
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor(sum, offset);
  r->sum_by_xor[lane] = sum;
  int down = value;
  for (int offset = 16; offset > 0; offset /= 2) down += __shfl_down(down, offset);
  r->sum_by_down[lane] = down;
  int scan = value;
  for (int offset = 1; offset < kLanes; offset *= 2) {
    int from_below = __shfl_up(scan, offset);
    if (lane >= offset) scan += from_below;
  }
  r->prefix_by_up[lane] = scan;
  r->broadcast[lane] = __shfl(0.5f * lane, 5);
  r->in_eights[lane] = __shfl(lane, 2, 8);
  r->odd_lanes[lane] = __ballot(lane & 1);
  r->any_above_30[lane] = __any(lane > 30);
  r->all_below_32[lane] = __all(lane < 32);
  r->all_even[lane] = __all(lane % 2 == 0);
}

int main() {
  WarpResults* r = nullptr;
  if (cudaMallocManaged(&r, sizeof *r) != cudaSuccess) {
    std::printf("cudaMallocManaged failed\n");
    return 2;
  }
  warp_functions<<<1, kLanes>>>(r);
  cudaError_t launched = cudaGetLastError(), ran = cudaDeviceSynchronize();
  if (launched != cudaSuccess || ran != cudaSuccess) {
    std::printf("the kernel failed: %s\n", cudaGetErrorString(launched != cudaSuccess ? launched : ran));
    return 2;
  }
  const int total = kLanes * (kLanes + 1) / 2;
  for (int lane = 0; lane < kLanes; ++lane) {
    EXPECT(r->sum_by_xor[lane] == total);
    EXPECT(r->prefix_by_up[lane] == (lane + 1) * (lane + 2) / 2);
    EXPECT(r->broadcast[lane] == 2.5f);
    EXPECT(r->in_eights[lane] == lane / 8 * 8 + 2);
    EXPECT(r->odd_lanes[lane] == 0xAAAAAAAAu);
    EXPECT(r->any_above_30[lane] == 1);
    EXPECT(r->all_below_32[lane] == 1);
    EXPECT(r->all_even[lane] == 0);
  }
  EXPECT(r->sum_by_down[0] == total);
  std::printf("legacy warp functions: %d failed expectations\n", failures);
  cudaFree(r);
  return failures == 0 ? 0 : 1;
}

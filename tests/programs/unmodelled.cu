// A program that calls a runtime function the CPU backend does not model.
#include <cstdio>

int main() {
  float *a;
  std::size_t pitch = 0;
  std::printf("before the call\n");
  cudaMallocPitch(reinterpret_cast<void**>(&a), &pitch, 64 * sizeof(float), 64);
  std::printf("after the call\n");
  return 0;
}

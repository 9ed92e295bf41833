// A program that calls a runtime function the CPU backend does not model.
#include <cstdio>

int main() {
  cudaGraph_t graph;
  std::printf("before the call\n");
  cudaGraphCreate(&graph, 0);
  std::printf("after the call\n");
  return 0;
}

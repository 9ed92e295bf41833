// The device heap of the CPU backend (cuda_cpu/device_heap.h says what uses it): memory that a
// launch's child process and every later one share with the program, so that what one kernel
// allocates with new, a later kernel can use and delete.
#pragma once

namespace engine::cpu {

// Maps the heap, as large as cudaLimitMallocHeapSize says now (and at least CUDA's default),
// if it is not mapped yet. The parent calls it before it forks a launch's child.
void prepare_device_heap();

}  // namespace engine::cpu

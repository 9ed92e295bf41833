// The registry of the CPU images the build exports, by kernel address: what a kernel library
// needs of host launches (cuda_cpu/host_launch.h). Every kernel file's wrapper includes it, so
// it stays small: the standard headers behind host_launch.h's findings cost a kernel build
// more time than the kernel itself.
#ifndef CUDA_CPU_IMAGE_REGISTRY_H_
#define CUDA_CPU_IMAGE_REGISTRY_H_

namespace engine {
struct KernelImage;
}

namespace cuda_cpu {

// Called once per exported CPU image, before main. Returns true, for a static initializer.
bool register_kernel_image(const engine::KernelImage* image);
// The registered image of the kernel at this address, or null.
const engine::KernelImage* registered_kernel_image(const void* kernel);

}  // namespace cuda_cpu

#endif  // CUDA_CPU_IMAGE_REGISTRY_H_

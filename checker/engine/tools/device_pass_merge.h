// nvcc compiles a .cu file twice: a device pass, with __CUDA_ARCH__ defined, whose kernels and
// device functions go to the GPU, and a host pass, without it, whose host code calls them.
// A whole program's file is compiled both ways for the CPU backend when it tests __CUDA_ARCH__
// (checker/cli/course/device_pass.py decides), and this step joins the two objects so that the
// program runs each pass's code where nvcc would: kernels, and what they call, from the device
// pass; everything else from the host pass. Part of ptx_rewrite.
#pragma once

#include <string>
#include <vector>

namespace device_pass {

// Edits the two objects in place, to be linked with the device object first (`ld -r DEVICE
// HOST`):
//  - the device object's kernels (in CUDA_CPU_KERNEL_SECTION) keep their names, and the host
//    object's definitions of the same names become weak, so that every launch runs the device
//    pass's;
//  - the device object's other functions are renamed with ".<suffix>": its kernels call its
//    own device functions, __host__ __device__ ones included, and host code the host pass's;
//  - the device object's variables become weak, so that both passes share one of each
//    (__device__ and __constant__ variables, which the host reads and writes by name);
//  - its dynamic initializers are left out (their sections emptied, relocations too, which
//    every linker honours alike): the host pass's construct what the program defines, once.
//    Those of inline variables, in their COMDAT groups, stay.
//  - a kernel of internal linkage (static, or in an unnamed namespace) gets a global name unique
//    to the file (".<suffix>.<file_name>") in the device object, and the host object's
//    references to its own copy, which the host pass compiled with -ffunction-sections so that
//    the copy is alone in its section, are pointed at that name.
// `internal_kernels` receives the names of the kernels of internal linkage that could not be
// joined so (the host pass's copy shares its section): they run as the host pass compiled them.
bool merge(const std::string& host_object, const std::string& device_object, const std::string& suffix,
           const std::string& file_name, std::vector<std::string>& internal_kernels, std::string& error);

// ptx_rewrite --device-pass HOST.o DEVICE.o FILE_NAME [FACTS]: merge() with the suffix
// "device_pass". Writes a line "internal-kernel <name>" (demangled) for each kernel left to the
// host pass to FACTS, or to standard output without it; checker/nvcc and checker/run word them.
int merge_command(int argc, char** argv);

}  // namespace device_pass

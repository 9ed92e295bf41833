// What the project's files share: a device function defined in one .cu file and called from
// another (relocatable device code), and the host functions main.cpp calls.
#pragma once

#ifdef __CUDACC__
__device__ float scaled(float a, float x);
#endif

// y = a * x + y over n elements, on the device; returns the launch's error as an int.
int saxpy_on_device(float a, const float* x, float* y, int n);
// CUDA's integer intrinsics, each computed on the device into out[0..count).
int integer_intrinsics_on_device(unsigned long long* out, int count);

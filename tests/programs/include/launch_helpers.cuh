// A header in another folder (checker/run launch_forms.cu -I include): kernels and a launch
// written in a header are the program's like any other.
#pragma once

namespace helpers {

template <typename T, int SCALE>
__global__ void scale(const T* in, T* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * SCALE;
}

// A template whose arguments the launch deduces; its input is a pointer to const.
template <typename T>
__global__ void add(const T* a, const T* b, T* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = a[i] + b[i];
}

inline void launch_scale_by_3(const int* in, int* out, int n) {
  scale<int, 3><<<(n + 63) / 64, 64>>>(in, out, n);
}

}  // namespace helpers

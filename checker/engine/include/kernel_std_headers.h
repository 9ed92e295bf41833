// The standard headers a kernel file may include. The build wraps each kernel file in a
// namespace of its own (so that several kernel files, or two builds of one, can live in one
// program); these are included first, at global scope, by the wrappers of both backends
// (cuda_cpu/kernel_shim.h, cuda_gpu/kernel_prelude.h), so that the kernel file's own
// #include finds them already there instead of declaring the library inside a namespace.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>
#include <utility>
#include <vector>

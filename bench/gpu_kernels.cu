// Every kernel the GPU benchmark times, in one translation unit: the reference solutions
// and the 32 x 32 tile variant. Each file defines its own TILE/MAX_N, so each goes in a
// namespace of its own.
namespace p01 {
#include "../solutions/p01_naive.cu"
}
namespace p02 {
#include "../solutions/p02_single_row_shared.cu"
}
namespace p03 {
#include "../solutions/p03_row_col_shared.cu"
}
namespace p04 {
#include "../solutions/p04_tiled.cu"
}
namespace t32 {
#include "kernels/matmul_tiled_32.cu"
}
using p01::matmul_naive;
using p02::matmul_single_row_shared;
using p03::matmul_row_col_shared;
using p04::matmul_tiled;
using t32::matmul_tiled_32;

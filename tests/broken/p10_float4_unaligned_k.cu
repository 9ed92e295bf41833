// Broken on purpose: the float4 path is chosen when n % 4 == 0, forgetting that the rows of a
// start 16-byte aligned only when k % 4 == 0 too. Expected finding: misaligned float4 read of a
// (when n % 4 == 0 and k % 4 != 0; on the GPU: "misaligned address").

// Puzzle 10: warp tiling, towards cuBLAS
//
// Computes c = alpha · (a · b) + beta · c for row-major float matrices a (m × k), b (k × n)
// and c (m × n), for any m, n, k >= 1 (c is not read when beta == 0, as in BLAS). Three levels
// of tiles: the block computes a BM × BN tile of c, each warp a WM × WN piece of it, and each
// thread TM × TN sums of that piece, as (TM / 4) × (TN / 4) groups of 4 × 4 spread over the
// warp's piece, so that at every kk a warp reads a few neighbouring float4s of each shared
// tile and each thread gets its values of a and b in TM / 4 + TN / 4 reads.
//
// Launch: 1-D blocks of THREADS = (BM / WM) · (BN / WN) · 32 threads; a grid of
//   ceil(n / BN) × ceil(m / BM) blocks; 2 · (BK·(BM + 4) + BK·BN) · 4 = 24832 bytes of static
//   shared memory: two stages, so that one barrier per step is enough.
//   Warp w computes rows (w / (BN / WN)) · WM + [0, WM) and columns (w % (BN / WN)) · WN + [0, WN)
//   of the block's tile; lane l of it takes rows 4 · (l / (WN / TN)) + 4 · (WM / TM) · i + 0..3
//   and columns 4 · (l % (WN / TN)) + 4 · (WN / TN) · j + 0..3 of that piece (i < TM / 4,
//   j < TN / 4). For each step along k:
//     1. start loading the next step's tiles from global memory into registers (float4s
//        when k % 4 == 0 and n % 4 == 0, single floats otherwise; 0 outside the matrices);
//     2. multiply the tiles of this step from the current stage;
//     3. store the registers into the other stage (a_tile transposed); barrier.
// Constants: BM = 128, BN = 256, BK = 8, WM = WN = 64, TM = 8, TN = 16, THREADS = 256.
// Doc: docs/p10_warp_tiling.md

constexpr int BM = 128;
constexpr int BN = 256;
constexpr int BK = 8;
constexpr int WM = 64;
constexpr int WN = 64;
constexpr int TM = 8;
constexpr int TN = 16;
constexpr int THREADS = (BM / WM) * (BN / WN) * 32;
static_assert(BK % 4 == 0 && TM % 4 == 0 && TN % 4 == 0 && THREADS % 32 == 0, "float4 pieces, whole warps");

// Two blocks per SM (at most 128 registers per thread) while a thread's sums fit in 64 registers,
// so one block computes while the other waits at a barrier.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, TM * TN <= 64 ? 2 : 1)
matmul_warp_tiled(const float* a, const float* b, float* c, int m, int n, int k, float alpha, float beta) {
  constexpr int threads = (BM / WM) * (BN / WN) * 32;
  constexpr int lanes_n = WN / TN, lanes_m = WM / TM;  // how the 32 lanes tile a warp's piece
  constexpr int a_loads = BM * BK / 4 / threads, b_loads = BK * BN / 4 / threads;  // float4s
  static_assert(lanes_m * lanes_n == 32 && TM % 4 == 0 && TN % 4 == 0, "a warp is 32 lanes of 4 × 4 groups");
  static_assert(BM % WM == 0 && BN % WN == 0 && BK % 4 == 0, "warps tile the block");
  static_assert(a_loads * threads * 4 == BM * BK && b_loads * threads * 4 == BK * BN, "loads split evenly");
  // A warp's transposing store writes 16 rows × 8 columns of a_tile (BK = 8); 4 floats of
  // padding start each column 4 banks further on, so columns kk and kk + 4 use disjoint banks.
  __align__(16) __shared__ float a_tile[2][BK][BM + 4];
  __align__(16) __shared__ float b_tile[2][BK][BN];

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (BN / WN)) * WM, warp_col = (warp % (BN / WN)) * WN;
  const int lane_row = 4 * (lane / lanes_n), lane_col = 4 * (lane % lanes_n);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  // float4 accesses need 16-byte aligned addresses: rows of a start aligned only when k % 4 == 0,
  // rows of b and c only when n % 4 == 0. The test is the same for every thread.
  const bool vec = n % 4 == 0;
  const int steps = (k + BK - 1) / BK;

  float4 a_next[a_loads], b_next[b_loads];
  auto load_next = [&](int k0) {
#pragma unroll
    for (int l = 0; l < a_loads; ++l) {
      int e = threadIdx.x + l * threads, r = e / (BK / 4), kc = 4 * (e % (BK / 4));
      int row = row0 + r, kk = k0 + kc;
      if (vec) {
        a_next[l] = row < m && kk < k ? *reinterpret_cast<const float4*>(&a[row * k + kk])
                                       : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      } else {
        a_next[l].x = row < m && kk < k ? a[row * k + kk] : 0.0f;
        a_next[l].y = row < m && kk + 1 < k ? a[row * k + kk + 1] : 0.0f;
        a_next[l].z = row < m && kk + 2 < k ? a[row * k + kk + 2] : 0.0f;
        a_next[l].w = row < m && kk + 3 < k ? a[row * k + kk + 3] : 0.0f;
      }
    }
#pragma unroll
    for (int l = 0; l < b_loads; ++l) {
      int e = threadIdx.x + l * threads, kk = k0 + e / (BN / 4), col = col0 + 4 * (e % (BN / 4));
      if (vec) {
        b_next[l] = kk < k && col < n ? *reinterpret_cast<const float4*>(&b[kk * n + col])
                                       : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      } else {
        b_next[l].x = kk < k && col < n ? b[kk * n + col] : 0.0f;
        b_next[l].y = kk < k && col + 1 < n ? b[kk * n + col + 1] : 0.0f;
        b_next[l].z = kk < k && col + 2 < n ? b[kk * n + col + 2] : 0.0f;
        b_next[l].w = kk < k && col + 3 < n ? b[kk * n + col + 3] : 0.0f;
      }
    }
  };
  auto store_next = [&](int st) {
#pragma unroll
    for (int l = 0; l < a_loads; ++l) {
      int e = threadIdx.x + l * threads, r = e / (BK / 4), kc = 4 * (e % (BK / 4));
      a_tile[st][kc][r] = a_next[l].x;
      a_tile[st][kc + 1][r] = a_next[l].y;
      a_tile[st][kc + 2][r] = a_next[l].z;
      a_tile[st][kc + 3][r] = a_next[l].w;
    }
#pragma unroll
    for (int l = 0; l < b_loads; ++l) {
      int e = threadIdx.x + l * threads;
      *reinterpret_cast<float4*>(&b_tile[st][e / (BN / 4)][4 * (e % (BN / 4))]) = b_next[l];
    }
  };

  float sum[TM][TN] = {};
  float a_reg[TM], b_reg[TN];
  load_next(0);
  store_next(0);
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    const int st = s % 2;
    // Issued now, used after the arithmetic below: the loads' latency hides behind it.
    if (s + 1 < steps) load_next((s + 1) * BK);
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int i = 0; i < TM / 4; ++i) {
        float4 v = *reinterpret_cast<const float4*>(&a_tile[st][kk][warp_row + 4 * lanes_m * i + lane_row]);
        a_reg[4 * i] = v.x; a_reg[4 * i + 1] = v.y; a_reg[4 * i + 2] = v.z; a_reg[4 * i + 3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < TN / 4; ++j) {
        float4 v = *reinterpret_cast<const float4*>(&b_tile[st][kk][warp_col + 4 * lanes_n * j + lane_col]);
        b_reg[4 * j] = v.x; b_reg[4 * j + 1] = v.y; b_reg[4 * j + 2] = v.z; b_reg[4 * j + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) sum[i][j] += a_reg[i] * b_reg[j];
    }
    // The other stage was last read in step s - 1, before the previous barrier: free to refill.
    if (s + 1 < steps) store_next(1 - st);
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + warp_row + 4 * lanes_m * (i / 4) + lane_row + i % 4;
    if (row >= m) continue;
#pragma unroll
    for (int j = 0; j < TN / 4; ++j) {
      const int col = col0 + warp_col + 4 * lanes_n * j + lane_col, at = row * n + col;
      float4 v = make_float4(alpha * sum[i][4 * j], alpha * sum[i][4 * j + 1], alpha * sum[i][4 * j + 2],
                             alpha * sum[i][4 * j + 3]);
      if (vec && col < n) {
        if (beta != 0.0f) {
          float4 old = *reinterpret_cast<const float4*>(&c[at]);
          v.x += beta * old.x; v.y += beta * old.y; v.z += beta * old.z; v.w += beta * old.w;
        }
        *reinterpret_cast<float4*>(&c[at]) = v;
      } else {
        if (col < n) c[at] = beta != 0.0f ? v.x + beta * c[at] : v.x;
        if (col + 1 < n) c[at + 1] = beta != 0.0f ? v.y + beta * c[at + 1] : v.y;
        if (col + 2 < n) c[at + 2] = beta != 0.0f ? v.z + beta * c[at + 2] : v.z;
        if (col + 3 < n) c[at + 3] = beta != 0.0f ? v.w + beta * c[at + 3] : v.w;
      }
    }
  }
}

// Checker: (no options)
// Expect: aligned
// Needs: instrumented kernels

// Broken on purpose: the ReLU is applied after every multiply-add, to partial sums, instead of
// once to the complete sum. Expected finding: wrong values (wherever a partial sum dips below 0).
//
// Checker: (no options)
// Expect: Wrong values
//
// Change to solutions/p06_register_tiling.cu:
// --- solutions/p06_register_tiling.cu
// +++ p06_relu_too_early.cu
// @@ -60,7 +60,7 @@
//  #pragma unroll
//        for (int i = 0; i < TM; ++i)
//  #pragma unroll
// -        for (int j = 0; j < TN; ++j) sum[i][j] += a_reg[i] * b_reg[j];
// +        for (int j = 0; j < TN; ++j) sum[i][j] = fmaxf(sum[i][j] + a_reg[i] * b_reg[j], 0.0f);
//      }
//      __syncthreads();
//    }

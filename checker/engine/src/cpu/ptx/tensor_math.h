// The arithmetic of tensor-core instructions (mma.sync, wgmma) on the CPU backend: the input
// formats, and the sum d = c + Σ a·b as the tensor cores form it, which is not a chain of
// IEEE additions. docs/dev/engine.md ("Tensor-core arithmetic") says how the model was
// measured on an H100 and how closely it matches.
#pragma once

#include <cstdint>

namespace engine::cpu::tensor {

// Element formats, by their bits.
float half_to_float(std::uint16_t bits);
float bf16_to_float(std::uint16_t bits);
// The value a tf32 operand has inside the tensor cores: the float's top 19 bits.
float tf32_to_float(std::uint32_t bits);
std::uint16_t float_to_half_rn(float value);
std::uint16_t float_to_bf16_rn(float value);
std::uint32_t float_to_tf32_rna(float value);  // cvt.rna.tf32.f32

// The sum d = c + Σ_{i<k} a[i]·b[i] as an H100's tensor cores form it, for mma.sync and
// wgmma alike. Measured on an H100 (docs/dev/engine.md, "Tensor-core arithmetic"): every
// product is exact; the k products and c are added in one step, each cut (toward zero) to
// a multiple of 2^(E - 25), where E is the largest of their exponents as the hardware sees
// them (a product's is the sum of its factors' exponents, a subnormal input's the format's
// smallest); the cut terms add exactly; a float result is then rounded toward zero, a half
// result to nearest even. `input_min_exponent`: -14 for f16 inputs, -126 for bf16 and tf32.
// NaN in, or inf - inf, gives CUDA's canonical NaN.
float dot_to_float(const float* a, const float* b, unsigned k, float c, int input_min_exponent);
// c_min_exponent: -14 when c is a half, -126 when it is a float.
std::uint16_t dot_to_half(const float* a, const float* b, unsigned k, float c, int input_min_exponent,
                          int c_min_exponent);

}  // namespace engine::cpu::tensor

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

// How the tensor cores add products: in groups of `group` products at a time, each group
// together with the running sum; within a group every term is cut (toward zero) to
// `fraction_bits` bits below the largest term's leading bit, the cut terms are added exactly,
// and the result is rounded to float (toward zero, or to nearest).
struct SumModel {
  int group = 16;
  int fraction_bits = 24;
  bool round_to_nearest = false;
};
// The model measured on an H100 for an instruction with these input bits (16: f16/bf16; 19: tf32).
SumModel sum_model_for(unsigned input_bits, unsigned k);

// c + Σ_{i<k} a[i]·b[i], each a[i]·b[i] exact (the inputs are halves, bfloat16 or tf32
// values held in floats), added as `model` says. NaN in, or inf - inf, gives CUDA's NaN.
float dot(const float* a, const float* b, unsigned k, float c, const SumModel& model);

}  // namespace engine::cpu::tensor

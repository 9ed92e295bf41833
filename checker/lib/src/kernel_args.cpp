#include "kernel_args.h"

#include "checker/matrices.h"

namespace checker {

DeviceMatrix::DeviceMatrix(engine::Backend& backend, const std::vector<float>& values, ElementType type,
                           const std::string& name)
    : type_(type) {
  if (type == ElementType::f32)
    f32_ = std::make_unique<engine::DeviceArray<float>>(backend, values.size(), name);
  else
    f16_ = std::make_unique<engine::DeviceArray<std::uint16_t>>(backend, values.size(), name);
  upload(values);
}

void* DeviceMatrix::get() const {
  return f32_ ? static_cast<void*>(f32_->get()) : static_cast<void*>(f16_->get());
}

void DeviceMatrix::upload(const std::vector<float>& values) {
  if (type_ == ElementType::f32) {
    f32_->upload(values);
    return;
  }
  std::vector<std::uint16_t> bits(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) bits[i] = half_bits(values[i]);
  f16_->upload(bits);
}

std::vector<void*> KernelArgs::pointers(const PuzzleSpec& spec) {
  std::vector<void*> out;
  for (const KernelParam& p : spec.params) {
    switch (p.role) {
      case ParamRole::a: out.push_back(&a); break;
      case ParamRole::b: out.push_back(&b); break;
      case ParamRole::c: out.push_back(&c); break;
      case ParamRole::m: out.push_back(&m); break;
      case ParamRole::n:
      case ParamRole::size: out.push_back(&n); break;
      case ParamRole::k: out.push_back(&k); break;
      case ParamRole::alpha: out.push_back(&alpha); break;
      case ParamRole::beta: out.push_back(&beta); break;
    }
  }
  out.push_back(nullptr);
  return out;
}

}  // namespace checker

#include "kernel_args.h"

#include "checker/expression.h"
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

void KernelArgs::encode_maps(engine::Backend& backend, const PuzzleSpec& spec, const Dims& d) {
  const Variables v = spec.variables(d);
  for (const PuzzleSpec::TensorMapParam& t : spec.tensor_maps) {
    // A row-major matrix: dimension 0 runs along a row (columns), dimension 1 over the rows.
    // a (m x k) and b (k x n) hold halves, c (m x n) floats.
    const char matrix = t.matrix;
    engine::TensorMapRequest r;
    r.data_type = matrix == 'c' ? 7 : 6;  // CU_TENSOR_MAP_DATA_TYPE_FLOAT32, _FLOAT16
    r.rank = 2;
    r.global_address = matrix == 'a' ? a : matrix == 'b' ? b : c;
    r.dims[0] = static_cast<std::uint64_t>(matrix == 'a' ? d.k : d.n);
    r.dims[1] = static_cast<std::uint64_t>(matrix == 'b' ? d.k : d.m);
    r.strides[0] = r.dims[0] * (matrix == 'c' ? 4 : 2);
    r.box[0] = static_cast<std::uint32_t>(evaluate(t.box[0], v));
    r.box[1] = static_cast<std::uint32_t>(evaluate(t.box[1], v));
    r.swizzle = t.swizzle_bytes == 0 ? 0 : t.swizzle_bytes == 32 ? 1 : t.swizzle_bytes == 64 ? 2 : 3;
    (matrix == 'a' ? a_map : matrix == 'b' ? b_map : c_map) = backend.encode_tensor_map(r);
  }
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
      case ParamRole::a_map: out.push_back(&a_map); break;
      case ParamRole::b_map: out.push_back(&b_map); break;
      case ParamRole::c_map: out.push_back(&c_map); break;
    }
  }
  out.push_back(nullptr);
  return out;
}

}  // namespace checker

// Scalar PTX instructions: moves, conversions, integer and float arithmetic, comparisons.
// Kernels use them around the matrix instructions (address arithmetic, packing halves,
// predicates for a guarded copy).
#include <cmath>
#include <cstring>

#include "lane.h"
#include "tensor_math.h"

namespace engine::cpu::ptx_run {
namespace {

using ptx::Type;

float as_float(std::uint64_t bits) {
  float f;
  std::uint32_t b = static_cast<std::uint32_t>(bits);
  std::memcpy(&f, &b, 4);
  return f;
}
double as_double(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}
std::uint64_t bits_of(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
std::uint64_t bits_of(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

unsigned width(Type t) { return ptx::bits_of(t); }

std::int64_t sign_extend(std::uint64_t v, unsigned bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  std::uint64_t m = std::uint64_t{1} << (bits - 1);
  v &= (std::uint64_t{1} << bits) - 1;
  return static_cast<std::int64_t>((v ^ m) - m);
}

std::uint64_t truncate(std::uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & ((std::uint64_t{1} << bits) - 1);
}

// A value of type t read as a double (ints, f32, f64; halves by their bits).
double numeric(std::uint64_t v, Type t) {
  switch (t) {
    case Type::f32: return as_float(v);
    case Type::f64: return as_double(v);
    case Type::f16: return tensor::half_to_float(static_cast<std::uint16_t>(v));
    case Type::bf16: return tensor::bf16_to_float(static_cast<std::uint16_t>(v));
    default: break;
  }
  if (ptx::is_signed(t)) return static_cast<double>(sign_extend(v, width(t)));
  return static_cast<double>(truncate(v, width(t)));
}

double round_integer(double x, ptx::Rounding r) {
  switch (r) {
    case ptx::Rounding::rzi: case ptx::Rounding::rz: return std::trunc(x);
    case ptx::Rounding::rmi: case ptx::Rounding::rm: return std::floor(x);
    case ptx::Rounding::rpi: case ptx::Rounding::rp: return std::ceil(x);
    default: return std::nearbyint(x);  // rni, rn: to nearest even
  }
}

std::uint64_t convert(std::uint64_t v, const ptx::Instruction& in) {
  Type to = in.type, from = in.type2;
  if (!ptx::is_float(to) && !ptx::is_float(from)) {
    // Integer to integer: sign- or zero-extend from the source, keep the destination's bits.
    std::uint64_t x = ptx::is_signed(from) ? static_cast<std::uint64_t>(sign_extend(v, width(from)))
                                           : truncate(v, width(from));
    return truncate(x, width(to));
  }
  if (ptx::is_float(from) && !ptx::is_float(to)) {
    double x = numeric(v, from);
    if (std::isnan(x)) return 0;
    double r = round_integer(x, in.rounding == ptx::Rounding::none ? ptx::Rounding::rzi : in.rounding);
    unsigned w = width(to);
    if (ptx::is_signed(to)) {
      double lo = -std::ldexp(1.0, w - 1), hi = std::ldexp(1.0, w - 1) - 1;
      r = r < lo ? lo : r > hi ? hi : r;  // PTX saturates float-to-integer conversions
      return truncate(static_cast<std::uint64_t>(static_cast<std::int64_t>(r)), w);
    }
    double hi = std::ldexp(1.0, w) - 1;
    r = r < 0 ? 0 : r > hi ? hi : r;
    return static_cast<std::uint64_t>(r);
  }
  double x = numeric(v, from);
  switch (to) {
    case Type::f32: {
      if (in.rounding == ptx::Rounding::rz && from == Type::f64) {
        float f = static_cast<float>(x);
        if (std::fabs(static_cast<double>(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
        return bits_of(f);
      }
      return bits_of(static_cast<float>(x));
    }
    case Type::f64: return bits_of(x);
    case Type::f16: return tensor::float_to_half_rn(static_cast<float>(x));
    case Type::bf16: return tensor::float_to_bf16_rn(static_cast<float>(x));
    case Type::tf32: return tensor::float_to_tf32_rna(static_cast<float>(x));
    default: break;
  }
  return 0;
}

bool compare(std::uint64_t a, std::uint64_t b, Type t, ptx::Compare c) {
  if (ptx::is_float(t)) {
    double x = numeric(a, t), y = numeric(b, t);
    switch (c) {
      case ptx::Compare::eq: return x == y;
      case ptx::Compare::ne: return x != y && !std::isnan(x) && !std::isnan(y);
      case ptx::Compare::lt: return x < y;
      case ptx::Compare::le: return x <= y;
      case ptx::Compare::gt: return x > y;
      case ptx::Compare::ge: return x >= y;
      default: return false;
    }
  }
  unsigned w = width(t);
  bool is_signed = ptx::is_signed(t);
  std::int64_t sa = sign_extend(a, w), sb = sign_extend(b, w);
  std::uint64_t ua = truncate(a, w), ub = truncate(b, w);
  switch (c) {
    case ptx::Compare::eq: return ua == ub;
    case ptx::Compare::ne: return ua != ub;
    case ptx::Compare::lt: return is_signed ? sa < sb : ua < ub;
    case ptx::Compare::le: return is_signed ? sa <= sb : ua <= ub;
    case ptx::Compare::gt: return is_signed ? sa > sb : ua > ub;
    case ptx::Compare::ge: return is_signed ? sa >= sb : ua >= ub;
    case ptx::Compare::lo: return ua < ub;
    case ptx::Compare::ls: return ua <= ub;
    case ptx::Compare::hi: return ua > ub;
    case ptx::Compare::hs: return ua >= ub;
  }
  return false;
}

std::uint64_t float_op(ptx::Op op, std::uint64_t a, std::uint64_t b, std::uint64_t c, Type t) {
  if (t == Type::f64) {
    double x = as_double(a), y = as_double(b), z = as_double(c);
    switch (op) {
      case ptx::Op::add: return bits_of(x + y);
      case ptx::Op::sub: return bits_of(x - y);
      case ptx::Op::mul: return bits_of(x * y);
      case ptx::Op::mad: return bits_of(std::fma(x, y, z));
      case ptx::Op::min: return bits_of(std::fmin(x, y));
      case ptx::Op::max: return bits_of(std::fmax(x, y));
      case ptx::Op::neg: return bits_of(-x);
      default: return 0;
    }
  }
  float x = as_float(a), y = as_float(b), z = as_float(c);
  switch (op) {
    case ptx::Op::add: return bits_of(x + y);
    case ptx::Op::sub: return bits_of(x - y);
    case ptx::Op::mul: return bits_of(x * y);
    case ptx::Op::mad: return bits_of(std::fma(x, y, z));  // fma.rn and mad.rn.f32 are fused
    case ptx::Op::min: return bits_of(std::fmin(x, y));
    case ptx::Op::max: return bits_of(std::fmax(x, y));
    case ptx::Op::neg: return bits_of(-x);
    default: return 0;
  }
}

std::uint64_t integer_op(const ptx::Instruction& in, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  Type t = in.type;
  unsigned w = width(t);
  bool s = ptx::is_signed(t);
  switch (in.op) {
    case ptx::Op::add: return truncate(a + b, w);
    case ptx::Op::sub: return truncate(a - b, w);
    case ptx::Op::and_: return truncate(a & b, w);
    case ptx::Op::or_: return truncate(a | b, w);
    case ptx::Op::xor_: return truncate(a ^ b, w);
    case ptx::Op::not_: return t == Type::pred ? !a : truncate(~a, w);
    case ptx::Op::neg: return truncate(0 - a, w);
    case ptx::Op::shl: {
      std::uint64_t n = truncate(b, 32);
      return n >= w ? 0 : truncate(a << n, w);
    }
    case ptx::Op::shr: {
      std::uint64_t n = truncate(b, 32);
      if (s) {
        std::int64_t v = sign_extend(a, w);
        return truncate(static_cast<std::uint64_t>(n >= w ? (v < 0 ? -1 : 0) : v >> n), w);
      }
      return n >= w ? 0 : truncate(a, w) >> n;
    }
    case ptx::Op::min:
      return s ? (sign_extend(a, w) < sign_extend(b, w) ? a : b) : (truncate(a, w) < truncate(b, w) ? a : b);
    case ptx::Op::max:
      return s ? (sign_extend(a, w) > sign_extend(b, w) ? a : b) : (truncate(a, w) > truncate(b, w) ? a : b);
    case ptx::Op::mul:
    case ptx::Op::mad: {
      // .lo: the low half of the product; .hi: the high half; .wide: the double-width product.
      __int128 x = s ? static_cast<__int128>(sign_extend(a, w)) : static_cast<__int128>(truncate(a, w));
      __int128 y = s ? static_cast<__int128>(sign_extend(b, w)) : static_cast<__int128>(truncate(b, w));
      __int128 p = x * y;
      std::uint64_t r;
      if (in.wide) r = truncate(static_cast<std::uint64_t>(p), 2 * w);
      else if (in.hi) r = truncate(static_cast<std::uint64_t>(p >> w), w);
      else r = truncate(static_cast<std::uint64_t>(p), w);
      if (in.op == ptx::Op::mad) r = truncate(r + c, in.wide ? 2 * w : w);
      return r;
    }
    default: return 0;
  }
}

}  // namespace

void run_scalar(Lane& lane, const ptx::Instruction& in) {
  const auto& o = in.operands;
  switch (in.op) {
    case ptx::Op::mov: {
      if (o[0].kind == ptx::Operand::Kind::vector) {
        // mov.b32 {lo, hi}, x: the source's bits split in equal parts, the first the lowest.
        std::uint64_t v = value(lane, o[1]);
        unsigned part = width(in.type) / static_cast<unsigned>(o[0].elements.size());
        for (std::size_t i = 0; i < o[0].elements.size(); ++i) set(lane, o[0].elements[i], truncate(v >> (part * i), part));
        return;
      }
      if (o[1].kind == ptx::Operand::Kind::vector) {
        unsigned part = width(in.type) / static_cast<unsigned>(o[1].elements.size());
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < o[1].elements.size(); ++i) v |= truncate(value(lane, o[1].elements[i]), part) << (part * i);
        set(lane, o[0], v);
        return;
      }
      std::uint64_t v = value(lane, o[1]);
      if (o[1].kind == ptx::Operand::Kind::imm && o[1].imm_is_float && in.type == Type::f64 && !(v >> 32))
        v = bits_of(static_cast<double>(as_float(v)));  // a 0f literal for a double
      set(lane, o[0], v);
      return;
    }
    case ptx::Op::cvt: {
      if (in.type == Type::f16x2 || in.type == Type::bf16x2) {
        // cvt.rn.f16x2.f32 d, a, b: a into the high half, b into the low half.
        float hi = as_float(value(lane, o[1])), lo = as_float(value(lane, o[2]));
        bool half = in.type == Type::f16x2;
        std::uint64_t h = half ? tensor::float_to_half_rn(hi) : tensor::float_to_bf16_rn(hi);
        std::uint64_t l = half ? tensor::float_to_half_rn(lo) : tensor::float_to_bf16_rn(lo);
        set(lane, o[0], (h << 16) | l);
        return;
      }
      set(lane, o[0], convert(value(lane, o[1]), in));
      return;
    }
    case ptx::Op::setp:
      set(lane, o[0], compare(value(lane, o[1]), value(lane, o[2]), in.type, in.compare) ? 1 : 0);
      return;
    case ptx::Op::selp:
      set(lane, o[0], value(lane, o[3]) ? value(lane, o[1]) : value(lane, o[2]));
      return;
    case ptx::Op::add: case ptx::Op::sub: case ptx::Op::mul: case ptx::Op::mad: case ptx::Op::min:
    case ptx::Op::max: case ptx::Op::neg: case ptx::Op::and_: case ptx::Op::or_: case ptx::Op::xor_:
    case ptx::Op::not_: case ptx::Op::shl: case ptx::Op::shr: {
      std::uint64_t a = value(lane, o[1]);
      std::uint64_t b = o.size() > 2 ? value(lane, o[2]) : 0;
      std::uint64_t c = o.size() > 3 ? value(lane, o[3]) : 0;
      if (ptx::is_float(in.type)) set(lane, o[0], float_op(in.op, a, b, c, in.type));
      else set(lane, o[0], integer_op(in, a, b, c));
      return;
    }
    default:
      refuse(lane, "this instruction is parsed but not implemented by the CPU backend");
  }
}

}  // namespace engine::cpu::ptx_run

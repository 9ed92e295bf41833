// The warp-wide matrix instructions of inline PTX on the CPU backend: ldmatrix, stmatrix and
// mma.sync. All 32 lanes of a warp execute them together; the engine lets the lanes meet (a
// warp collective) and the last to arrive moves the data or multiplies for the whole warp.
// The fragment layouts are those of the PTX ISA (docs/dev/engine.md, "Inline PTX", cites the
// sections); the arithmetic of mma is tensor_math.h's.
#include <cstdio>
#include <cstring>

#include "lane.h"
#include "tensor_math.h"

namespace engine::cpu::ptx_run {
namespace {

using ptx::Type;

Lane& lane_of(void* const* lane_data, unsigned l) { return *static_cast<Lane*>(lane_data[l]); }

CudaThread& thread_of(const Lane& lane) { return *lane.thread; }

// The row address lane q brings to ldmatrix/stmatrix, and the row's 16 bytes on this machine.
std::uintptr_t row_address(Lane& lane, const ptx::Operand& address_operand) {
  std::uint64_t a = address(lane, address_operand);
  if (a % 16 != 0) {
    char what[200];
    std::snprintf(what, sizeof what,
                  "lane %u gives the row address %#llx, which is not a multiple of 16: each row of an 8 x 8 "
                  "matrix is 16 bytes and must start 16-byte aligned",
                  lane.thread->lane, static_cast<unsigned long long>(a));
    current_worker->warp_misuse(cuda_cpu::WarpOp::ptx, lane.thread->lane, what);
  }
  return shared_host_address(lane, a, 16);
}

std::uint16_t half_of(std::uint64_t reg, unsigned which) { return static_cast<std::uint16_t>(reg >> (16 * which)); }

void load_matrices(void* const* lanes, const ptx::Instruction& in) {
  const unsigned matrices = in.matrices;
  std::uint16_t rows[4][8][8];  // [matrix][row][column]
  for (unsigned j = 0; j < matrices; ++j)
    for (unsigned r = 0; r < 8; ++r) {
      Lane& q = lane_of(lanes, 8 * j + r);
      std::uintptr_t host = row_address(q, q.instruction->operands[1]);
      access(q, thread_of(q), host, 16, false);
      std::memcpy(rows[j][r], reinterpret_cast<const void*>(host), 16);
    }
  for (unsigned l = 0; l < 32; ++l) {
    Lane& me = lane_of(lanes, l);
    const ptx::Operand& destination = me.instruction->operands[0];
    for (unsigned j = 0; j < matrices; ++j) {
      // Lane l holds row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1; .trans: the transposed matrix.
      unsigned r = l / 4, c = 2 * (l % 4);
      std::uint16_t lo = in.transposed ? rows[j][c][r] : rows[j][r][c];
      std::uint16_t hi = in.transposed ? rows[j][c + 1][r] : rows[j][r][c + 1];
      set(me, destination.elements[j], std::uint64_t(lo) | (std::uint64_t(hi) << 16));
    }
  }
}

void store_matrices(void* const* lanes, const ptx::Instruction& in) {
  const unsigned matrices = in.matrices;
  std::uint16_t rows[4][8][8];
  for (unsigned l = 0; l < 32; ++l) {
    Lane& me = lane_of(lanes, l);
    const ptx::Operand& source = me.instruction->operands[1];
    for (unsigned j = 0; j < matrices; ++j) {
      std::uint64_t reg = value(me, source.elements[j]);
      unsigned r = l / 4, c = 2 * (l % 4);
      if (in.transposed) {
        rows[j][c][r] = half_of(reg, 0);
        rows[j][c + 1][r] = half_of(reg, 1);
      } else {
        rows[j][r][c] = half_of(reg, 0);
        rows[j][r][c + 1] = half_of(reg, 1);
      }
    }
  }
  for (unsigned j = 0; j < matrices; ++j)
    for (unsigned r = 0; r < 8; ++r) {
      Lane& q = lane_of(lanes, 8 * j + r);
      std::uintptr_t host = row_address(q, q.instruction->operands[0]);
      access(q, thread_of(q), host, 16, true);
      std::memcpy(reinterpret_cast<void*>(host), rows[j][r], 16);
    }
}

float element_value(std::uint64_t reg, unsigned which, Type t) {
  switch (t) {
    case Type::f16: return tensor::half_to_float(half_of(reg, which));
    case Type::bf16: return tensor::bf16_to_float(half_of(reg, which));
    case Type::tf32: return tensor::tf32_to_float(static_cast<std::uint32_t>(reg));
    case Type::f32: {
      float f;
      std::uint32_t b = static_cast<std::uint32_t>(reg);
      std::memcpy(&f, &b, 4);
      return f;
    }
    default: return 0;
  }
}

std::uint64_t reg_of(const Lane& lane, const ptx::Operand& vector, unsigned i) { return value(lane, vector.elements[i]); }

// mma.sync.aligned.m16n8k{16,8}.row.col: the PTX ISA's fragment layouts (section "Matrix
// fragments for mma.m16n8k16 / mma.m16n8k8"): with g = lane / 4 and t = lane % 4,
//   f16/bf16 A: register i holds row g + 8 (i % 2), columns 2t + 8 (i / 2) and +1;
//   f16/bf16 B: register i holds rows 2t + 8 i and +1 of column g;
//   tf32 A: register i holds row g + 8 (i % 2), column t + 4 (i / 2); B: row t + 4 i, column g;
//   C and D: f32 register i holds row g + 8 (i / 2), column 2t + (i % 2); an f16 register i
//   holds row g + 8 i, columns 2t and 2t + 1.
void multiply(void* const* lanes, const ptx::Instruction& in) {
  const unsigned K = in.k;
  float a[16][16], b[16][8], c[16][8];
  const bool tf32 = in.a_type == Type::tf32;
  for (unsigned l = 0; l < 32; ++l) {
    Lane& me = lane_of(lanes, l);
    const auto& o = me.instruction->operands;
    unsigned g = l / 4, t = l % 4;
    if (tf32) {
      for (unsigned i = 0; i < 4; ++i) a[g + 8 * (i % 2)][t + 4 * (i / 2)] = element_value(reg_of(me, o[1], i), 0, Type::tf32);
      for (unsigned i = 0; i < 2; ++i) b[t + 4 * i][g] = element_value(reg_of(me, o[2], i), 0, Type::tf32);
    } else {
      unsigned a_regs = K == 16 ? 4 : 2, b_regs = K == 16 ? 2 : 1;
      for (unsigned i = 0; i < a_regs; ++i)
        for (unsigned h = 0; h < 2; ++h)
          a[g + 8 * (i % 2)][2 * t + 8 * (i / 2) + h] = element_value(reg_of(me, o[1], i), h, in.a_type);
      for (unsigned i = 0; i < b_regs; ++i)
        for (unsigned h = 0; h < 2; ++h) b[2 * t + 8 * i + h][g] = element_value(reg_of(me, o[2], i), h, in.b_type);
    }
    if (in.c_type == Type::f32) {
      for (unsigned i = 0; i < 4; ++i) c[g + 8 * (i / 2)][2 * t + i % 2] = element_value(reg_of(me, o[3], i), 0, Type::f32);
    } else {
      for (unsigned i = 0; i < 2; ++i)
        for (unsigned h = 0; h < 2; ++h) c[g + 8 * i][2 * t + h] = element_value(reg_of(me, o[3], i), h, Type::f16);
    }
  }
  const int min_exponent = in.a_type == Type::f16 ? -14 : -126;  // the input format's smallest
  float d[16][8];
  std::uint16_t d_half[16][8];
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned n = 0; n < 8; ++n) {
      float column[16];
      for (unsigned kk = 0; kk < K; ++kk) column[kk] = b[kk][n];
      if (in.d_type == Type::f32) d[r][n] = tensor::dot_to_float(a[r], column, K, c[r][n], min_exponent);
      else d_half[r][n] = tensor::dot_to_half(a[r], column, K, c[r][n], min_exponent, in.c_type == Type::f16 ? -14 : -126);
    }
  // Everything is read before anything is written: d and c may be the same registers.
  for (unsigned l = 0; l < 32; ++l) {
    Lane& me = lane_of(lanes, l);
    const ptx::Operand& dv = me.instruction->operands[0];
    unsigned g = l / 4, t = l % 4;
    if (in.d_type == Type::f32) {
      for (unsigned i = 0; i < 4; ++i) {
        float v = d[g + 8 * (i / 2)][2 * t + i % 2];
        std::uint32_t bits;
        std::memcpy(&bits, &v, 4);
        set(me, dv.elements[i], bits);
      }
    } else {
      for (unsigned i = 0; i < 2; ++i) {
        std::uint64_t lo = d_half[g + 8 * i][2 * t];
        std::uint64_t hi = d_half[g + 8 * i][2 * t + 1];
        set(me, dv.elements[i], lo | (hi << 16));
      }
    }
  }
}

// elect.sync d|p, membermask: the lowest lane of the mask is elected; d is its lane number in
// every lane, p true in it alone.
void elect(void* const* lanes, unsigned mask) {
  unsigned leader = 32;
  for (unsigned l = 0; l < 32 && leader == 32; ++l)
    if ((mask >> l) & 1u) leader = l;
  for (unsigned l = 0; l < 32; ++l) {
    if (!((mask >> l) & 1u) || lanes[l] == nullptr) continue;
    Lane& me = lane_of(lanes, l);
    const ptx::Operand& out = me.instruction->operands[0];
    set(me, out.elements[0], leader);
    set(me, out.elements[1], l == leader ? 1 : 0);
  }
}

void complete(void* const* lanes, unsigned mask, const void* context) {
  const auto& in = *static_cast<const ptx::Instruction*>(context);
  if (in.op == ptx::Op::elect) return elect(lanes, mask);
  if (mask != 0xFFFFFFFFu)
    current_worker->warp_misuse(cuda_cpu::WarpOp::ptx, 0,
                                "it needs all 32 lanes of a full warp (.sync.aligned), and this warp has fewer: make "
                                "the block's thread count a multiple of 32");
  switch (in.op) {
    case ptx::Op::ldmatrix: load_matrices(lanes, in); return;
    case ptx::Op::stmatrix: store_matrices(lanes, in); return;
    case ptx::Op::mma: multiply(lanes, in); return;
    default: return;
  }
}

}  // namespace

void run_matrix(Lane& lane, const ptx::Instruction& in) {
  Worker& w = *current_worker;
  lane.thread->wait_site = lane.site;
  unsigned mask = in.op == ptx::Op::elect ? static_cast<unsigned>(value(lane, in.operands[1])) : 0xFFFFFFFFu;
  w.warp_collective(cuda_cpu::WarpOp::ptx, mask, &lane, &complete, &in, lane.statement->line, lane.statement->file,
                    in.text.c_str());
}

}  // namespace engine::cpu::ptx_run

// Hopper's warpgroup MMA on the CPU backend: wgmma.mma_async and its fence, commit_group and
// wait_group, and setmaxnreg, all warpgroup collectives: the 128 threads of warps 4g .. 4g + 3
// meet, and the last to arrive does the work. wgmma reads its operands from shared memory
// through matrix descriptors (start address, leading and stride byte offsets, swizzle); the
// engine computes the product when it is issued, with the tensor cores' measured arithmetic,
// and holds the shared memory it read as "being read" until a wait_group covers its group:
// overwriting it before is a race.
//
// Descriptor layouts, as measured on an H100 (docs/dev/engine.md, "wgmma"): for an operand
// stored K-major, row r (of M or N) and column k are at
//   no swizzle:     start + (r / 8) SBO + (k / 8) LBO + (r % 8) 16 + (k % 8) 2
//   a swizzle of S: start + (r / 8) SBO + (r % 8) S + 2k, then swizzled on the address bits;
// stored MN-major (transposed, .trans = 1), with E = S / 2 elements per swizzle row:
//   a swizzle of S: start + (r / E) LBO + (k / 8) SBO + (k % 8) S + 2 (r % E), swizzled.
#include <cstdio>
#include <cstring>

#include "../symbol_table.h"
#include "hopper.h"
#include "tensor_math.h"

namespace engine::cpu::ptx_run {
namespace {

using ptx::Type;

Worker& worker() { return *current_worker; }
Lane& lane_of(void* const* lanes, unsigned i) { return *static_cast<Lane*>(lanes[i]); }

struct Descriptor {
  std::uint64_t start = 0, leading = 0, stride = 0;
  unsigned swizzle = 0;  // bytes: 0, 32, 64, 128
};

Descriptor decode(std::uint64_t d) {
  Descriptor r;
  r.start = (d & 0x3FFFu) << 4;
  r.leading = ((d >> 16) & 0x3FFFu) << 4;
  r.stride = ((d >> 32) & 0x3FFFu) << 4;
  unsigned mode = static_cast<unsigned>((d >> 62) & 3u);
  r.swizzle = mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0;
  return r;
}

std::uint64_t swizzled(std::uint64_t address, unsigned span) {
  unsigned mask = span == 128 ? 7 : span == 64 ? 3 : span == 32 ? 1 : 0;
  return address ^ (((address >> 7) & mask) << 4);
}

// The shared-window address of element (r, k) of an operand.
std::uint64_t element_address(const Descriptor& d, unsigned r, unsigned k, bool mn_major) {
  if (!mn_major) {
    if (d.swizzle == 0) return d.start + (r / 8) * d.stride + (k / 8) * d.leading + (r % 8) * 16 + (k % 8) * 2;
    return swizzled(d.start + (r / 8) * d.stride + (r % 8) * d.swizzle + k * 2, d.swizzle);
  }
  unsigned per_row = d.swizzle / 2;
  return swizzled(d.start + (r / per_row) * d.leading + (k / 8) * d.stride + (k % 8) * d.swizzle + (r % per_row) * 2,
                  d.swizzle);
}

float element_value(const unsigned char* p, Type t) {
  std::uint16_t bits;
  std::memcpy(&bits, p, 2);
  return t == Type::bf16 ? tensor::bf16_to_float(bits) : tensor::half_to_float(bits);
}

// Reads an operand of `rows` x 16 through its descriptor, checking each element as the
// asynchronous unit's read for `reader` and marking it read by the warpgroup's open group.
void read_operand(Lane& reader, const Descriptor& d, unsigned rows, bool mn_major, Type t, unsigned warpgroup,
                  std::uint32_t group, float* out /* [rows][16] */) {
  Worker& w = worker();
  if (mn_major && d.swizzle == 0)
    refuse(reader, "a transposed (MN-major) wgmma operand without a swizzle is not supported by the CPU backend; use "
                   "a 32-, 64- or 128-byte swizzle");
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned k = 0; k < 16; ++k) {
      std::uint64_t a = element_address(d, r, k, mn_major);
      std::uintptr_t host = shared_host_address(reader, a, 2);
      if (!w.checks().async_read(host, 2, d.swizzle, reader.site, *reader.thread)) {
        out[r * 16 + k] = 0;
        continue;
      }
      w.checks().proxy_read(host, 2, Finding::ProxyReader::wgmma, reader.site, *reader.thread);
      w.checks().wgmma_reads(host, 2, warpgroup, group, reader.site);
      out[r * 16 + k] = element_value(reinterpret_cast<const unsigned char*>(host), t);
    }
}

void multiply(void* const* lanes, const ptx::Instruction& in) {
  Lane& first = lane_of(lanes, 0);
  const auto& o = first.instruction->operands;
  const unsigned N = in.n, group_index = first.thread->linear / 128;
  WarpgroupAsync& async = worker().sync().warpgroup_async[group_index];
  const std::uint32_t group = async.committed;  // the group this wgmma joins (committed next)
  async.open_group = true;
  // Immediates: scale-d is operand 3; then scale-a, scale-b, and the transposes.
  const bool accumulate = value(first, o[3]) != 0;
  const int scale_a = static_cast<std::int64_t>(value(first, o[4])) < 0 ? -1 : 1;
  const int scale_b = static_cast<std::int64_t>(value(first, o[5])) < 0 ? -1 : 1;
  bool trans_a = false, trans_b = false;
  if (in.a_in_registers) {
    if (o.size() > 6) trans_b = value(first, o[6]) != 0;
  } else {
    if (o.size() > 6) trans_a = value(first, o[6]) != 0;
    if (o.size() > 7) trans_b = value(first, o[7]) != 0;
  }
  static thread_local std::vector<float> a, b;
  a.assign(64 * 16, 0.0f);
  b.assign(static_cast<std::size_t>(N) * 16, 0.0f);
  if (in.a_in_registers) {
    // As mma.m16n8k16's A fragment, warp w of the group holding rows 16 w .. 16 w + 15.
    for (unsigned l = 0; l < 128; ++l) {
      Lane& me = lane_of(lanes, l);
      const auto& regs = me.instruction->operands[1].elements;
      unsigned warp = l / 32, g = (l % 32) / 4, t = l % 4;
      for (unsigned i = 0; i < 4; ++i) {
        std::uint64_t reg = value(me, regs[i]);
        for (unsigned h = 0; h < 2; ++h) {
          std::uint16_t bits = static_cast<std::uint16_t>(reg >> (16 * h));
          unsigned row = 16 * warp + g + 8 * (i % 2), col = 2 * t + 8 * (i / 2) + h;
          a[row * 16 + col] = in.a_type == Type::bf16 ? tensor::bf16_to_float(bits) : tensor::half_to_float(bits);
        }
      }
    }
  } else {
    read_operand(first, decode(value(first, o[1])), 64, trans_a, in.a_type, group_index, group, a.data());
  }
  read_operand(first, decode(value(first, o[2])), N, trans_b, in.b_type, group_index, group, b.data());
  if (scale_a < 0)
    for (float& x : a) x = -x;
  if (scale_b < 0)
    for (float& x : b) x = -x;
  const int min_exponent = in.a_type == Type::f16 ? -14 : -126;
  // The accumulators belong to the wgmma until a wait_group retires its group: the C++
  // variables bound to its outputs (one range per thread when they are contiguous, as an
  // array's elements are) are watched meanwhile (AccessChecks::accumulator_access).
  for (unsigned l = 0; l < 128; ++l) {
    Lane& me = lane_of(lanes, l);
    std::uintptr_t lo = ~std::uintptr_t{0}, hi = 0;
    unsigned bytes = 0;
    for (const ptx::Operand& r : me.instruction->operands[0].elements) {
      if (r.kind != ptx::Operand::Kind::reg || r.reg < 0 || static_cast<unsigned>(r.reg) >= me.bound_count) continue;
      auto at = reinterpret_cast<std::uintptr_t>(me.bound[r.reg].address);
      if (at == 0) continue;
      lo = at < lo ? at : lo;
      hi = at + 4 > hi ? at + 4 : hi;
      bytes += 4;
    }
    if (bytes > 0 && hi - lo == bytes)
      worker().checks().accumulators_issued(*me.thread, lo, hi, group, me.site);
  }
  // D: for each 8 columns j, lane (warp w, g = lane / 4, t = lane % 4) holds rows 16 w + g and
  // + 8, columns 8 j + 2 t and + 1, in registers 4 j .. 4 j + 3.
  for (unsigned l = 0; l < 128; ++l) {
    Lane& me = lane_of(lanes, l);
    const auto& d = me.instruction->operands[0].elements;
    unsigned warp = l / 32, g = (l % 32) / 4, t = l % 4;
    for (unsigned j = 0; j < N / 8; ++j)
      for (unsigned e = 0; e < 4; ++e) {
        unsigned row = 16 * warp + g + 8 * (e / 2), col = 8 * j + 2 * t + (e % 2);
        float c = 0.0f;
        if (accumulate) {
          std::uint32_t bits = static_cast<std::uint32_t>(value(me, d[4 * j + e]));
          std::memcpy(&c, &bits, 4);
        }
        float column[16];
        for (unsigned k = 0; k < 16; ++k) column[k] = b[col * 16 + k];
        float result = tensor::dot_to_float(&a[row * 16], column, 16, c, min_exponent);
        std::uint32_t bits;
        std::memcpy(&bits, &result, 4);
        set(me, d[4 * j + e], bits);
      }
  }
}

void complete(void* const* lanes, unsigned, const void* context) {
  const auto& in = *static_cast<const ptx::Instruction*>(context);
  Lane& first = lane_of(lanes, 0);
  WarpgroupAsync& async = worker().sync().warpgroup_async[first.thread->linear / 128];
  profile_warpgroup(first, in);
  switch (in.op) {
    case ptx::Op::wgmma: multiply(lanes, in); return;
    case ptx::Op::wgmma_fence: return;
    case ptx::Op::wgmma_commit:
      ++async.committed;
      async.open_group = false;
      return;
    case ptx::Op::wgmma_wait: {
      std::uint32_t keep = static_cast<std::uint32_t>(value(first, in.operands[0]));
      if (async.committed > keep && async.committed - keep > async.retired) async.retired = async.committed - keep;
      for (unsigned l = 0; l < 128; ++l) AccessChecks::accumulators_retired(*lane_of(lanes, l).thread, async.retired);
      return;
    }
    case ptx::Op::setmaxnreg: {
      std::uint64_t count = value(first, in.operands[0]);
      if (count < 24 || count > 256 || count % 8 != 0)
        worker().warp_misuse(cuda_cpu::WarpOp::ptx, 0,
                             "its register count must be a multiple of 8 from 24 to 256");
      return;
    }
    default: return;
  }
}

}  // namespace

void run_warpgroup(Lane& lane, const ptx::Instruction& in) {
  WaitReason where;
  where.line = lane.statement->line;
  where.file = lane.statement->file;
  where.site = lane.site;
  where.name = in.text.c_str();
  lane.thread->wait_site = lane.site;
  worker().warpgroup_collective(&lane, &complete, &in, where);
}

}  // namespace engine::cpu::ptx_run

// Inline PTX as the CPU backend reads it: the template of one `asm` statement, parsed once
// into a small program of decoded instructions over registers. The registers are the
// statement's operands (%0, %1, ... bound to the C++ values of its operand lists) and the
// ones its `.reg` lines declare. The same parser serves the build (which rejects what the
// backend cannot run, with the file and line) and the engine (which runs it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptx {

enum class Type : std::uint8_t {
  none, pred, b8, b16, b32, b64, u8, u16, u32, u64, s8, s16, s32, s64, f16, f16x2, bf16, bf16x2, tf32, f32, f64
};
unsigned bits_of(Type t);  // 0 for none; 1 for pred
bool is_float(Type t);
bool is_signed(Type t);
const char* type_name(Type t);  // ".u32"

enum class Space : std::uint8_t { none, generic, shared, shared_cluster, global, local, param, constant };

enum class Special : std::uint8_t {
  none, laneid, warpid, nwarpid, tid_x, tid_y, tid_z, ntid_x, ntid_y, ntid_z, ctaid_x, ctaid_y, ctaid_z,
  nctaid_x, nctaid_y, nctaid_z, lanemask_eq, lanemask_lt, lanemask_le, lanemask_gt, lanemask_ge, clock, clock64,
  globaltimer, smid, nsmid, dynamic_smem_size, total_smem_size, cluster_ctarank, cluster_nctarank,
  cluster_ctaid_x, cluster_ctaid_y, cluster_ctaid_z, cluster_nctaid_x, cluster_nctaid_y, cluster_nctaid_z,
  clusterid_x, clusterid_y, clusterid_z, is_explicit_cluster
};

struct Operand {
  // tensor_address: [map, {c0, c1, ...}] (reg: the map's address, elements: coordinates).
  // pair: d|p, a value and a predicate (elect.sync).
  enum class Kind : std::uint8_t { reg, imm, special, vector, address, tensor_address, pair, label, sink };
  Kind kind = Kind::reg;
  int reg = -1;              // reg; address: the base register, or -1 for an absolute address
  bool negated = false;      // a predicate written !p
  std::int64_t imm = 0;      // imm (integers, and floats as their bits); address: the offset
  bool imm_is_float = false; // 0f3F800000 (f32 bits) or 0d... (f64 bits), or a decimal with a point
  Special special = Special::none;
  std::vector<Operand> elements;  // vector {a, b, ...}
  std::string label;              // label: the target's name
};

enum class Op : std::uint16_t {
  mov, cvta, cvt, add, sub, mul, mad, shl, shr, and_, or_, xor_, not_, min, max, neg, setp, selp, ld, st,
  ldmatrix, stmatrix, mma, cp_async, cp_async_commit, cp_async_wait_group, cp_async_wait_all,
  bar_sync, bar_arrive, fence, nanosleep, bra, ret, trap,
  // Hopper (sm_90): mbarriers, the tensor memory accelerator, warpgroup MMA, clusters.
  mbarrier_init, mbarrier_arrive, mbarrier_expect_tx, mbarrier_try_wait, mbarrier_test_wait, mbarrier_inval,
  tma_load, tma_store, bulk_commit, bulk_wait_group,
  wgmma, wgmma_fence, wgmma_commit, wgmma_wait,
  setmaxnreg, elect, cluster_arrive, cluster_wait, mapa,
};

enum class Compare : std::uint8_t { eq, ne, lt, le, gt, ge, lo, ls, hi, hs };
enum class Rounding : std::uint8_t { none, rn, rz, rm, rp, rna, rni, rzi, rmi, rpi };

// One instruction, its opcode decoded into the fields its kind uses.
struct Instruction {
  Op op{};
  std::string text;  // the opcode as written: "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
  std::vector<Operand> operands;
  int guard = -1;  // @p: the predicate register, or -1
  bool guard_negated = false;

  Type type = Type::none;   // the main type suffix (.u32 of add.u32; the destination of cvt)
  Type type2 = Type::none;  // cvt's source type; setp's compared type is `type`
  Space space = Space::none;
  unsigned vector = 1;      // ld/st .v2/.v4
  Compare compare{};
  Rounding rounding = Rounding::none;
  bool saturate = false, hi = false, wide = false;  // cvt .sat; mul/mad .hi/.wide (else .lo)
  bool to_space = false;    // cvta.to.<space> (generic to space); otherwise space to generic
  // ldmatrix/stmatrix: 1, 2 or 4 matrices, transposed or not.
  unsigned matrices = 0;
  bool transposed = false;
  // mma: the shape and the types of d, a, b, c.
  unsigned m = 0, n = 0, k = 0;
  Type d_type = Type::none, a_type = Type::none, b_type = Type::none, c_type = Type::none;
  // cp.async: .cg (bypasses L1: 16 bytes only) or .ca.
  bool cache_global = false;
  // bar.sync with a thread count operand; bra.uni.
  bool uniform = false;
  // mbarrier: .parity waits; arrive with expect_tx.
  bool parity = false, expect_tx = false;
  // cp.async.bulk.tensor: dimensions, .multicast::cluster; bulk wait_group .read.
  unsigned dims = 0;
  bool multicast = false, read_only = false;
  // wgmma: A from registers (else from a shared-memory descriptor); setmaxnreg: .inc or .dec.
  bool a_in_registers = false, increase = false;
};

struct Register {
  std::string name;          // "%3" for operand 3, or the declared name
  Type type = Type::none;    // declared registers; operands: from their constraint
  int operand = -1;          // the asm operand it stands for, or -1 for a declared register
};

struct Program {
  std::vector<Register> registers;  // the operands first (register i is %i), then declarations
  std::vector<Instruction> code;
  std::vector<std::pair<std::string, std::size_t>> labels;  // name, index into code
  std::size_t label_target(const std::string& name) const;  // code.size() if absent
};

// An asm operand's constraint: "=r", "+f", "l", "n", "h", ...
struct Constraint {
  char letter = 'r';  // r (32-bit), l (64-bit), h (16-bit), c (8-bit), f (f32), d (f64), n (immediate)
  bool output = false, input = true;  // "=x": output only; "+x": both
  int tied = -1;  // an input written "0": it starts in output 0's register (GCC's matching constraint)
};
// Splits "=f,=f,r,l,n" into constraints; false (with `error`) for one the backend does not know.
bool parse_constraints(const std::string& list, std::vector<Constraint>& out, std::string& error);

struct ParseError {
  std::string message;      // what is wrong, for people: "the CPU backend does not know the PTX instruction ..."
  std::string instruction;  // the instruction concerned, as written, when there is one
};

// Parses the template of an asm statement with its operands' constraints.
bool parse_program(const std::string& text, const std::vector<Constraint>& constraints, Program& out,
                   ParseError& error);

}  // namespace ptx

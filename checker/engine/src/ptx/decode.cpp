#include "decode.h"

#include <vector>

namespace ptx {
namespace {

std::vector<std::string> split_parts(const std::string& opcode) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : opcode) {
    if (c == '.') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

bool is_one_of(const std::string& s, std::initializer_list<const char*> options) {
  for (const char* o : options)
    if (s == o) return true;
  return false;
}

Space decode_space(const std::string& s) {
  if (s == "shared" || s == "shared::cta") return Space::shared;
  if (s == "shared::cluster") return Space::shared_cluster;
  if (s == "global") return Space::global;
  if (s == "local") return Space::local;
  if (s == "param") return Space::param;
  if (s == "const") return Space::constant;
  return Space::none;
}

Rounding decode_rounding(const std::string& s) {
  if (s == "rn") return Rounding::rn;
  if (s == "rz") return Rounding::rz;
  if (s == "rm") return Rounding::rm;
  if (s == "rp") return Rounding::rp;
  if (s == "rna") return Rounding::rna;
  if (s == "rni") return Rounding::rni;
  if (s == "rzi") return Rounding::rzi;
  if (s == "rmi") return Rounding::rmi;
  if (s == "rpi") return Rounding::rpi;
  return Rounding::none;
}

// Cache, eviction and ordering qualifiers: they change how a GPU caches or orders an access,
// never its value in a single thread, so the CPU backend accepts and ignores them.
bool is_memory_hint(const std::string& s) {
  return is_one_of(s, {"ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "weak", "volatile", "relaxed", "acquire",
                       "release", "cta", "gpu", "sys", "cluster", "L2::64B", "L2::128B", "L2::256B",
                       "L2::cache_hint", "L1::evict_normal", "L1::evict_unchanged", "L1::evict_first",
                       "L1::evict_last", "L1::no_allocate", "L2::evict_normal", "L2::evict_first",
                       "L2::evict_last"});
}

std::string unknown(const Instruction& in) {
  return "the CPU backend does not know the PTX instruction " + in.text;
}

bool decode_simple_typed(Instruction& in, const std::vector<std::string>& p, std::string& why) {
  // add{.sat}.type, sub, min, max, neg, not, and, or, xor, shl, shr, selp, mov
  for (std::size_t i = 1; i < p.size(); ++i) {
    if (p[i] == "sat") {
      in.saturate = true;
      continue;
    }
    if (p[i] == "ftz" || p[i] == "uni") continue;
    Rounding r = decode_rounding(p[i]);
    if (r != Rounding::none) {
      in.rounding = r;
      continue;
    }
    Type t = decode_type(p[i]);
    if (t == Type::none || in.type != Type::none) {
      why = unknown(in);
      return false;
    }
    in.type = t;
  }
  if (in.type == Type::none) {
    why = unknown(in) + " (no type suffix)";
    return false;
  }
  return true;
}

}  // namespace

Type decode_type(const std::string& s) {
  static const struct {
    const char* name;
    Type type;
  } kTypes[] = {{"pred", Type::pred}, {"b8", Type::b8},     {"b16", Type::b16},       {"b32", Type::b32},
                {"b64", Type::b64},   {"u8", Type::u8},     {"u16", Type::u16},       {"u32", Type::u32},
                {"u64", Type::u64},   {"s8", Type::s8},     {"s16", Type::s16},       {"s32", Type::s32},
                {"s64", Type::s64},   {"f16", Type::f16},   {"f16x2", Type::f16x2},   {"bf16", Type::bf16},
                {"bf16x2", Type::bf16x2}, {"tf32", Type::tf32}, {"f32", Type::f32},   {"f64", Type::f64}};
  for (const auto& t : kTypes)
    if (s == t.name) return t.type;
  return Type::none;
}

bool decode_instruction(Instruction& in, std::string& why) {
  std::vector<std::string> p = split_parts(in.text);
  const std::string& head = p[0];

  if (head == "mov" || head == "add" || head == "sub" || head == "min" || head == "max" || head == "neg" ||
      head == "not" || head == "and" || head == "or" || head == "xor" || head == "shl" || head == "shr" ||
      head == "selp") {
    in.op = head == "mov" ? Op::mov : head == "add" ? Op::add : head == "sub" ? Op::sub : head == "min" ? Op::min
          : head == "max" ? Op::max : head == "neg" ? Op::neg : head == "not" ? Op::not_ : head == "and" ? Op::and_
          : head == "or" ? Op::or_ : head == "xor" ? Op::xor_ : head == "shl" ? Op::shl : head == "shr" ? Op::shr
          : Op::selp;
    if (!decode_simple_typed(in, p, why)) return false;
    bool float_ok = in.op == Op::mov || in.op == Op::add || in.op == Op::sub || in.op == Op::min ||
                    in.op == Op::max || in.op == Op::neg || in.op == Op::selp;
    if (is_float(in.type) && (!float_ok || (in.type != Type::f32 && in.type != Type::f64 && in.op != Op::mov &&
                                            in.op != Op::selp))) {
      why = unknown(in) + " (the CPU backend does these on integers, f32 and f64)";
      return false;
    }
    return true;
  }
  if (head == "mul" || head == "mad" || head == "fma") {
    in.op = head == "mul" ? Op::mul : Op::mad;
    for (std::size_t i = 1; i < p.size(); ++i) {
      if (p[i] == "lo") continue;
      if (p[i] == "hi") { in.hi = true; continue; }
      if (p[i] == "wide") { in.wide = true; continue; }
      if (p[i] == "ftz" || p[i] == "sat") continue;
      Rounding r = decode_rounding(p[i]);
      if (r != Rounding::none) { in.rounding = r; continue; }
      Type t = decode_type(p[i]);
      if (t == Type::none || in.type != Type::none) { why = unknown(in); return false; }
      in.type = t;
    }
    if (in.type == Type::none || (is_float(in.type) && in.type != Type::f32 && in.type != Type::f64)) {
      why = unknown(in);
      return false;
    }
    return true;
  }
  if (head == "setp") {
    in.op = Op::setp;
    static const struct { const char* name; Compare c; } kCompares[] = {
        {"eq", Compare::eq}, {"ne", Compare::ne}, {"lt", Compare::lt}, {"le", Compare::le}, {"gt", Compare::gt},
        {"ge", Compare::ge}, {"lo", Compare::lo}, {"ls", Compare::ls}, {"hi", Compare::hi}, {"hs", Compare::hs}};
    bool have_compare = false;
    for (std::size_t i = 1; i < p.size(); ++i) {
      bool matched = false;
      for (const auto& c : kCompares)
        if (p[i] == c.name && !have_compare) in.compare = c.c, have_compare = matched = true;
      if (matched || p[i] == "ftz") continue;
      Type t = decode_type(p[i]);
      if (t == Type::none || in.type != Type::none) { why = unknown(in); return false; }
      in.type = t;
    }
    if (!have_compare || in.type == Type::none || (is_float(in.type) && in.type != Type::f32 && in.type != Type::f64)) {
      why = unknown(in);
      return false;
    }
    return true;
  }
  if (head == "cvta") {
    in.op = Op::cvta;
    std::size_t i = 1;
    if (i < p.size() && p[i] == "to") in.to_space = true, ++i;
    if (i < p.size()) in.space = decode_space(p[i++]);
    if (i < p.size()) in.type = decode_type(p[i++]);
    if (i != p.size() || (in.space != Space::shared && in.space != Space::global && in.space != Space::shared_cluster) ||
        (in.type != Type::u32 && in.type != Type::u64)) {
      why = unknown(in) + " (the CPU backend knows cvta{.to}.shared and .global, .u32 or .u64)";
      return false;
    }
    return true;
  }
  if (head == "cvt") {
    in.op = Op::cvt;
    std::vector<Type> types;
    for (std::size_t i = 1; i < p.size(); ++i) {
      Rounding r = decode_rounding(p[i]);
      if (r != Rounding::none) { in.rounding = r; continue; }
      if (p[i] == "ftz" || p[i] == "relu") continue;
      if (p[i] == "sat" || p[i] == "satfinite") { in.saturate = true; continue; }
      Type t = decode_type(p[i]);
      if (t == Type::none) { why = unknown(in); return false; }
      types.push_back(t);
    }
    if (types.size() != 2) { why = unknown(in); return false; }
    in.type = types[0];
    in.type2 = types[1];
    return true;
  }
  if (head == "ld" || head == "st") {
    in.op = head == "ld" ? Op::ld : Op::st;
    for (std::size_t i = 1; i < p.size(); ++i) {
      Space s = decode_space(p[i]);
      if (s != Space::none) { in.space = s; continue; }
      if (p[i] == "v2") { in.vector = 2; continue; }
      if (p[i] == "v4") { in.vector = 4; continue; }
      if (is_memory_hint(p[i])) continue;
      Type t = decode_type(p[i]);
      if (t == Type::none || in.type != Type::none) { why = unknown(in); return false; }
      in.type = t;
    }
    if (in.type == Type::none || in.type == Type::pred) { why = unknown(in) + " (no type suffix)"; return false; }
    if (in.space == Space::none) in.space = Space::generic;
    if (in.space != Space::generic && in.space != Space::shared && in.space != Space::global &&
        in.space != Space::shared_cluster) {
      why = unknown(in) + " (the CPU backend loads and stores .shared, .global and generic addresses)";
      return false;
    }
    return true;
  }
  if (head == "ldmatrix" || head == "stmatrix") {
    in.op = head == "ldmatrix" ? Op::ldmatrix : Op::stmatrix;
    bool sync = false, aligned = false, shape = false;
    for (std::size_t i = 1; i < p.size(); ++i) {
      if (p[i] == "sync") sync = true;
      else if (p[i] == "aligned") aligned = true;
      else if (p[i] == "m8n8") shape = true;
      else if (p[i] == "x1") in.matrices = 1;
      else if (p[i] == "x2") in.matrices = 2;
      else if (p[i] == "x4") in.matrices = 4;
      else if (p[i] == "trans") in.transposed = true;
      else if (decode_space(p[i]) == Space::shared) in.space = Space::shared;
      else if (p[i] == "b16") in.type = Type::b16;
      else { why = unknown(in); return false; }
    }
    if (!sync || !aligned || !shape || in.matrices == 0 || in.type != Type::b16) {
      why = unknown(in) + " (the CPU backend knows " + head + ".sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16)";
      return false;
    }
    in.space = Space::shared;
    return true;
  }
  if (head == "mma") {
    in.op = Op::mma;
    // mma.sync.aligned.m16n8k16.row.col{.satfinite}.dtype.atype.btype.ctype
    std::vector<Type> types;
    bool sync = false, aligned = false, row = false, col = false;
    for (std::size_t i = 1; i < p.size(); ++i) {
      if (p[i] == "sync") sync = true;
      else if (p[i] == "aligned") aligned = true;
      else if (p[i] == "row") row = true;
      else if (p[i] == "col") col = true;
      else if (p[i] == "m16n8k16") in.m = 16, in.n = 8, in.k = 16;
      else if (p[i] == "m16n8k8") in.m = 16, in.n = 8, in.k = 8;
      else if (decode_type(p[i]) != Type::none) types.push_back(decode_type(p[i]));
      else { why = unknown(in) + " (the CPU backend knows the m16n8k16 and m16n8k8 shapes, .row.col)"; return false; }
    }
    if (!sync || !aligned || !row || !col || in.m == 0 || types.size() != 4) { why = unknown(in); return false; }
    in.d_type = types[0], in.a_type = types[1], in.b_type = types[2], in.c_type = types[3];
    bool halves = (in.a_type == Type::f16 && in.b_type == Type::f16) || (in.a_type == Type::bf16 && in.b_type == Type::bf16);
    bool tf32 = in.a_type == Type::tf32 && in.b_type == Type::tf32;
    bool ok = false;
    if (halves && in.a_type == Type::f16)
      ok = (in.d_type == Type::f32 || in.d_type == Type::f16) && (in.c_type == Type::f32 || in.c_type == Type::f16);
    else if (halves)
      ok = in.d_type == Type::f32 && in.c_type == Type::f32;
    else if (tf32)
      ok = in.k == 8 && in.d_type == Type::f32 && in.c_type == Type::f32;
    if (!ok) {
      why = unknown(in) + " (the CPU backend knows f16 and bf16 inputs with f32 sums, f16 with f16 sums, and tf32 m16n8k8)";
      return false;
    }
    return true;
  }
  if (head == "cp" && p.size() >= 2 && p[1] == "async" && (p.size() < 3 || p[2] != "bulk")) {
    if (p.size() == 3 && p[2] == "commit_group") { in.op = Op::cp_async_commit; return true; }
    if (p.size() == 3 && p[2] == "wait_group") { in.op = Op::cp_async_wait_group; return true; }
    if (p.size() == 3 && p[2] == "wait_all") { in.op = Op::cp_async_wait_all; return true; }
    in.op = Op::cp_async;
    bool dst_shared = false, src_global = false, level = false;
    for (std::size_t i = 2; i < p.size(); ++i) {
      if (p[i] == "ca") level = true;
      else if (p[i] == "cg") level = true, in.cache_global = true;
      else if (decode_space(p[i]) == Space::shared && !dst_shared) dst_shared = true;
      else if (p[i] == "global" && dst_shared) src_global = true;
      else if (is_memory_hint(p[i])) continue;
      else { why = unknown(in); return false; }
    }
    if (!level || !dst_shared || !src_global) {
      why = unknown(in) + " (the CPU backend knows cp.async.{ca,cg}.shared.global, commit_group, wait_group and wait_all)";
      return false;
    }
    in.space = Space::shared;
    return true;
  }
  if ((head == "bar" || head == "barrier") && p.size() >= 2 && p[1] == "cluster") {
    // barrier.cluster.arrive{.release|.relaxed}{.aligned}, barrier.cluster.wait{.acquire}{.aligned}
    bool arrive = false, wait = false;
    for (std::size_t i = 2; i < p.size(); ++i) {
      if (p[i] == "arrive") arrive = true;
      else if (p[i] == "wait") wait = true;
      else if (!is_one_of(p[i], {"release", "relaxed", "acquire", "aligned"})) { why = unknown(in); return false; }
    }
    if (arrive == wait) { why = unknown(in); return false; }
    in.op = arrive ? Op::cluster_arrive : Op::cluster_wait;
    return true;
  }
  if (head == "bar" || head == "barrier") {
    // bar.sync id{, count} / barrier.sync{.aligned}: a (named) block barrier; bar.arrive: arrive
    // without waiting.
    in.op = Op::bar_sync;
    for (std::size_t i = 1; i < p.size(); ++i) {
      if (p[i] == "arrive") in.op = Op::bar_arrive;
      else if (!is_one_of(p[i], {"sync", "aligned", "cta", "red"})) { why = unknown(in); return false; }
    }
    return true;
  }
  if (head == "mbarrier") {
    std::string verb = p.size() > 1 ? p[1] : "";
    for (std::size_t i = 2; i < p.size(); ++i) {
      if (p[i] == "parity") in.parity = true;
      else if (p[i] == "expect_tx") in.expect_tx = true;
      else if (decode_space(p[i]) == Space::shared) in.space = Space::shared;
      else if (decode_space(p[i]) == Space::shared_cluster) in.space = Space::shared_cluster;
      else if (p[i] == "b64") in.type = Type::b64;
      else if (!is_one_of(p[i], {"release", "acquire", "relaxed", "cta", "cluster", "noComplete"})) {
        why = unknown(in);
        return false;
      }
    }
    if (in.space == Space::none) in.space = Space::generic;
    if (in.type != Type::b64) { why = unknown(in) + " (mbarrier instructions take .b64)"; return false; }
    if (verb == "init") in.op = Op::mbarrier_init;
    else if (verb == "arrive") in.op = Op::mbarrier_arrive;
    else if (verb == "expect_tx") in.op = Op::mbarrier_expect_tx;
    else if (verb == "try_wait") in.op = Op::mbarrier_try_wait;
    else if (verb == "test_wait") in.op = Op::mbarrier_test_wait;
    else if (verb == "inval") in.op = Op::mbarrier_inval;
    else { why = unknown(in); return false; }
    return true;
  }
  if (head == "cp" && p.size() >= 3 && p[1] == "async" && p[2] == "bulk") {
    if (p.size() == 4 && p[3] == "commit_group") { in.op = Op::bulk_commit; return true; }
    if (p.size() >= 4 && p[3] == "wait_group") {
      in.op = Op::bulk_wait_group;
      for (std::size_t i = 4; i < p.size(); ++i)
        if (p[i] == "read") in.read_only = true;
        else { why = unknown(in); return false; }
      return true;
    }
    if (p.size() < 5 || p[3] != "tensor") {
      why = unknown(in) + " (the CPU backend knows cp.async.bulk.tensor, commit_group and wait_group)";
      return false;
    }
    // cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes{.multicast::cluster}
    // cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
    if (p[4].size() != 2 || p[4][1] != 'd' || p[4][0] < '1' || p[4][0] > '5') { why = unknown(in); return false; }
    in.dims = static_cast<unsigned>(p[4][0] - '0');
    std::vector<Space> spaces;
    bool mbarrier = false, bulk_group = false;
    for (std::size_t i = 5; i < p.size(); ++i) {
      Space sp = decode_space(p[i]);
      if (sp != Space::none) spaces.push_back(sp);
      else if (p[i] == "mbarrier::complete_tx::bytes") mbarrier = true;
      else if (p[i] == "bulk_group") bulk_group = true;
      else if (p[i] == "multicast::cluster") in.multicast = true;
      else if (!is_one_of(p[i], {"tile", "L2::cache_hint"})) { why = unknown(in); return false; }
    }
    bool load = spaces.size() == 2 && (spaces[0] == Space::shared_cluster || spaces[0] == Space::shared) &&
                spaces[1] == Space::global && mbarrier;
    bool store = spaces.size() == 2 && spaces[0] == Space::global && spaces[1] == Space::shared && bulk_group;
    if (!load && !store) {
      why = unknown(in) + " (the CPU backend knows tensor loads into .shared::cluster completing an mbarrier, "
                          "and tensor stores from .shared::cta in bulk groups)";
      return false;
    }
    in.op = load ? Op::tma_load : Op::tma_store;
    return true;
  }
  if (head == "wgmma") {
    std::string verb = p.size() > 1 ? p[1] : "";
    bool sync = false, aligned = false;
    std::vector<Type> types;
    for (std::size_t i = 2; i < p.size(); ++i) {
      if (p[i] == "sync") sync = true;
      else if (p[i] == "aligned") aligned = true;
      else if (p[i].size() > 4 && p[i][0] == 'm' && p[i].rfind("m64n", 0) == 0 && p[i].find("k16") != std::string::npos) {
        in.m = 64;
        in.n = static_cast<unsigned>(std::atoi(p[i].c_str() + 4));
        in.k = 16;
      } else if (decode_type(p[i]) != Type::none) {
        types.push_back(decode_type(p[i]));
      } else {
        why = unknown(in);
        return false;
      }
    }
    if (!sync || !aligned) { why = unknown(in) + " (.sync.aligned)"; return false; }
    if (verb == "fence") { in.op = Op::wgmma_fence; return true; }
    if (verb == "commit_group") { in.op = Op::wgmma_commit; return true; }
    if (verb == "wait_group") { in.op = Op::wgmma_wait; return true; }
    if (verb != "mma_async") { why = unknown(in); return false; }
    in.op = Op::wgmma;
    if (in.m != 64 || in.n < 8 || in.n > 256 || in.n % 8 != 0 || types.size() != 3) {
      why = unknown(in) + " (the CPU backend knows wgmma.mma_async.sync.aligned.m64nNk16 with N a multiple of 8 up to 256)";
      return false;
    }
    in.d_type = types[0], in.a_type = types[1], in.b_type = types[2];
    in.a_in_registers = in.operands.size() > 1 && in.operands[1].kind == Operand::Kind::vector;
    bool halves = (in.a_type == Type::f16 && in.b_type == Type::f16) || (in.a_type == Type::bf16 && in.b_type == Type::bf16);
    if (!halves || in.d_type != Type::f32) {
      why = unknown(in) + " (the CPU backend knows f16 and bf16 inputs with f32 sums)";
      return false;
    }
    return true;
  }
  if (head == "setmaxnreg") {
    in.op = Op::setmaxnreg;
    bool sync = false, aligned = false, direction = false;
    for (std::size_t i = 1; i < p.size(); ++i) {
      if (p[i] == "inc") in.increase = true, direction = true;
      else if (p[i] == "dec") direction = true;
      else if (p[i] == "sync") sync = true;
      else if (p[i] == "aligned") aligned = true;
      else if (p[i] == "u32") in.type = Type::u32;
      else { why = unknown(in); return false; }
    }
    if (!direction || !sync || !aligned || in.type != Type::u32) { why = unknown(in); return false; }
    return true;
  }
  if (head == "elect") {
    in.op = Op::elect;
    if (p.size() != 2 || p[1] != "sync") { why = unknown(in); return false; }
    return true;
  }
  if (head == "mapa") {
    in.op = Op::mapa;
    for (std::size_t i = 1; i < p.size(); ++i) {
      if (decode_space(p[i]) == Space::shared_cluster) in.space = Space::shared_cluster;
      else if (decode_type(p[i]) == Type::u32 || decode_type(p[i]) == Type::u64) in.type = decode_type(p[i]);
      else { why = unknown(in); return false; }
    }
    if (in.type == Type::none) { why = unknown(in); return false; }
    return true;
  }
  if (head == "fence" || head == "membar") {
    in.op = Op::fence;
    return true;
  }
  if (head == "nanosleep") {
    in.op = Op::nanosleep;
    return true;
  }
  if (head == "bra") {
    in.op = Op::bra;
    for (std::size_t i = 1; i < p.size(); ++i)
      if (p[i] == "uni") in.uniform = true;
      else { why = unknown(in); return false; }
    return true;
  }
  if (head == "ret" || head == "exit") {
    in.op = Op::ret;
    return true;
  }
  if (head == "trap") {
    in.op = Op::trap;
    return true;
  }
  why = unknown(in);
  return false;
}

namespace {

bool is_value(const Operand& o) {
  return o.kind == Operand::Kind::reg || o.kind == Operand::Kind::imm || o.kind == Operand::Kind::special;
}

bool vector_of(const Operand& o, std::size_t n) {
  if (o.kind != Operand::Kind::vector || o.elements.size() != n) return false;
  for (const Operand& e : o.elements)
    if (e.kind != Operand::Kind::reg && e.kind != Operand::Kind::sink && e.kind != Operand::Kind::imm) return false;
  return true;
}

bool count(const Instruction& in, std::size_t n, std::string& why) {
  if (in.operands.size() == n) return true;
  why = in.text + " takes " + std::to_string(n) + " operand" + (n == 1 ? "" : "s") + ", not " +
        std::to_string(in.operands.size());
  return false;
}

bool shape(bool ok, const Instruction& in, const std::string& expected, std::string& why) {
  if (!ok) why = "the operands of " + in.text + " should be " + expected;
  return ok;
}

}  // namespace

bool check_operands(const Instruction& in, std::string& why) {
  const auto& o = in.operands;
  for (const Operand& x : o)
    if (x.kind == Operand::Kind::label && in.op != Op::bra)
      return shape(false, in, "registers, numbers or addresses; " + x.label + " is none of these", why);
  switch (in.op) {
    case Op::mov:
      if (!count(in, 2, why)) return false;
      return shape((o[0].kind == Operand::Kind::reg || o[0].kind == Operand::Kind::vector) &&
                       (is_value(o[1]) || o[1].kind == Operand::Kind::vector),
                   in, "a destination register and a value", why);
    case Op::cvta:
    case Op::neg:
    case Op::not_:
      if (!count(in, 2, why)) return false;
      return shape(o[0].kind == Operand::Kind::reg && is_value(o[1]), in, "a destination register and a value", why);
    case Op::cvt:
      if (in.type == Type::f16x2 || in.type == Type::bf16x2) {
        if (!count(in, 3, why)) return false;
        return shape(o[0].kind == Operand::Kind::reg && is_value(o[1]) && is_value(o[2]), in,
                     "a destination register and two floats (the high half first)", why);
      }
      if (!count(in, 2, why)) return false;
      return shape(o[0].kind == Operand::Kind::reg && is_value(o[1]), in, "a destination register and a value", why);
    case Op::add: case Op::sub: case Op::mul: case Op::min: case Op::max: case Op::and_: case Op::or_:
    case Op::xor_: case Op::shl: case Op::shr:
      if (!count(in, 3, why)) return false;
      return shape(o[0].kind == Operand::Kind::reg && is_value(o[1]) && is_value(o[2]), in,
                   "a destination register and two values", why);
    case Op::mad:
      if (!count(in, 4, why)) return false;
      return shape(o[0].kind == Operand::Kind::reg && is_value(o[1]) && is_value(o[2]) && is_value(o[3]), in,
                   "a destination register and three values", why);
    case Op::setp:
      if (!count(in, 3, why)) return false;
      return shape(o[0].kind == Operand::Kind::reg && is_value(o[1]) && is_value(o[2]), in,
                   "a predicate register and two values", why);
    case Op::selp:
      if (!count(in, 4, why)) return false;
      return shape(o[0].kind == Operand::Kind::reg && is_value(o[1]) && is_value(o[2]) && is_value(o[3]), in,
                   "a destination register, two values and a predicate", why);
    case Op::ld:
      if (!count(in, 2, why)) return false;
      return shape((in.vector == 1 ? o[0].kind == Operand::Kind::reg : vector_of(o[0], in.vector)) &&
                       o[1].kind == Operand::Kind::address,
                   in, in.vector == 1 ? "a register and an [address]" : "a {vector} of registers and an [address]", why);
    case Op::st:
      if (!count(in, 2, why)) return false;
      return shape(o[0].kind == Operand::Kind::address &&
                       (in.vector == 1 ? is_value(o[1]) : vector_of(o[1], in.vector)),
                   in, in.vector == 1 ? "an [address] and a value" : "an [address] and a {vector} of values", why);
    case Op::ldmatrix:
      if (!count(in, 2, why)) return false;
      return shape(vector_of(o[0], in.matrices) && o[1].kind == Operand::Kind::address, in,
                   "{" + std::to_string(in.matrices) + " registers} and an [address]", why);
    case Op::stmatrix:
      if (!count(in, 2, why)) return false;
      return shape(o[0].kind == Operand::Kind::address && vector_of(o[1], in.matrices), in,
                   "an [address] and {" + std::to_string(in.matrices) + " registers}", why);
    case Op::mma: {
      if (!count(in, 4, why)) return false;
      unsigned a_regs = in.a_type == Type::tf32 ? 4 : in.k == 16 ? 4 : 2;
      unsigned b_regs = in.a_type == Type::tf32 ? 2 : in.k == 16 ? 2 : 1;
      unsigned d_regs = in.d_type == Type::f32 ? 4 : 2, c_regs = in.c_type == Type::f32 ? 4 : 2;
      return shape(vector_of(o[0], d_regs) && vector_of(o[1], a_regs) && vector_of(o[2], b_regs) &&
                       vector_of(o[3], c_regs),
                   in,
                   "{" + std::to_string(d_regs) + " d registers}, {" + std::to_string(a_regs) + " a registers}, {" +
                       std::to_string(b_regs) + " b registers}, {" + std::to_string(c_regs) + " c registers}",
                   why);
    }
    case Op::cp_async:
      if (o.size() < 3 || o.size() > 5) return shape(false, in, "[destination], [source], size{, source size}", why);
      return shape(o[0].kind == Operand::Kind::address && o[1].kind == Operand::Kind::address && is_value(o[2]) &&
                       (o.size() < 4 || is_value(o[3])) && (o.size() < 5 || is_value(o[4])),
                   in, "[destination], [source], size{, source size}", why);
    case Op::cp_async_commit:
    case Op::cp_async_wait_all:
    case Op::fence:
    case Op::ret:
    case Op::trap:
      return true;  // fence.proxy.async and membar take no operands; others none either
    case Op::cp_async_wait_group:
      if (!count(in, 1, why)) return false;
      return shape(o[0].kind == Operand::Kind::imm || o[0].kind == Operand::Kind::reg, in, "a number of groups", why);
    case Op::bar_sync:
      if (o.empty() || o.size() > 2) return shape(false, in, "a barrier number{, a thread count}", why);
      return shape(is_value(o[0]) && (o.size() < 2 || is_value(o[1])), in, "a barrier number{, a thread count}", why);
    case Op::nanosleep:
      if (!count(in, 1, why)) return false;
      return shape(is_value(o[0]), in, "a time in nanoseconds", why);
    case Op::bra:
      if (!count(in, 1, why)) return false;
      return shape(o[0].kind == Operand::Kind::label, in, "a label", why);
    case Op::bar_arrive:
      if (o.empty() || o.size() > 2) return shape(false, in, "a barrier number{, a thread count}", why);
      return shape(is_value(o[0]) && (o.size() < 2 || is_value(o[1])), in, "a barrier number{, a thread count}", why);
    case Op::mbarrier_init:
    case Op::mbarrier_expect_tx:
      if (!count(in, 2, why)) return false;
      return shape(o[0].kind == Operand::Kind::address && is_value(o[1]), in, "an [mbarrier] and a count", why);
    case Op::mbarrier_inval:
      if (!count(in, 1, why)) return false;
      return shape(o[0].kind == Operand::Kind::address, in, "an [mbarrier]", why);
    case Op::mbarrier_arrive:
      if (in.expect_tx) {
        if (!count(in, 3, why)) return false;
        return shape((o[0].kind == Operand::Kind::reg || o[0].kind == Operand::Kind::sink) &&
                         o[1].kind == Operand::Kind::address && is_value(o[2]),
                     in, "a state register (or _), an [mbarrier] and a byte count", why);
      }
      if (o.size() < 2 || o.size() > 3) return shape(false, in, "a state register (or _), an [mbarrier]{, a count}", why);
      return shape((o[0].kind == Operand::Kind::reg || o[0].kind == Operand::Kind::sink) &&
                       o[1].kind == Operand::Kind::address && (o.size() < 3 || is_value(o[2])),
                   in, "a state register (or _), an [mbarrier]{, a count}", why);
    case Op::mbarrier_try_wait:
    case Op::mbarrier_test_wait:
      if (o.size() < 3 || o.size() > 4) return shape(false, in, "a predicate, an [mbarrier] and a parity or state", why);
      return shape(o[0].kind == Operand::Kind::reg && o[1].kind == Operand::Kind::address && is_value(o[2]) &&
                       (o.size() < 4 || is_value(o[3])),
                   in, "a predicate, an [mbarrier] and a parity or state{, a time hint}", why);
    case Op::tma_load: {
      if (o.size() < 3 || o.size() > 5) return shape(false, in, "[destination], [map, {coordinates}], [mbarrier]{, cta mask}", why);
      bool ok = o[0].kind == Operand::Kind::address && o[1].kind == Operand::Kind::tensor_address &&
                o[1].elements.size() == in.dims && o[2].kind == Operand::Kind::address;
      if (in.multicast) ok = ok && o.size() >= 4 && is_value(o[3]);
      return shape(ok, in, "[destination], [map, {" + std::to_string(in.dims) + " coordinates}], [mbarrier]" +
                               (in.multicast ? ", cta mask" : ""), why);
    }
    case Op::tma_store:
      if (!count(in, 2, why)) return false;
      return shape(o[0].kind == Operand::Kind::tensor_address && o[0].elements.size() == in.dims &&
                       o[1].kind == Operand::Kind::address,
                   in, "[map, {" + std::to_string(in.dims) + " coordinates}], [source]", why);
    case Op::bulk_commit:
    case Op::wgmma_fence:
    case Op::wgmma_commit:
    case Op::cluster_arrive:
    case Op::cluster_wait:
      return count(in, 0, why);
    case Op::bulk_wait_group:
    case Op::wgmma_wait:
    case Op::setmaxnreg:
      if (!count(in, 1, why)) return false;
      // A number, or an "n" operand (an immediate the compiler substitutes).
      return shape(o[0].kind == Operand::Kind::imm || o[0].kind == Operand::Kind::reg, in, "a number", why);
    case Op::wgmma: {
      unsigned d_regs = in.n / 2;
      std::size_t want = in.a_in_registers ? 7 : 8;
      if (o.size() < want - 2 || o.size() > want)
        return shape(false, in, std::string("{d registers}, ") + (in.a_in_registers ? "{4 a registers}" : "a descriptor") +
                                    ", b descriptor, scale-d, scale-a, scale-b" + (in.a_in_registers ? "{, trans-b}" : "{, trans-a, trans-b}"),
                     why);
      bool ok = vector_of(o[0], d_regs) && (in.a_in_registers ? vector_of(o[1], 4) : is_value(o[1])) && is_value(o[2]);
      for (std::size_t i = 3; i < o.size(); ++i) ok = ok && is_value(o[i]);
      // scale-a, scale-b and the transposes are immediates: numbers, or "n" operands.
      for (std::size_t i = 4; i < o.size(); ++i) ok = ok && (o[i].kind == Operand::Kind::imm || o[i].kind == Operand::Kind::reg);
      return shape(ok, in, "{" + std::to_string(d_regs) + " d registers}, " + (in.a_in_registers ? "{4 a registers}" : "an a descriptor") +
                               ", a b descriptor, a scale-d predicate and immediate scales and transposes", why);
    }
    case Op::elect:
      if (!count(in, 2, why)) return false;
      return shape(o[0].kind == Operand::Kind::pair && is_value(o[1]), in, "d|p and a member mask", why);
    case Op::mapa:
      if (!count(in, 3, why)) return false;
      return shape(o[0].kind == Operand::Kind::reg && is_value(o[1]) && is_value(o[2]), in,
                   "a destination, a shared address and a CTA rank", why);
  }
  return true;
}

namespace {

struct WidthCheck {
  const Instruction& in;
  const std::vector<Register>& registers;
  std::string& why;

  // `exact`: the register must have this width; otherwise at least this width.
  bool operand(const Operand& o, unsigned bits, bool exact, const char* role) {
    if (o.kind == Operand::Kind::vector) {
      for (const Operand& e : o.elements)
        if (!operand(e, bits, exact, role)) return false;
      return true;
    }
    if (o.kind != Operand::Kind::reg || bits == 0) return true;
    const Register& r = registers[static_cast<std::size_t>(o.reg)];
    unsigned have = bits_of(r.type);
    if (have == 0) return true;  // an immediate operand ("n")
    if (exact ? have == bits : have >= bits) return true;
    why = "its " + std::string(role) + " " + r.name + " is " + std::to_string(have) + " bits wide, and " + in.text +
          (exact ? " needs " : " needs at least ") + std::to_string(bits) + " (\"r\" operands are 32 bits, \"l\" 64, \"h\" 16)";
    return false;
  }
  bool predicate(const Operand& o, const char* role) {
    if (o.kind != Operand::Kind::reg) return true;
    const Register& r = registers[static_cast<std::size_t>(o.reg)];
    if (r.type == Type::pred || r.operand >= 0) return true;  // an operand register may hold a predicate's 0/1
    why = "its " + std::string(role) + " " + r.name + " is not a predicate (.reg .pred)";
    return false;
  }
};

}  // namespace

bool check_widths(const Instruction& in, const std::vector<Register>& registers, std::string& why) {
  WidthCheck c{in, registers, why};
  const auto& o = in.operands;
  unsigned w = bits_of(in.type);
  switch (in.op) {
    case Op::mov:
      if (o[0].kind == Operand::Kind::vector || o[1].kind == Operand::Kind::vector) {
        const Operand& whole = o[0].kind == Operand::Kind::vector ? o[1] : o[0];
        return c.operand(whole, w, true, "operand");
      }
      return in.type == Type::pred || (c.operand(o[0], w, true, "destination") && c.operand(o[1], w, true, "source"));
    case Op::cvta:
      return c.operand(o[0], w, true, "destination") && c.operand(o[1], w, true, "source");
    case Op::cvt:
      if (in.type == Type::f16x2 || in.type == Type::bf16x2)
        return c.operand(o[0], 32, true, "destination") && c.operand(o[1], 32, true, "source") &&
               c.operand(o[2], 32, true, "source");
      return c.operand(o[0], in.type == Type::tf32 ? 32 : w, true, "destination") &&
             c.operand(o[1], bits_of(in.type2), true, "source");
    case Op::add: case Op::sub: case Op::min: case Op::max: case Op::and_: case Op::or_: case Op::xor_:
      if (in.type == Type::pred) return c.predicate(o[0], "destination");
      return c.operand(o[0], w, true, "destination") && c.operand(o[1], w, true, "source") &&
             c.operand(o[2], w, true, "source");
    case Op::not_: case Op::neg:
      if (in.type == Type::pred) return c.predicate(o[0], "destination");
      return c.operand(o[0], w, true, "destination") && c.operand(o[1], w, true, "source");
    case Op::shl: case Op::shr:
      return c.operand(o[0], w, true, "destination") && c.operand(o[1], w, true, "source") &&
             c.operand(o[2], 32, true, "shift amount");
    case Op::mul: case Op::mad:
      return c.operand(o[0], in.wide ? 2 * w : w, true, "destination") && c.operand(o[1], w, true, "source") &&
             c.operand(o[2], w, true, "source") && (in.op == Op::mul || c.operand(o[3], in.wide ? 2 * w : w, true, "addend"));
    case Op::setp:
      return c.predicate(o[0], "destination") && c.operand(o[1], w, true, "source") && c.operand(o[2], w, true, "source");
    case Op::selp:
      return c.operand(o[0], w, true, "destination") && c.operand(o[1], w, true, "source") &&
             c.operand(o[2], w, true, "source") && c.predicate(o[3], "selector");
    case Op::ld:
      return c.operand(o[0], w, false, "destination") &&
             c.operand(o[1], in.space == Space::shared ? 32 : 64, false, "address");
    case Op::st:
      return c.operand(o[1], w, false, "source") && c.operand(o[0], in.space == Space::shared ? 32 : 64, false, "address");
    case Op::ldmatrix:
      return c.operand(o[0], 32, true, "destination") && c.operand(o[1], 32, false, "address");
    case Op::stmatrix:
      return c.operand(o[1], 32, true, "source") && c.operand(o[0], 32, false, "address");
    case Op::mma:
      return c.operand(o[0], 32, true, "d register") && c.operand(o[1], 32, true, "a register") &&
             c.operand(o[2], 32, true, "b register") && c.operand(o[3], 32, true, "c register");
    case Op::cp_async:
      return c.operand(o[0], 32, false, "destination address") && c.operand(o[1], 64, true, "source address");
    case Op::wgmma:
      return c.operand(o[0], 32, true, "d register") &&
             (in.a_in_registers ? c.operand(o[1], 32, true, "a register") : c.operand(o[1], 64, true, "a descriptor")) &&
             c.operand(o[2], 64, true, "b descriptor");
    case Op::tma_load:
      return c.operand(o[0], 32, false, "destination address") && c.operand(o[2], 32, false, "mbarrier address");
    default:
      return true;
  }
}

}  // namespace ptx

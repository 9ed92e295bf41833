// Parses the template of an inline-PTX statement (program.h). The grammar is the part of
// PTX that inline assembly uses: instructions with an optional @p guard, `.reg`
// declarations, `{ }` scopes, labels, and operands that are registers, immediates, vectors
// and [addresses]. Opcodes are decoded by decode.cpp.
#include <cctype>
#include <cstdlib>
#include <map>

#include "decode.h"
#include "program.h"

namespace ptx {

unsigned bits_of(Type t) {
  switch (t) {
    case Type::none: return 0;
    case Type::pred: return 1;
    case Type::b8: case Type::u8: case Type::s8: return 8;
    case Type::b16: case Type::u16: case Type::s16: case Type::f16: case Type::bf16: return 16;
    case Type::b32: case Type::u32: case Type::s32: case Type::f32: case Type::f16x2: case Type::bf16x2:
    case Type::tf32: return 32;
    case Type::b64: case Type::u64: case Type::s64: case Type::f64: return 64;
  }
  return 0;
}

bool is_float(Type t) {
  return t == Type::f16 || t == Type::f16x2 || t == Type::bf16 || t == Type::bf16x2 || t == Type::tf32 ||
         t == Type::f32 || t == Type::f64;
}

bool is_signed(Type t) { return t == Type::s8 || t == Type::s16 || t == Type::s32 || t == Type::s64; }

const char* type_name(Type t) {
  switch (t) {
    case Type::none: return "";
    case Type::pred: return ".pred";
    case Type::b8: return ".b8";
    case Type::b16: return ".b16";
    case Type::b32: return ".b32";
    case Type::b64: return ".b64";
    case Type::u8: return ".u8";
    case Type::u16: return ".u16";
    case Type::u32: return ".u32";
    case Type::u64: return ".u64";
    case Type::s8: return ".s8";
    case Type::s16: return ".s16";
    case Type::s32: return ".s32";
    case Type::s64: return ".s64";
    case Type::f16: return ".f16";
    case Type::f16x2: return ".f16x2";
    case Type::bf16: return ".bf16";
    case Type::bf16x2: return ".bf16x2";
    case Type::tf32: return ".tf32";
    case Type::f32: return ".f32";
    case Type::f64: return ".f64";
  }
  return "";
}

std::size_t Program::label_target(const std::string& name) const {
  for (const auto& l : labels)
    if (l.first == name) return l.second;
  return code.size();
}

bool parse_constraints(const std::string& list, std::vector<Constraint>& out, std::string& error) {
  out.clear();
  if (list.empty()) return true;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    std::string c = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    Constraint k;
    std::size_t i = 0;
    k.output = false;
    k.input = true;
    for (; i < c.size() && (c[i] == '=' || c[i] == '+' || c[i] == '&'); ++i) {
      if (c[i] == '=') k.output = true, k.input = false;
      if (c[i] == '+') k.output = true, k.input = true;
    }
    std::string letters = c.substr(i);
    if (!letters.empty() && letters.find_first_not_of("0123456789") == std::string::npos && !k.output) {
      std::size_t tied = std::stoul(letters);
      if (tied >= out.size() || !out[tied].output) {
        error = "the operand constraint \"" + c + "\": it names operand " + letters + ", which is not an output before it";
        return false;
      }
      k.letter = out[tied].letter;
      k.tied = int(tied);
      out.push_back(k);
      if (comma == std::string::npos) break;
      start = comma + 1;
      continue;
    }
    if (letters.size() != 1 || std::string("rlhcfdn").find(letters[0]) == std::string::npos) {
      error = "the operand constraint \"" + c + "\" (the CPU backend knows r, l, h, c, f, d and n)";
      return false;
    }
    k.letter = letters[0];
    if (k.letter == 'n' && k.output) {
      error = "the operand constraint \"" + c + "\": an immediate (n) cannot be an output";
      return false;
    }
    out.push_back(k);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return true;
}

namespace {

Type constraint_type(char letter) {
  switch (letter) {
    case 'h': return Type::b16;
    case 'c': return Type::b8;
    case 'l': return Type::b64;
    case 'f': return Type::f32;
    case 'd': return Type::f64;
    case 'n': return Type::none;  // an immediate: any width
    default: return Type::b32;
  }
}

struct Special_name {
  const char* name;
  Special special;
};
const Special_name kSpecials[] = {
    {"laneid", Special::laneid}, {"warpid", Special::warpid}, {"nwarpid", Special::nwarpid},
    {"tid.x", Special::tid_x}, {"tid.y", Special::tid_y}, {"tid.z", Special::tid_z},
    {"ntid.x", Special::ntid_x}, {"ntid.y", Special::ntid_y}, {"ntid.z", Special::ntid_z},
    {"ctaid.x", Special::ctaid_x}, {"ctaid.y", Special::ctaid_y}, {"ctaid.z", Special::ctaid_z},
    {"nctaid.x", Special::nctaid_x}, {"nctaid.y", Special::nctaid_y}, {"nctaid.z", Special::nctaid_z},
    {"lanemask_eq", Special::lanemask_eq}, {"lanemask_lt", Special::lanemask_lt},
    {"lanemask_le", Special::lanemask_le}, {"lanemask_gt", Special::lanemask_gt},
    {"lanemask_ge", Special::lanemask_ge}, {"clock", Special::clock}, {"clock64", Special::clock64},
    {"globaltimer", Special::globaltimer}, {"smid", Special::smid}, {"nsmid", Special::nsmid},
    {"dynamic_smem_size", Special::dynamic_smem_size}, {"total_smem_size", Special::total_smem_size},
    {"cluster_ctarank", Special::cluster_ctarank}, {"cluster_nctarank", Special::cluster_nctarank},
    {"cluster_ctaid.x", Special::cluster_ctaid_x}, {"cluster_ctaid.y", Special::cluster_ctaid_y},
    {"cluster_ctaid.z", Special::cluster_ctaid_z}, {"cluster_nctaid.x", Special::cluster_nctaid_x},
    {"cluster_nctaid.y", Special::cluster_nctaid_y}, {"cluster_nctaid.z", Special::cluster_nctaid_z},
    {"clusterid.x", Special::clusterid_x}, {"clusterid.y", Special::clusterid_y},
    {"clusterid.z", Special::clusterid_z}, {"is_explicit_cluster", Special::is_explicit_cluster},
};

// Operand references and literal percent signs are told apart before anything else:
// "%3" names operand 3; "%%" is a literal '%', which starts the name of a PTX register
// (%%laneid). A lone "%name" is read as a register name too.
constexpr char kPercent = '\x01';

std::string strip_comments(const std::string& in) {
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '/' && i + 1 < in.size() && in[i + 1] == '/') {
      while (i < in.size() && in[i] != '\n') ++i;
      out += '\n';
    } else if (in[i] == '/' && i + 1 < in.size() && in[i + 1] == '*') {
      i += 2;
      while (i + 1 < in.size() && !(in[i] == '*' && in[i + 1] == '/')) ++i;
      ++i;
      out += ' ';
    } else if (in[i] == '%' && i + 1 < in.size() && in[i + 1] == '%') {
      out += kPercent;
      ++i;
    } else {
      out += in[i];
    }
  }
  return out;
}

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == kPercent; }
bool opcode_char(char c) { return name_char(c) || c == '.' || c == ':'; }

class Parser {
 public:
  Parser(const std::string& text, const std::vector<Constraint>& constraints, Program& program, ParseError& error)
      : text_(strip_comments(text)), constraints_(constraints), program_(program), error_(error) {}

  bool run() {
    program_ = Program{};
    for (std::size_t i = 0; i < constraints_.size(); ++i)
      program_.registers.push_back({"%" + std::to_string(i), constraint_type(constraints_[i].letter), int(i)});
    scopes_.emplace_back();
    while (true) {
      skip_space();
      if (pos_ >= text_.size()) break;
      char c = text_[pos_];
      if (c == '{') {
        ++pos_;
        scopes_.emplace_back();
      } else if (c == '}') {
        ++pos_;
        if (scopes_.size() == 1) return fail("a '}' without its '{'", "");
        scopes_.pop_back();
      } else if (c == ';') {
        ++pos_;
      } else if (c == '.') {
        if (!directive()) return false;
      } else {
        if (!statement()) return false;
      }
    }
    if (scopes_.size() != 1) return fail("a '{' without its '}'", "");
    for (const Instruction& in : program_.code)
      if (in.op == Op::bra && program_.label_target(in.operands[0].label) == program_.code.size() &&
          !label_defined(in.operands[0].label))
        return fail("the branch target " + in.operands[0].label + " is not a label of this asm statement", in.text);
    return true;
  }

 private:
  bool label_defined(const std::string& name) const {
    for (const auto& l : program_.labels)
      if (l.first == name) return true;
    return false;
  }

  bool fail(const std::string& message, const std::string& instruction) {
    error_.message = message;
    error_.instruction = instruction;
    return false;
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  std::string word(bool (*accept)(char)) {
    std::size_t start = pos_;
    while (pos_ < text_.size() && accept(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  static std::string readable(std::string s) {
    for (char& c : s)
      if (c == kPercent) c = '%';
    return s;
  }

  // .reg .b32 r, s<4>;   (and .pragma, which changes nothing here)
  bool directive() {
    std::string d = word(opcode_char);
    if (d == ".pragma") {
      while (pos_ < text_.size() && text_[pos_] != ';') ++pos_;
      return true;
    }
    if (d != ".reg") return fail("the PTX directive " + readable(d) + " (inside asm, the CPU backend knows .reg)", readable(d));
    skip_space();
    std::string type_text = word(opcode_char);
    Type type = decode_type(type_text.size() > 1 ? type_text.substr(1) : "");
    if (type == Type::none) return fail("the register type " + readable(type_text), ".reg " + readable(type_text));
    while (true) {
      skip_space();
      std::string name = word(name_char);
      if (name.empty()) return fail("a .reg line without a register name", ".reg");
      skip_space();
      int count = -1;
      if (pos_ < text_.size() && text_[pos_] == '<') {
        ++pos_;
        count = std::atoi(text_.c_str() + pos_);
        while (pos_ < text_.size() && text_[pos_] != '>') ++pos_;
        ++pos_;
      }
      if (count < 0) {
        declare(name, type);
      } else {
        for (int i = 0; i < count; ++i) declare(name + std::to_string(i), type);
      }
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      break;
    }
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ';') ++pos_;
    return true;
  }

  void declare(const std::string& name, Type type) {
    program_.registers.push_back({readable(name), type, -1});
    scopes_.back()[name] = int(program_.registers.size()) - 1;
  }

  int lookup(const std::string& name) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      auto it = s->find(name);
      if (it != s->end()) return it->second;
    }
    return -1;
  }

  bool statement() {
    Instruction in;
    std::size_t start = pos_;
    if (text_[pos_] == '@') {
      ++pos_;
      if (pos_ < text_.size() && text_[pos_] == '!') {
        in.guard_negated = true;
        ++pos_;
      }
      std::string p = word(name_char);
      in.guard = lookup(p);
      if (in.guard < 0) in.guard = operand_number(p);
      if (in.guard < 0) return fail("the guard @" + readable(p) + " names no predicate of this asm statement", readable(text_.substr(start, 40)));
      skip_space();
    }
    std::string opcode = word(opcode_char);
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ':' && in.guard < 0) {  // a label (the ':' was not taken: see opcode_char)
      ++pos_;
      program_.labels.push_back({opcode, program_.code.size()});
      return true;
    }
    if (!opcode.empty() && opcode.back() == ':' && opcode.find("::") == std::string::npos) {
      opcode.pop_back();
      program_.labels.push_back({opcode, program_.code.size()});
      return true;
    }
    if (opcode.empty()) return fail("unexpected text \"" + readable(text_.substr(pos_, 20)) + "\"", "");
    in.text = readable(opcode);
    // Operands, up to ';' (or the end of the template).
    skip_space();
    while (pos_ < text_.size() && text_[pos_] != ';' && text_[pos_] != '}') {
      Operand o;
      if (!operand(o, in.text)) return false;
      in.operands.push_back(std::move(o));
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        skip_space();
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] != ';' && text_[pos_] != '}')
        return fail("unexpected \"" + readable(text_.substr(pos_, 12)) + "\" after an operand", in.text);
    }
    if (pos_ < text_.size() && text_[pos_] == ';') ++pos_;
    std::string why;
    if (!decode_instruction(in, why)) return fail(why, in.text);
    if (!check_operands(in, why)) return fail(why, in.text);
    if (!check_widths(in, program_.registers, why)) return fail(why, in.text);
    program_.code.push_back(std::move(in));
    return true;
  }

  int operand_number(const std::string& name) const {
    if (name.size() < 2 || name[0] != '%' || !std::isdigit(static_cast<unsigned char>(name[1]))) return -1;
    for (std::size_t i = 1; i < name.size(); ++i)
      if (!std::isdigit(static_cast<unsigned char>(name[i]))) return -1;
    int n = std::atoi(name.c_str() + 1);
    return n < int(constraints_.size()) ? n : -2;
  }

  bool number(Operand& o, const std::string& instruction) {
    bool negative = false;
    if (text_[pos_] == '-') {
      negative = true;
      ++pos_;
    }
    std::size_t start = pos_;
    std::string w = word(name_char);
    if (pos_ < text_.size() && text_[pos_] == '.' && w.find_first_not_of("0123456789") == std::string::npos) {
      ++pos_;
      w += "." + word(name_char);
    }
    o.kind = Operand::Kind::imm;
    if (w.size() == 10 && (w[1] == 'f' || w[1] == 'F') && w[0] == '0') {
      o.imm = std::int64_t(std::strtoull(w.c_str() + 2, nullptr, 16));
      o.imm_is_float = true;
      if (negative) o.imm ^= 0x80000000;
      return true;
    }
    if (w.size() == 18 && (w[1] == 'd' || w[1] == 'D') && w[0] == '0') {
      o.imm = std::int64_t(std::strtoull(w.c_str() + 2, nullptr, 16));
      o.imm_is_float = true;
      if (negative) o.imm ^= std::int64_t(0x8000000000000000ull);
      return true;
    }
    if (w.find('.') != std::string::npos) {
      float f = std::strtof(w.c_str(), nullptr);
      if (negative) f = -f;
      std::uint32_t bits;
      static_assert(sizeof bits == sizeof f, "float is 32 bits");
      __builtin_memcpy(&bits, &f, 4);
      o.imm = bits;
      o.imm_is_float = true;
      return true;
    }
    char* end = nullptr;
    unsigned long long v = std::strtoull(w.c_str(), &end, 0);
    if (end == w.c_str() || *end != '\0') {
      // A trailing U (unsigned) is allowed in PTX: 16U.
      if (!(end && (*end == 'U' || *end == 'u') && end[1] == '\0')) {
        pos_ = start;
        return fail("the number \"" + readable(w) + "\"", instruction);
      }
    }
    o.imm = negative ? -std::int64_t(v) : std::int64_t(v);
    return true;
  }

  bool operand(Operand& o, const std::string& instruction) {
    char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      o.kind = Operand::Kind::vector;
      skip_space();
      while (pos_ < text_.size() && text_[pos_] != '}') {
        Operand e;
        if (!operand(e, instruction)) return false;
        o.elements.push_back(std::move(e));
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
        skip_space();
      }
      if (pos_ >= text_.size()) return fail("a vector operand without its '}'", instruction);
      ++pos_;
      return true;
    }
    if (c == '[') {
      ++pos_;
      o.kind = Operand::Kind::address;
      skip_space();
      if (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '-')) {
        Operand n;
        if (!number(n, instruction)) return false;
        o.imm = n.imm;
      } else {
        std::string base = word(name_char);
        o.reg = resolve(base);
        if (o.reg < 0) return fail("the address register " + readable(base) + " is not an operand or a .reg of this asm statement", instruction);
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          // [map, {c0, c1, ...}]: a tensor map and coordinates.
          ++pos_;
          skip_space();
          Operand coordinates;
          if (pos_ >= text_.size() || text_[pos_] != '{' || !operand(coordinates, instruction))
            return fail("a tensor address is written [map, {c0, c1, ...}]", instruction);
          o.kind = Operand::Kind::tensor_address;
          o.elements = std::move(coordinates.elements);
          skip_space();
        } else if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
          bool minus = text_[pos_] == '-';
          ++pos_;
          skip_space();
          Operand n;
          if (!number(n, instruction)) return false;
          o.imm = minus ? -n.imm : n.imm;
        }
      }
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ']') return fail("an address without its ']'", instruction);
      ++pos_;
      return true;
    }
    if (c == '!') {
      ++pos_;
      if (!operand(o, instruction)) return false;
      o.negated = true;
      return true;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-') return number(o, instruction);
    std::string name = word(name_char);
    // Special registers may carry a .x/.y/.z.
    if (!name.empty() && (name[0] == kPercent || name[0] == '%') && pos_ < text_.size() && text_[pos_] == '.') {
      std::size_t save = pos_;
      ++pos_;
      std::string axis = word(name_char);
      if (axis == "x" || axis == "y" || axis == "z") name += "." + axis;
      else pos_ = save;
    }
    if (name == "_") {
      o.kind = Operand::Kind::sink;
      if (pos_ < text_.size() && text_[pos_] == '|') {  // _|p
        ++pos_;
        Operand second;
        if (!operand(second, instruction) || second.kind != Operand::Kind::reg)
          return fail("a pair of destinations is written d|p", instruction);
        Operand first = o;
        o = Operand{};
        o.kind = Operand::Kind::pair;
        o.elements = {first, second};
      }
      return true;
    }
    if (name.empty()) return fail("unexpected \"" + readable(text_.substr(pos_, 12)) + "\"", instruction);
    int n = operand_number(name);
    if (n == -2) return fail("the operand " + name + " (this asm statement has " + std::to_string(constraints_.size()) + " operands)", instruction);
    int r = n >= 0 ? n : lookup(name);
    if (r >= 0) {
      o.kind = Operand::Kind::reg;
      o.reg = r;
      if (pos_ < text_.size() && text_[pos_] == '|') {
        // d|p: a value and a predicate, both written (elect.sync).
        ++pos_;
        Operand second;
        if (!operand(second, instruction) || second.kind != Operand::Kind::reg)
          return fail("a pair of destinations is written d|p", instruction);
        Operand first = o;
        o = Operand{};
        o.kind = Operand::Kind::pair;
        o.elements = {first, second};
      }
      return true;
    }
    if (name[0] == kPercent || name[0] == '%') {
      std::string bare = name.substr(1);
      for (const auto& s : kSpecials)
        if (bare == s.name) {
          o.kind = Operand::Kind::special;
          o.special = s.special;
          return true;
        }
      return fail("the register " + readable(name) + " (not an operand, a .reg of this statement, or a special register the CPU backend knows)", instruction);
    }
    o.kind = Operand::Kind::label;  // a branch target, or an unknown name that check_operands reports
    o.label = name;
    return true;
  }

  int resolve(const std::string& name) const {
    int n = operand_number(name);
    if (n >= 0) return n;
    return lookup(name);
  }

  std::string text_;
  const std::vector<Constraint>& constraints_;
  Program& program_;
  ParseError& error_;
  std::size_t pos_ = 0;
  std::vector<std::map<std::string, int>> scopes_;
};

}  // namespace

bool parse_program(const std::string& text, const std::vector<Constraint>& constraints, Program& out,
                   ParseError& error) {
  Parser p(text, constraints, out, error);
  return p.run();
}

}  // namespace ptx

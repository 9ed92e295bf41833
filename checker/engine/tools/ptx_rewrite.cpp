// ptx_rewrite: the step between preprocessing and compiling a kernel file for the CPU
// backend. Every inline-PTX statement (`asm volatile("mma.sync..." : "=f"(d0) : "r"(a0))`)
// becomes a call into the engine, which runs the PTX with CUDA's semantics and checks
// (cuda_cpu/inline_ptx.h); everything else is copied byte for byte, so the compiler sees the
// same code at the same lines. A template the backend cannot run stops the build here with
// the file, the line and the instruction, as a compiler error would.
// CUDA's keyword __noinline__ arrives here unexpanded (the generated wrappers undefine the
// shim's macro): where it stands as a specifier it becomes __attribute__((noinline)); inside
// an attribute list (`__attribute__((__noinline__))`, `[[gnu::__noinline__]]`, as libstdc++,
// glibc and Boost write it) it is GCC's spelling of noinline and stays as it is. A macro could
// not be both: libstdc++ 14's <string> does not compile with CUDA's definition of it.
//
//   ptx_rewrite <preprocessed input> <output>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "chevron_launch.h"
#include "device_heap_new.h"
#include "device_pass_merge.h"
#include "device_variables.h"
#include "dynamic_shared_binding.h"
#include "file_text.h"
#include "localize_symbols.h"
#include "precompiled_prelude.h"
#include "ptx/program.h"
#include "shared_alignment.h"

namespace {

struct Location {
  std::string file;
  long line = 1;
  bool system = false;  // a system header (line marker flag 3): never holds inline PTX for us
};

struct Token {
  enum Kind { identifier, string, character, number, punct, end } kind = end;
  std::size_t begin = 0, end_offset = 0;  // bytes [begin, end_offset) of the input
  std::string text;                        // identifiers and punctuation; string: the decoded value
  long line = 0;
  std::string file;
  bool system = false;
};

class Scanner {
 public:
  explicit Scanner(const std::string& text) : s_(text) {}

  Token next() {
    skip_space_and_markers();
    Token t;
    t.begin = pos_;
    t.line = loc_.line;
    t.file = loc_.file;
    t.system = loc_.system;
    if (pos_ >= s_.size()) {
      t.kind = Token::end;
      t.end_offset = pos_;
      return t;
    }
    char c = s_[pos_];
    // Encoding prefixes of string and character literals: L, u, U, u8, and R for raw strings.
    std::size_t p = pos_;
    if (c == 'u' && p + 1 < s_.size() && s_[p + 1] == '8') p += 2;
    else if (c == 'L' || c == 'u' || c == 'U') p += 1;
    bool raw = p < s_.size() && s_[p] == 'R' && p + 1 < s_.size() && s_[p + 1] == '"';
    if (raw) {
      pos_ = p + 1;
      t.kind = Token::string;
      raw_string(t);
    } else if (p < s_.size() && s_[p] == '"' && (p == pos_ || !ident_char(c) || p - pos_ <= 2)) {
      pos_ = p;
      t.kind = Token::string;
      quoted(t, '"');
    } else if (p < s_.size() && s_[p] == '\'' && p > pos_) {
      pos_ = p;
      t.kind = Token::character;
      quoted(t, '\'');
    } else if (c == '"') {
      t.kind = Token::string;
      quoted(t, '"');
    } else if (c == '\'') {
      t.kind = Token::character;
      quoted(t, '\'');
    } else if (ident_start(c)) {
      t.kind = Token::identifier;
      while (pos_ < s_.size() && ident_char(s_[pos_])) ++pos_;
      t.text = s_.substr(t.begin, pos_ - t.begin);
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])))) {
      t.kind = Token::number;
      // A pp-number: digits, letters, '.', exponent signs and C++14 digit separators.
      ++pos_;
      while (pos_ < s_.size()) {
        char d = s_[pos_];
        if (ident_char(d) || d == '.') ++pos_;
        else if ((d == '+' || d == '-') && (s_[pos_ - 1] == 'e' || s_[pos_ - 1] == 'E' || s_[pos_ - 1] == 'p' || s_[pos_ - 1] == 'P')) ++pos_;
        else if (d == '\'' && pos_ + 1 < s_.size() && ident_char(s_[pos_ + 1])) ++pos_;
        else break;
      }
      t.text = s_.substr(t.begin, pos_ - t.begin);
    } else {
      t.kind = Token::punct;
      ++pos_;
      t.text = std::string(1, c);
    }
    t.end_offset = pos_;
    return t;
  }

  std::size_t position() const { return pos_; }

 private:
  static bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
  static bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

  void newline() { ++loc_.line; }

  void skip_space_and_markers() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\n') {
        newline();
        ++pos_;
        at_line_start_ = true;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
        continue;
      }
      if (c == '#' && at_line_start_) {
        directive();
        continue;
      }
      at_line_start_ = false;
      return;
    }
  }

  // A line marker (# 12 "file" 1 3) sets the location of the next line; other directives
  // (#pragma) are left alone.
  void directive() {
    std::size_t end = s_.find('\n', pos_);
    if (end == std::string::npos) end = s_.size();
    std::string line = s_.substr(pos_, end - pos_);
    pos_ = end;
    std::size_t i = 1;
    while (i < line.size() && line[i] == ' ') ++i;
    if (line.compare(i, 4, "line") == 0) i += 4;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) {
      long number = std::strtol(line.c_str() + i, nullptr, 10);
      std::size_t q = line.find('"', i);
      if (q != std::string::npos) {
        std::size_t q2 = line.find('"', q + 1);
        loc_.file = line.substr(q + 1, q2 - q - 1);
        std::string flags = q2 == std::string::npos ? "" : line.substr(q2 + 1);
        loc_.system = flags.find(" 3") != std::string::npos;
      }
      loc_.line = number - 1;  // the newline after the marker makes it `number`
    }
  }

  void quoted(Token& t, char quote) {
    ++pos_;
    std::string value;
    while (pos_ < s_.size() && s_[pos_] != quote) {
      char c = s_[pos_++];
      if (c == '\n') newline();
      if (c != '\\') {
        value += c;
        continue;
      }
      if (pos_ >= s_.size()) break;
      char e = s_[pos_++];
      switch (e) {
        case 'n': value += '\n'; break;
        case 't': value += '\t'; break;
        case 'r': value += '\r'; break;
        case 'a': value += '\a'; break;
        case 'b': value += '\b'; break;
        case 'f': value += '\f'; break;
        case 'v': value += '\v'; break;
        case '\n': newline(); break;  // a continued line
        case 'x': {
          int v = 0;
          while (pos_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[pos_])))
            v = v * 16 + (std::isdigit(static_cast<unsigned char>(s_[pos_])) ? s_[pos_] - '0' : (std::tolower(s_[pos_]) - 'a' + 10)), ++pos_;
          value += char(v);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            int v = e - '0';
            for (int k = 0; k < 2 && pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '7'; ++k) v = v * 8 + (s_[pos_++] - '0');
            value += char(v);
          } else {
            value += e;
          }
      }
    }
    ++pos_;
    t.text = value;
  }

  void raw_string(Token& t) {
    ++pos_;  // the quote
    std::size_t open = s_.find('(', pos_);
    std::string delimiter = ")" + s_.substr(pos_, open - pos_) + "\"";
    std::size_t close = s_.find(delimiter, open);
    if (close == std::string::npos) close = s_.size();
    t.text = s_.substr(open + 1, close - open - 1);
    for (char c : t.text)
      if (c == '\n') newline();
    pos_ = close + delimiter.size();
  }

  const std::string& s_;
  std::size_t pos_ = 0;
  bool at_line_start_ = true;
  Location loc_;
};

std::string c_literal(const std::string& value) {
  std::string out = "\"";
  for (unsigned char c : value) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

// Whether the scanner is inside an attribute list: __attribute__((...)) or [[...]]. Fed every
// token in order, with the token before it.
class AttributeNesting {
 public:
  void see(const Token& t, const Token& previous) {
    if (t.kind != Token::punct) return;
    if (t.text == "(") {
      ++parentheses_;
      bool opens = previous.kind == Token::identifier && (previous.text == "__attribute__" || previous.text == "__attribute");
      if (opens) gnu_open_.push_back(parentheses_);
    } else if (t.text == ")") {
      if (!gnu_open_.empty() && gnu_open_.back() == parentheses_) gnu_open_.pop_back();
      --parentheses_;
    } else if (t.text == "[") {
      ++brackets_;
      // Two '[' in a row open an attribute list; C++ allows them nowhere else.
      if (previous.kind == Token::punct && previous.text == "[") standard_open_.push_back(brackets_ - 1);
    } else if (t.text == "]") {
      --brackets_;
      if (!standard_open_.empty() && standard_open_.back() == brackets_) standard_open_.pop_back();
    }
  }
  bool inside() const { return !gnu_open_.empty() || !standard_open_.empty(); }

 private:
  long parentheses_ = 0, brackets_ = 0;
  std::vector<long> gnu_open_;       // the depth of each open __attribute__'s first '('
  std::vector<long> standard_open_;  // the depth of each open [[ before its first '['
};

struct AsmOperand {
  std::string name;        // [name], if any
  std::string constraint;  // "=r"
  std::size_t expr_begin = 0, expr_end = 0;  // the (expression), without its parentheses
};

struct AsmStatement {
  std::size_t begin = 0, end = 0;  // from `asm` to its closing ')', inclusive
  std::string text;                // the template, decoded
  std::vector<AsmOperand> outputs, inputs;
  long line = 0;
  std::string file;
  bool is_statement = false;       // false: an asm label of a declaration, left alone
};

class Rewriter {
 public:
  explicit Rewriter(const std::string& input) : in_(input), scanner_(input) {}

  bool run(std::string& out) {
    Token previous;
    previous.kind = Token::punct;
    previous.text = ";";
    std::size_t copied = 0;
    AttributeNesting attributes;
    for (Token t = scanner_.next(); t.kind != Token::end; t = scanner_.next()) {
      attributes.see(t, previous);
      if (t.kind == Token::identifier && t.text == "__noinline__" && !attributes.inside()) {
        out.append(in_, copied, t.begin - copied);
        out += "__attribute__((noinline))";
        copied = t.end_offset;
        previous = t;
        continue;
      }
      if (t.kind == Token::identifier && (t.text == "asm" || t.text == "__asm__" || t.text == "__asm") && !t.system) {
        AsmStatement a;
        if (!parse_asm(t, previous, a)) return false;
        if (a.is_statement) {
          out.append(in_, copied, a.begin - copied);
          std::string replacement;
          if (!rewrite(a, replacement)) return false;
          out += replacement;
          copied = a.end;
        }
        previous.kind = Token::punct;
        previous.text = ")";
        continue;
      }
      previous = t;
    }
    out.append(in_, copied, std::string::npos);
    return !failed_;
  }

 private:
  [[noreturn]] void unexpected(const Token& t, const std::string& what) {
    error(t.file, t.line, what);
    std::exit(1);
  }

  void error(const std::string& file, long line, const std::string& message) {
    std::cerr << file << ":" << line << ":1: error: " << message << "\n";
    failed_ = true;
  }

  // asm [volatile|inline|goto]* ( template [: outputs [: inputs [: clobbers [: labels]]]] )
  bool parse_asm(const Token& keyword, const Token& previous, AsmStatement& a) {
    a.begin = keyword.begin;
    a.line = keyword.line;
    a.file = keyword.file;
    bool qualified = false;
    Token t = scanner_.next();
    while (t.kind == Token::identifier) {
      if (t.text == "goto") {
        error(keyword.file, keyword.line, "asm goto is not supported by the CPU backend");
        return false;
      }
      qualified = true;  // volatile, __volatile__, inline
      t = scanner_.next();
    }
    if (t.kind != Token::punct || t.text != "(") {
      // Not an asm statement or label we understand: leave it to the compiler.
      return true;
    }
    t = scanner_.next();
    bool any_string = false;
    while (t.kind == Token::string) {
      a.text += t.text;
      any_string = true;
      t = scanner_.next();
    }
    if (!any_string) unexpected(t, "the template of an asm statement must be string literals");
    int section = 0;
    while (!(t.kind == Token::punct && t.text == ")")) {
      if (t.kind == Token::punct && t.text == ":") {
        ++section;
        t = scanner_.next();
        continue;
      }
      if (t.kind == Token::punct && t.text == ",") {
        t = scanner_.next();
        continue;
      }
      if (t.kind == Token::end) unexpected(t, "an asm statement without its closing ')'");
      if (section == 1 || section == 2) {
        AsmOperand o;
        if (t.kind == Token::punct && t.text == "[") {
          t = scanner_.next();
          o.name = t.text;
          t = scanner_.next();  // ]
          t = scanner_.next();
        }
        while (t.kind == Token::string) {
          o.constraint += t.text;
          t = scanner_.next();
        }
        if (!(t.kind == Token::punct && t.text == "(")) unexpected(t, "an asm operand needs a constraint and an (expression)");
        o.expr_begin = t.end_offset;
        int depth = 1;
        Token last = t;
        while (depth > 0) {
          last = scanner_.next();
          if (last.kind == Token::end) unexpected(last, "an asm operand without its closing ')'");
          if (last.kind == Token::punct && (last.text == "(" || last.text == "[" || last.text == "{")) ++depth;
          if (last.kind == Token::punct && (last.text == ")" || last.text == "]" || last.text == "}")) --depth;
        }
        o.expr_end = last.begin;
        (section == 1 ? a.outputs : a.inputs).push_back(o);
        t = scanner_.next();
        continue;
      }
      // Clobbers ("memory", "cc") and goto labels: nothing to do with them here.
      t = scanner_.next();
    }
    a.end = t.end_offset;
    // An asm label of a declaration (int f() asm("name");) is one string of a symbol's
    // characters, with no operands and no qualifier; everything else is code.
    bool symbol_like = a.text.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.@") == std::string::npos;
    a.is_statement = qualified || section > 0 || !symbol_like;
    (void)previous;
    return true;
  }

  bool rewrite(const AsmStatement& a, std::string& out) {
    std::string text = a.text;
    // Symbolic operand names: %[name] becomes %N.
    std::vector<const AsmOperand*> all;
    for (const auto& o : a.outputs) all.push_back(&o);
    for (const auto& o : a.inputs) all.push_back(&o);
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all[i]->name.empty()) continue;
      std::string key = "%[" + all[i]->name + "]";
      for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at))
        text.replace(at, key.size(), "%" + std::to_string(i));
    }
    std::string constraints;
    for (std::size_t i = 0; i < all.size(); ++i) constraints += (i ? "," : "") + all[i]->constraint;
    std::vector<ptx::Constraint> parsed;
    std::string why;
    if (!ptx::parse_constraints(constraints, parsed, why)) {
      error(a.file, a.line, "inline PTX: the CPU backend does not know " + why);
      return false;
    }
    ptx::Program program;
    ptx::ParseError e;
    if (!ptx::parse_program(text, parsed, program, e)) {
      std::string message = "inline PTX: " + e.message;
      if (!e.instruction.empty() && e.message.find(e.instruction) == std::string::npos)
        message += " (in \"" + e.instruction + "\")";
      error(a.file, a.line, message);
      return false;
    }
    // The replacement keeps the statement's line count, so every later line keeps its number.
    long newlines = 0;
    for (std::size_t i = a.begin; i < a.end; ++i) newlines += in_[i] == '\n';
    std::ostringstream r;
    // A finding's line is looked for among the inlined frames of the code that ran, and the
    // compat headers' bindings (cuda/ptx, cuda/barrier) are the engine's, never the student's
    // line: their lambdas are inlined always, so that the frames reach the kernel's call (clang
    // 19 kept them as functions of their own and named the binding's line). Elsewhere the asm
    // is the student's own, and its own line is the one to name.
    const bool binding = a.file.find("/cuda_cpu/compat/") != std::string::npos;
    r << "[&]()" << (binding ? " __attribute__((always_inline))" : "")
      << " { static const ::cuda_cpu::ptx::Statement cuda_cpu_ptx_statement(" << c_literal(text) << ", "
      << c_literal(constraints) << ", " << c_literal(a.file) << ", " << a.line << "); ";
    if (all.empty()) {
      r << "::cuda_cpu::ptx::execute(cuda_cpu_ptx_statement, nullptr, 0); }()";
    } else {
      r << "::cuda_cpu::ptx::Bound cuda_cpu_ptx_operands[] = {";
      for (std::size_t i = 0; i < all.size(); ++i) {
        const ptx::Constraint& c = parsed[i];
        // A tied input ("0") is read as a "+" operand is (inline_ptx.h: a wgmma chain's accumulators).
        const char* maker = c.output && c.input ? "inout" : c.output ? "out" : c.tied >= 0 ? "tied" : "in";
        r << (i ? ", " : "") << "::cuda_cpu::ptx::" << maker << "<'" << c.letter << "'>("
          << in_.substr(all[i]->expr_begin, all[i]->expr_end - all[i]->expr_begin) << ")";
      }
      r << "}; ::cuda_cpu::ptx::execute(cuda_cpu_ptx_statement, cuda_cpu_ptx_operands, " << all.size() << "); }()";
    }
    std::string body = r.str();
    // Operand expressions may span lines: those newlines are in `body` already.
    long inside = 0;
    for (char ch : body) inside += ch == '\n';
    out = body + std::string(static_cast<std::size_t>(newlines - inside > 0 ? newlines - inside : 0), '\n');
    return true;
  }

  const std::string& in_;
  Scanner scanner_;
  bool failed_ = false;
};

bool read_file(const char* path, std::string& text) {
  if (read_file_text(path, text)) return true;
  std::cerr << "ptx_rewrite: cannot read " << path << "\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  // The kernel build's other step on the build machine: its compile, with the object's symbols
  // renamed apart from every other kernel library's (localize_symbols.cpp).
  if (argc >= 2 && std::strcmp(argv[1], "--localize-symbols") == 0) return localize::compile_then_localize(argc, argv);
  // A whole program's file compiled as nvcc's two passes: the objects joined (device_pass_merge.h).
  if (argc >= 2 && std::strcmp(argv[1], "--device-pass") == 0) return device_pass::merge_command(argc, argv);
  // --prelude: the build compiled the kernel shim's rewritten text into a precompiled header,
  // which the output is compiled against (precompiled_prelude.h).
  const char* prelude_path = nullptr;
  if (argc == 5 && std::strcmp(argv[1], "--prelude") == 0) {
    prelude_path = argv[2];
    argv += 2;
    argc -= 2;
  }
  if (argc != 3) {
    std::cerr << "usage: ptx_rewrite [--prelude REWRITTEN_SHIM] <preprocessed input> <output>\n"
                 "       ptx_rewrite --localize-symbols SUFFIX -- COMPILER ARGS...\n"
                 "       ptx_rewrite --device-pass HOST.o DEVICE.o FILE_NAME [FACTS]\n";
    return 2;
  }
  std::string text, prelude;
  if (!read_file(argv[1], text) || (prelude_path && !read_file(prelude_path, prelude))) return 2;
  std::string out;
  out.reserve(text.size() + 4096);
  Rewriter r(text);
  if (!r.run(out)) return 1;
  move_shared_alignas(out);
  bind_dynamic_shared(out);
  place_device_variables(out);
  allocate_news_on_device_heap(out);
  std::string launch_error;
  if (!rewrite_chevron_launches(out, launch_error)) {
    std::cerr << launch_error << "\n";
    return 1;
  }
  std::string prelude_error;
  if (prelude_path && !leave_out_precompiled_prelude(out, prelude, prelude_error)) {
    std::cerr << "ptx_rewrite: " << argv[1] << ": " << prelude_error << " (" << prelude_path
              << "): the build's precompiled prelude is out of step with this kernel file's flags\n";
    return 2;
  }
  std::ofstream o(argv[2], std::ios::binary);
  o << out;
  if (!o) {
    std::cerr << "ptx_rewrite: cannot write " << argv[2] << "\n";
    return 2;
  }
  return 0;
}

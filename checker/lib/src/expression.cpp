#include "checker/expression.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "engine/backend.h"

namespace checker {
namespace {

// Recursive descent over: sum := product (('+'|'-') product)*; product := unary (('*'|'/') unary)*;
// unary := '-' unary | primary; primary := number | name | name '(' args ')' | '(' sum ')'.
class Parser {
 public:
  Parser(const std::string& text, const Variables& vars) : text_(text), vars_(vars) {}

  double parse() {
    double v = sum();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw engine::Error("cannot evaluate the formula '" + text_ + "': " + why);
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool take(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  double sum() {
    double v = product();
    for (;;) {
      if (take('+')) v += product();
      else if (take('-')) v -= product();
      else return v;
    }
  }
  double product() {
    double v = unary();
    for (;;) {
      if (take('*')) {
        v *= unary();
      } else if (take('/')) {
        double d = unary();
        if (d == 0) fail("division by zero");
        v /= d;
      } else {
        return v;
      }
    }
  }
  double unary() { return take('-') ? -unary() : primary(); }
  double primary() {
    skip_space();
    if (take('(')) {
      double v = sum();
      if (!take(')')) fail("missing ')'");
      return v;
    }
    if (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.')) {
      std::size_t used = 0;
      double v = std::stod(text_.substr(pos_), &used);
      pos_ += used;
      return v;
    }
    std::string name;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      name += text_[pos_++];
    if (name.empty()) fail(pos_ < text_.size() ? "unexpected '" + std::string(1, text_[pos_]) + "'" : "it ends too early");
    if (take('(')) return call(name);
    auto it = vars_.find(name);
    if (it == vars_.end()) fail("'" + name + "' is not known here");
    return it->second;
  }
  double call(const std::string& name) {
    double first = sum();
    if (name == "ceil" || name == "floor") {
      if (!take(')')) fail("missing ')' after " + name + "(...)");
      return name == "ceil" ? std::ceil(first - 1e-9) : std::floor(first + 1e-9);
    }
    if (name == "min" || name == "max") {
      if (!take(',')) fail(name + "() takes two arguments");
      double second = sum();
      if (!take(')')) fail("missing ')' after " + name + "(...)");
      return name == "min" ? std::fmin(first, second) : std::fmax(first, second);
    }
    fail("no function called " + name);
  }

  const std::string& text_;
  const Variables& vars_;
  std::size_t pos_ = 0;
};

std::string number_text(double v) {
  char buf[32];
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The same grammar, rendered for people: every part that depends only on constants becomes
// its value, the rest stays as written. "(BM * BK + BK * BN) / ((BM / TM) * (BN / TN)) *
// ceil(k / BK)" with the constants reads "8 * ceil(k / 8)".
class Folder {
 public:
  struct Part {
    bool constant;
    double value;
    std::string text;
    int level;  // 0 sum, 1 product, 2 unary or primary: when it needs parentheses
  };

  Folder(const std::string& text, const Variables& constants) : text_(text), constants_(constants) {}

  std::string fold() {
    Part p = sum();
    skip_space();
    if (pos_ != text_.size()) throw engine::Error("cannot read the formula '" + text_ + "'");
    return render(p);
  }

 private:
  static std::string render(const Part& p) { return p.constant ? number_text(p.value) : p.text; }
  static std::string wrapped(const Part& p, int level) {
    std::string t = render(p);
    return !p.constant && p.level < level ? "(" + t + ")" : t;
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool take(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  Part combine(const Part& a, char op, const Part& b, int level) {
    if (a.constant && b.constant) {
      double v = op == '+' ? a.value + b.value : op == '-' ? a.value - b.value : op == '*' ? a.value * b.value
                                                                                          : a.value / b.value;
      return Part{true, v, "", 2};
    }
    return Part{false, 0, wrapped(a, level) + " " + op + " " + wrapped(b, level + 1), level};
  }
  Part sum() {
    Part v = product();
    for (;;) {
      if (take('+')) v = combine(v, '+', product(), 0);
      else if (take('-')) v = combine(v, '-', product(), 0);
      else return v;
    }
  }
  Part product() {
    Part v = unary();
    for (;;) {
      if (take('*')) v = combine(v, '*', unary(), 1);
      else if (take('/')) v = combine(v, '/', unary(), 1);
      else return v;
    }
  }
  Part unary() {
    if (!take('-')) return primary();
    Part p = unary();
    return p.constant ? Part{true, -p.value, "", 2} : Part{false, 0, "-" + wrapped(p, 2), 2};
  }
  Part primary() {
    skip_space();
    if (take('(')) {
      Part p = sum();
      take(')');
      return p.constant ? p : Part{false, 0, render(p), p.level};
    }
    std::size_t start = pos_;
    if (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.')) {
      std::size_t used = 0;
      double v = std::stod(text_.substr(pos_), &used);
      pos_ += used;
      return Part{true, v, "", 2};
    }
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    std::string name = text_.substr(start, pos_ - start);
    if (take('(')) {
      Part first = sum();
      Part second{true, 0, "", 2};
      bool two = take(',');
      if (two) second = sum();
      take(')');
      if (first.constant && (!two || second.constant)) {
        Variables none;
        std::string call = name + "(" + number_text(first.value) + (two ? ", " + number_text(second.value) : "") + ")";
        return Part{true, evaluate(call, none), "", 2};
      }
      return Part{false, 0, name + "(" + render(first) + (two ? ", " + render(second) : "") + ")", 2};
    }
    auto it = constants_.find(name);
    if (it != constants_.end()) return Part{true, it->second, "", 2};
    return Part{false, 0, name, 2};
  }

  const std::string& text_;
  const Variables& constants_;
  std::size_t pos_ = 0;
};

}  // namespace

double evaluate(const std::string& formula, const Variables& variables) {
  return Parser(formula, variables).parse();
}

std::string fold_constants(const std::string& formula, const Variables& constants) {
  return Folder(formula, constants).fold();
}

std::string substitute(const std::string& formula, const Variables& variables) {
  std::string out;
  std::size_t i = 0;
  while (i < formula.size()) {
    if (std::isalpha(static_cast<unsigned char>(formula[i])) || formula[i] == '_') {
      std::size_t start = i;
      while (i < formula.size() && (std::isalnum(static_cast<unsigned char>(formula[i])) || formula[i] == '_')) ++i;
      std::string name = formula.substr(start, i - start);
      auto it = variables.find(name);
      out += it == variables.end() ? name : number_text(it->second);
    } else {
      out += formula[i++];
    }
  }
  return out;
}

}  // namespace checker

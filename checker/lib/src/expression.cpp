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

}  // namespace

double evaluate(const std::string& formula, const Variables& variables) {
  return Parser(formula, variables).parse();
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

#include "chevron_launch.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "source_tokens.h"

namespace {

using source_tokens::ident_char;
using source_tokens::Token;
using source_tokens::Tokens;
using source_tokens::tokenize;

class Launches {
 public:
  Launches(std::string& text, std::string& error) : s_(text), error_(error), t_(tokenize(text)) {}

  bool run() {
    struct Edit {
      std::size_t begin, end;
      std::string with;
    };
    std::vector<Edit> edits;
    const auto& list = t_.list;
    for (std::size_t i = 1; i + 2 < list.size(); ++i) {
      if (list[i].system || !triple(i, '<')) continue;
      if (list[i - 1].kind == Token::identifier && text(i - 1) == "operator") continue;  // operator<<<T>
      if (!edits.empty() && list[i].begin < edits.back().end) continue;
      std::size_t kernel = kernel_begin(i);
      if (kernel == i) return fail(i, "a <<<...>>> launch needs a kernel before it");
      std::size_t close = i + 3, depth = 0;
      while (close + 2 < list.size() && !(depth == 0 && triple(close, '>'))) {
        depth += opens(close);
        depth -= closes(close) && depth > 0;
        ++close;
      }
      if (close + 2 >= list.size()) return fail(i, "this <<<...>>> launch has no closing >>>");
      std::size_t open = close + 3;
      if (open >= list.size() || !is(open, '('))
        return fail(close, "a <<<...>>> launch needs its argument list: kernel<<<grid, block>>>(arguments)");
      std::size_t end = match(open);
      if (end >= list.size()) return fail(open, "the argument list of this <<<...>>> launch has no closing ')'");
      std::string config = s_.substr(list[i + 3].begin, list[close].begin - list[i + 3].begin);
      std::string kernel_text = s_.substr(list[kernel].begin, list[i].begin - list[kernel].begin);
      std::string args = null_as_nullptr(list[open].end, list[end].begin);
      bool no_args = args.find_first_not_of(" \t\r\n") == std::string::npos;
      std::string defaults = missing_defaults(kernel, i, no_args ? 0 : top_level_items(open, end));
      if (!defaults.empty()) defaults = null_as_nullptr(defaults);
      if (!defaults.empty()) args += (no_args ? "" : ", ") + defaults, no_args = false;
      const Token& at = list[i];
      std::string with = "::cuda_cpu::chevron_launch(::cuda_cpu::chevron_exact, ::cuda_cpu::ChevronSite{" +
                         literal(squeeze(kernel_text)) + ", " + literal(t_.files[at.file]) + ", " +
                         std::to_string(at.line) + ", " + storage() + "}, ::cuda_cpu::chevron_config(" + config +
                         "), " + kernel_text + (no_args ? "" : ", " + args) + ")";
      // Keep the line count: every later line keeps its number.
      long lines = 0, kept = 0;
      for (std::size_t b = list[kernel].begin; b < list[end].end; ++b) lines += s_[b] == '\n';
      for (char ch : with) kept += ch == '\n';
      if (lines > kept) with += std::string(static_cast<std::size_t>(lines - kept), '\n');
      edits.push_back({list[kernel].begin, list[end].end, with});
    }
    for (auto e = edits.rbegin(); e != edits.rend(); ++e) s_.replace(e->begin, e->end - e->begin, e->with);
    return true;
  }

 private:
  // A kernel's parameters with default arguments, as one declaration of it writes them: what a
  // launch that leaves them out passes, as a call of the function would (nvcc fills them in).
  struct Parameters {
    std::size_t count = 0;
    std::vector<std::string> defaults;  // per parameter, its default's text, or "" for none
    bool operator==(const Parameters& o) const { return count == o.count && defaults == o.defaults; }
  };

  // The text from begin to end with NULL's expansion, __null, as nullptr. A launch hands its
  // arguments on through a template (chevron.h), where __null is only an integer and no longer
  // converts to a pointer parameter, as it does in nvcc's launch.
  std::string null_as_nullptr(std::size_t begin, std::size_t end) const {
    std::string out;
    std::size_t from = begin;
    auto first = std::lower_bound(t_.list.begin(), t_.list.end(), begin,
                                  [](const Token& t, std::size_t at) { return t.begin < at; });
    for (auto t_at = first; t_at != t_.list.end() && t_at->end <= end; ++t_at) {
      const Token& t = *t_at;
      if (t.kind != Token::identifier) continue;
      if (s_.compare(t.begin, t.end - t.begin, "__null") != 0) continue;
      out += s_.substr(from, t.begin - from) + "nullptr";
      from = t.end;
    }
    return out + s_.substr(from, end - from);
  }
  static std::string null_as_nullptr(const std::string& text) {
    std::string out = text;
    for (std::size_t at = out.find("__null"); at != std::string::npos; at = out.find("__null", at + 1)) {
      bool starts = at == 0 || !ident_char(out[at - 1]);
      bool ends = at + 6 == out.size() || !ident_char(out[at + 6]);
      if (starts && ends) out.replace(at, 6, "nullptr");
    }
    return out;
  }

  // The number of items separated by top-level commas between the brackets at open and close.
  std::size_t top_level_items(std::size_t open, std::size_t close) const {
    std::size_t items = 1;
    for (std::size_t j = open + 1; j < close; ++j) {
      if (opens(j)) j = match(j);
      else if (is(j, ',')) ++items;
    }
    return items;
  }

  // The declarations outside system headers of functions returning void whose parameter list
  // gives a default: `void k(int* a, int n = 4)`, with or without a body (__global__ and
  // __launch_bounds__ are gone after preprocessing). Template argument lists in a parameter's
  // type (std::pair<int, int>) do not split it.
  const std::map<std::string, std::vector<Parameters>>& declared() {
    if (declared_ready_) return declared_;
    declared_ready_ = true;
    const auto& list = t_.list;
    for (std::size_t j = 2; j + 1 < list.size(); ++j) {
      if (list[j].system || list[j].kind != Token::identifier || !is(j + 1, '(')) continue;
      if (list[j - 1].kind != Token::identifier || text(j - 1) != "void") continue;
      std::size_t close = match(j + 1);
      if (close + 1 >= list.size() || !(is(close + 1, '{') || is(close + 1, ';'))) continue;
      Parameters p;
      std::size_t item = j + 2, angle = 0;
      bool any_default = false;
      auto finish = [&](std::size_t upto) {
        if (item == upto) return;  // void k(): no parameters
        std::string value;
        for (std::size_t t = item, depth = 0; t < upto; ++t) {
          if (is(t, '=') && depth == 0 && !(t + 1 < upto && is(t + 1, '=') && adjacent(t))) {
            value = squeeze(s_.substr(list[t + 1].begin, list[upto - 1].end - list[t + 1].begin));
            break;
          }
          if (opens(t)) t = match(t);
        }
        any_default |= !value.empty();
        ++p.count;
        p.defaults.push_back(value);
      };
      for (std::size_t t = j + 2; t < close; ++t) {
        if (opens(t)) {
          t = match(t);
        } else if (is(t, '<') && t > 0 && list[t - 1].kind == Token::identifier) {
          ++angle;
        } else if (is(t, '>') && angle > 0) {
          --angle;
        } else if (is(t, ',') && angle == 0) {
          finish(t);
          item = t + 1;
        }
      }
      finish(close);
      if (!any_default) continue;
      // A default that names a template parameter (T value = T(3)) means something only inside
      // the template: it is not filled in, and the launch's own check asks for the argument.
      const std::vector<std::string> names = template_names(j - 1);
      for (std::string& value : p.defaults)
        for (const std::string& name : names)
          if (mentions(value, name)) value.clear();
      declared_[text(j)].push_back(p);
    }
    return declared_;
  }

  // The names in the template parameter list before the declaration whose return type is the
  // token at `ret` (after any specifiers such as static or inline), or none for a function that
  // is not a template. Every identifier but the keywords counts: too many names only means
  // fewer defaults filled in.
  std::vector<std::string> template_names(std::size_t ret) const {
    std::size_t k = ret;
    while (k > 0 && t_.list[k - 1].kind == Token::identifier && text(k - 1) != "template") --k;
    if (k == 0 || !is(k - 1, '>')) return {};
    std::size_t open = match_back(k - 1, '<', '>');
    if (open >= k - 1 || open == 0 || t_.list[open - 1].kind != Token::identifier || text(open - 1) != "template")
      return {};
    std::vector<std::string> names;
    for (std::size_t t = open + 1; t < k - 1; ++t) {
      if (t_.list[t].kind != Token::identifier) continue;
      std::string word = text(t);
      if (word != "typename" && word != "class" && word != "template") names.push_back(word);
    }
    return names;
  }

  // Whether text names `name` as a whole identifier.
  static bool mentions(const std::string& text, const std::string& name) {
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
      bool starts = at == 0 || !ident_char(text[at - 1]);
      bool ends = at + name.size() == text.size() || !ident_char(text[at + name.size()]);
      if (starts && ends) return true;
    }
    return false;
  }

  // The defaults, comma-separated, of the parameters a launch of the kernel written from token
  // `kernel` to `launch` leaves out after its `given` arguments; "" when it leaves none out, or
  // when its declarations do not agree on them (then the launch's own check says what is wrong).
  std::string missing_defaults(std::size_t kernel, std::size_t launch, std::size_t given) {
    std::size_t name = launch;
    while (name > kernel && t_.list[name - 1].kind != Token::identifier) {
      if (is(name - 1, '>')) {
        std::size_t open = match_back(name - 1, '<', '>');
        if (open >= name - 1 || open <= kernel) return "";
        name = open;
      } else {
        return "";  // (*table[2])<<<...>>>: no name to look up
      }
    }
    if (name == kernel && t_.list[kernel].kind != Token::identifier) return "";
    if (name > kernel) --name;
    auto found = declared().find(text(name));
    if (found == declared_.end()) return "";
    const Parameters& p = found->second.front();
    for (const Parameters& other : found->second)
      if (!(other == p)) return "";
    if (given >= p.count) return "";
    std::string out;
    for (std::size_t k = given; k < p.count; ++k) {
      if (p.defaults[k].empty()) return "";
      out += (out.empty() ? "" : ", ") + p.defaults[k];
    }
    return out;
  }

  std::string text(std::size_t i) const { return s_.substr(t_.list[i].begin, t_.list[i].end - t_.list[i].begin); }
  bool is(std::size_t i, char c) const {
    return i < t_.list.size() && t_.list[i].kind == Token::punct && s_[t_.list[i].begin] == c;
  }
  bool adjacent(std::size_t i) const { return t_.list[i].end == t_.list[i + 1].begin; }
  bool triple(std::size_t i, char c) const {
    return is(i, c) && is(i + 1, c) && is(i + 2, c) && adjacent(i) && adjacent(i + 1);
  }
  bool opens(std::size_t i) const { return is(i, '(') || is(i, '[') || is(i, '{'); }
  bool closes(std::size_t i) const { return is(i, ')') || is(i, ']') || is(i, '}'); }

  // The token closing the bracket opened at i (size() when there is none).
  std::size_t match(std::size_t i) const {
    int depth = 0;
    for (std::size_t j = i; j < t_.list.size(); ++j) {
      depth += opens(j);
      depth -= closes(j);
      if (depth == 0) return j;
    }
    return t_.list.size();
  }
  // Backwards: the token opening the bracket (or template argument list) closed at i.
  std::size_t match_back(std::size_t i, char open, char close) const {
    int depth = 0;
    for (std::size_t j = i + 1; j-- > 0;) {
      if (is(j, ')') && close != ')') {
        j = match_back(j, '(', ')');
        continue;
      }
      depth += is(j, close);
      depth -= is(j, open);
      if (depth == 0) return j;
    }
    return i + 1;
  }

  // The first token of the kernel expression before the launch at i: a name, qualified
  // (ns::k, ::k, A::template k) and with template arguments (k<float, 4>), or a parenthesized
  // expression ((*table[2])).
  std::size_t kernel_begin(std::size_t i) const {
    static const char* const keywords[] = {"return", "else", "do", "case", "throw", "co_return", "typename", "new"};
    std::size_t k = i;  // one past the expression's first token so far
    if (k > 0 && is(k - 1, ')')) {
      std::size_t open = match_back(k - 1, '(', ')');
      return open <= k - 1 ? open : i;
    }
    while (k > 0) {
      std::size_t j = k - 1;
      if (is(j, '>')) {
        std::size_t open = match_back(j, '<', '>');
        if (open > j || open == 0) return k;
        j = open - 1;
      }
      if (t_.list[j].kind != Token::identifier) return k;
      std::string word = text(j);
      for (const char* w : keywords)
        if (word == w) return k;
      k = j;
      // ns::template k<T>: the keyword belongs to the name after it.
      std::size_t name = k;
      if (k >= 3 && t_.list[k - 1].kind == Token::identifier && text(k - 1) == "template" && is(k - 2, ':')) --k;
      if (k >= 2 && is(k - 1, ':') && is(k - 2, ':') && adjacent(k - 2)) {
        k -= 2;
        if (k == 0 || !(t_.list[k - 1].kind == Token::identifier || is(k - 1, '>'))) return k;
        continue;
      }
      return name;
    }
    return k;
  }

  // The dynamic shared storage of the generated kernel file (checker/cmake/kernel_cpu.cpp.in
  // and the program wrapper define it): a function returning this thread's instance, and its size.
  std::string storage() {
    if (storage_.empty()) {
      const std::string definition = "thread_local unsigned char cuda_cpu_dynamic_shared_";
      std::size_t at = s_.find(definition);
      if (at == std::string::npos) {
        storage_ = "nullptr, 0";
      } else {
        std::size_t begin = at + definition.size() - (sizeof "cuda_cpu_dynamic_shared_" - 1), end = begin;
        while (end < s_.size() && ident_char(s_[end])) ++end;
        std::string symbol = s_.substr(begin, end - begin);
        storage_ = "+[]() -> void* { return " + symbol + "; }, sizeof(" + symbol + ")";
      }
    }
    return storage_;
  }

  static std::string squeeze(const std::string& s) {
    std::string out;
    for (char c : s)
      if (!std::isspace(static_cast<unsigned char>(c))) out += c;
      else if (!out.empty() && out.back() != ' ') out += ' ';
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
  }

  static std::string literal(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  }

  bool fail(std::size_t i, const std::string& message) {
    const Token& t = t_.list[i];
    error_ = t_.files[t.file] + ":" + std::to_string(t.line) + ":1: error: " + message;
    return false;
  }

  std::string& s_;
  std::string& error_;
  Tokens t_;
  std::string storage_;
  std::map<std::string, std::vector<Parameters>> declared_;
  bool declared_ready_ = false;
};

}  // namespace

bool rewrite_chevron_launches(std::string& text, std::string& error) {
  // Most kernel files: nothing to do, and then the file is not tokenized.
  if (!source_tokens::outside_system_headers(text, "<<<", false)) return true;
  return Launches(text, error).run();
}

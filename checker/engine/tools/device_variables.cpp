#include "device_variables.h"

#include <cctype>
#include <cstring>

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// The next identifier-or-punctuator "word" from `at`, skipping spaces and literals.
bool whole_word(const std::string& s, std::size_t at, std::size_t length) {
  return (at == 0 || !ident_char(s[at - 1])) && (at + length >= s.size() || !ident_char(s[at + length]));
}

// Whether the declaration that the keyword at `at` starts declares a variable kernels may
// write: before its first '(' come a ';', '=', '{', '[' or ',' (so it is no function), and
// no const, constexpr or thread_local (__shared__) among its words.
bool writable_variable(const std::string& s, std::size_t at) {
  for (std::size_t i = at; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"' || c == '\'') return false;  // an initializer or attribute argument: be safe
    if (c == '(') {
      // __attribute__((...)) and alignas(...) come before the name: skip them.
      std::size_t w = i;
      while (w > at && std::isspace(static_cast<unsigned char>(s[w - 1]))) --w;
      std::size_t b = w;
      while (b > at && ident_char(s[b - 1])) --b;
      std::string word = s.substr(b, w - b);
      if (word == "__attribute__" || word == "alignas" || word == "__declspec") {
        int depth = 0;
        for (; i < s.size(); ++i) {
          depth += s[i] == '(';
          depth -= s[i] == ')';
          if (depth == 0) break;
        }
        continue;
      }
      return false;
    }
    if (c == ';' || c == '=' || c == '{' || c == '[' || c == ',') return true;
    if (ident_char(c) && (i == at || !ident_char(s[i - 1]))) {
      std::size_t e = i;
      while (e < s.size() && ident_char(s[e])) ++e;
      std::string word = s.substr(i, e - i);
      if (word == "const" || word == "constexpr" || word == "thread_local" || word == "typedef" || word == "using")
        return false;
      i = e - 1;
    }
  }
  return false;
}

}  // namespace

void place_device_variables(std::string& text) {
  static const char* const keywords[] = {"__cuda_cpu_device__", "__cuda_cpu_managed__"};
  static const std::string section = "__attribute__((section(\"cuda_cpu_device_vars\")))";
  for (const char* keyword : keywords) {
    const std::size_t length = std::strlen(keyword);
    for (std::size_t at = text.find(keyword); at != std::string::npos; at = text.find(keyword, at)) {
      if (!whole_word(text, at, length)) {
        at += length;
        continue;
      }
      std::string with = writable_variable(text, at + length) ? section : std::string(length, ' ');
      text.replace(at, length, with);
      at += with.size();
    }
  }
}

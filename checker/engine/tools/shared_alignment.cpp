#include "shared_alignment.h"

#include <cctype>
#include <cstddef>

const char kSharedExpansion[] = "thread_local __attribute__((used))";

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// Whether the word `w` stands at `i`, not as part of a longer name.
bool word_at(const std::string& text, std::size_t i, const char* w) {
  const std::size_t n = std::char_traits<char>::length(w);
  return text.compare(i, n, w) == 0 && (i == 0 || !word_char(text[i - 1])) &&
         (i + n >= text.size() || !word_char(text[i + n]));
}

// The `(` that matches the `)` at `close`, scanning back; npos if none.
std::size_t open_of(const std::string& text, std::size_t close) {
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (text[i] == ')') ++depth;
    if (text[i] == '(' && --depth == 0) return i;
  }
  return std::string::npos;
}

// The `)` that matches the `(` at `open`; npos if none.
std::size_t close_of(const std::string& text, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) return i;
  }
  return std::string::npos;
}

// The word that ends at `end` (exclusive), or "".
std::string word_before(const std::string& text, std::size_t end, std::size_t& begin) {
  begin = end;
  while (begin > 0 && word_char(text[begin - 1])) --begin;
  return text.substr(begin, end - begin);
}

}  // namespace

std::size_t declaration_start(const std::string& text, std::size_t at) {
  std::size_t start = at;
  for (;;) {
    std::size_t i = start;
    while (i > 0 && std::isspace(static_cast<unsigned char>(text[i - 1]))) --i;
    if (i == 0) return start;
    std::size_t begin;
    if (text[i - 1] == ')') {
      std::size_t open = open_of(text, i - 1);
      if (open == std::string::npos) return start;
      std::size_t j = open;
      while (j > 0 && std::isspace(static_cast<unsigned char>(text[j - 1]))) --j;
      const std::string w = word_before(text, j, begin);
      if (w != "alignas" && w != "__attribute__" && w != "__attribute") return start;
      start = begin;
      continue;
    }
    const std::string w = word_before(text, i, begin);
    if (w == "extern" || w == "static" || w == "volatile" || w == "const" || w == "constexpr" || w == "inline") {
      start = begin;
      continue;
    }
    return start;
  }
}

void move_shared_alignas(std::string& text) {
  const std::string expansion = kSharedExpansion;
  for (std::size_t at = text.find(expansion); at != std::string::npos; at = text.find(expansion, at + 1)) {
    // The specifiers and declarators after the expansion, up to the end of the declaration
    // (a __shared__ variable has no initializer) or a class body.
    std::string moved;
    int depth = 0;
    for (std::size_t i = at + expansion.size(); i < text.size(); ++i) {
      const char c = text[i];
      if (c == '(') ++depth;
      else if (c == ')') --depth;
      else if (depth == 0 && (c == ';' || c == '{' || c == '=')) break;
      else if (depth == 0 && (word_at(text, i, "struct") || word_at(text, i, "class") || word_at(text, i, "union") ||
                              word_at(text, i, "enum")))
        break;  // `__shared__ struct alignas(16) {...} s;`: that alignas is the type's
      else if (depth == 0 && word_at(text, i, "alignas")) {
        std::size_t open = i + 7;
        while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
        if (open >= text.size() || text[open] != '(') continue;
        const std::size_t close = close_of(text, open);
        if (close == std::string::npos) break;
        for (std::size_t k = i; k <= close; ++k) {
          moved += text[k] == '\n' ? ' ' : text[k];
          if (text[k] != '\n') text[k] = ' ';  // the newlines stay: every later line keeps its number
        }
        moved += ' ';
        i = close;
      }
    }
    if (moved.empty()) continue;
    const std::size_t start = declaration_start(text, at);
    text.insert(start, moved);
    at += moved.size();
  }
}

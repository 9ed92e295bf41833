#include "namespace_scopes.h"

#include <algorithm>

#include "source_tokens.h"

namespace {

using source_tokens::Token;

// Whether the tokens [begin, end) before a `{` open a namespace's body: `namespace N`,
// `namespace`, `inline namespace N`, `namespace A::B`, or a linkage block `extern "C"` /
// `extern "C++"` (not `extern "C" void f()`, a function).
bool opens_namespace_body(const std::string& text, const std::vector<Token>& tokens, std::size_t begin,
                          std::size_t end) {
  auto word = [&](std::size_t i) { return text.substr(tokens[i].begin, tokens[i].end - tokens[i].begin); };
  if (begin == end) return false;
  std::size_t i = begin;
  if (word(i) == "inline" && i + 1 < end) ++i;
  if (word(i) == "namespace") return true;
  if (end - begin == 2 && word(begin) == "extern" && tokens[begin + 1].kind == Token::literal) {
    const std::string linkage = word(begin + 1);
    return linkage == "\"C\"" || linkage == "\"C++\"";
  }
  return false;
}

}  // namespace

NamespaceScopes::NamespaceScopes(const std::string& text) {
  const source_tokens::Tokens tokens = source_tokens::tokenize(text);
  const std::vector<Token>& list = tokens.list;
  std::vector<bool> opened;  // for each open brace: whether it is a namespace's
  std::size_t others = 0;    // open braces that are not
  std::size_t head = 0;      // the first token after the last `;`, `{` or `}`
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].kind != Token::punct) continue;
    const char c = text[list[i].begin];
    if (c == '{') {
      const bool namespace_body = opens_namespace_body(text, list, head, i);
      opened.push_back(namespace_body);
      if (!namespace_body && others++ == 0) edges_.push_back(list[i].begin);
    } else if (c == '}') {
      if (!opened.empty()) {
        if (!opened.back() && --others == 0) edges_.push_back(list[i].end);
        opened.pop_back();
      }
    } else if (c != ';') {
      continue;
    }
    head = i + 1;
  }
}

bool NamespaceScopes::at_namespace_scope(std::size_t position) const {
  const auto crossed = std::upper_bound(edges_.begin(), edges_.end(), position) - edges_.begin();
  return crossed % 2 == 0;
}

#include "device_heap_new.h"

#include <vector>

#include "source_tokens.h"

void allocate_news_on_device_heap(std::string& text) {
  // Most kernel files have no new-expression: then the file is not tokenized.
  if (!source_tokens::outside_system_headers(text, "new", true)) return;
  const source_tokens::Tokens tokens = source_tokens::tokenize(text);
  const auto& list = tokens.list;
  auto is_word = [&](std::size_t i, const char* word) {
    const auto& t = list[i];
    return t.kind == source_tokens::Token::identifier && text.compare(t.begin, t.end - t.begin, word) == 0;
  };
  auto is_punct = [&](std::size_t i, char c) {
    return i < list.size() && list[i].kind == source_tokens::Token::punct && text[list[i].begin] == c;
  };
  std::vector<std::size_t> at;  // where to insert the placement: after these tokens
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].system || !is_word(i, "new")) continue;
    if (i > 0 && is_word(i - 1, "operator")) return;  // the file's own operator new: nothing changes
    if (is_punct(i + 1, '(')) continue;                // a placement already
    at.push_back(i);
  }
  for (auto i = at.rbegin(); i != at.rend(); ++i) text.insert(list[*i].end, " (::cuda_cpu::device_heap)");
}

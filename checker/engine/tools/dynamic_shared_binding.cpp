#include "dynamic_shared_binding.h"

#include <cctype>
#include <cstddef>

namespace {

const char kDeclaration[] = "extern thread_local __attribute__((used))";
const char kStoragePrefix[] = "cuda_cpu_dynamic_shared_";

// The storage's symbol, from its definition: `thread_local unsigned char cuda_cpu_dynamic_shared_<id>[`.
std::string storage_symbol(const std::string& text) {
  const std::string definition = std::string("thread_local unsigned char ") + kStoragePrefix;
  std::size_t at = text.find(definition);
  if (at == std::string::npos) return "";
  std::size_t begin = at + definition.size() - (sizeof kStoragePrefix - 1), end = begin;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
  return text.substr(begin, end - begin);
}

// The position of the `]` that ends an array declarator of unknown size just before `;`, or npos.
std::size_t unknown_bound_end(const std::string& text, std::size_t from, std::size_t semicolon) {
  std::size_t i = semicolon;
  while (i > from && std::isspace(static_cast<unsigned char>(text[i - 1]))) --i;
  if (i == from || text[i - 1] != ']') return std::string::npos;
  std::size_t close = i - 1, j = close;
  while (j > from && std::isspace(static_cast<unsigned char>(text[j - 1]))) --j;
  return j > from && text[j - 1] == '[' ? close : std::string::npos;
}

}  // namespace

void bind_dynamic_shared(std::string& text) {
  const std::string symbol = storage_symbol(text);
  if (symbol.empty()) return;
  const std::string label = " __asm__(\"" + symbol + "\")";
  const std::size_t keyword = sizeof "extern thread_local" - 1;
  for (std::size_t at = text.find(kDeclaration); at != std::string::npos; at = text.find(kDeclaration, at + 1)) {
    std::size_t semicolon = text.find(';', at);
    if (semicolon == std::string::npos) return;
    std::size_t close = unknown_bound_end(text, at, semicolon);
    if (close == std::string::npos) continue;  // a sized extern __shared__ array: not dynamic
    text.insert(close + 1, label);
    text.replace(at, keyword, "extern __thread");
  }
}

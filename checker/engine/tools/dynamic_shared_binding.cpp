#include "dynamic_shared_binding.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <vector>

#include "namespace_scopes.h"
#include "shared_alignment.h"

namespace {

const char kStoragePrefix[] = "cuda_cpu_dynamic_shared_";
// The generated kernel file's line that the first declaration's facts replace.
const char kFactsPlaceholder[] = "CUDA_CPU_DYNAMIC_SHARED_DECLARED";

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// The storage's symbol, from its definition: `thread_local unsigned char cuda_cpu_dynamic_shared_<id>[`.
std::string storage_symbol(const std::string& text) {
  const std::string definition = std::string("thread_local unsigned char ") + kStoragePrefix;
  std::size_t at = text.find(definition);
  if (at == std::string::npos) return "";
  std::size_t begin = at + definition.size() - (sizeof kStoragePrefix - 1), end = begin;
  while (end < text.size() && word_char(text[end])) ++end;
  return text.substr(begin, end - begin);
}

// The position of the `[` of an array declarator whose first bound is unknown (`name[]`, or
// `name[][N]` for rows of N), the last bracket pair before `;`; or npos for a sized array.
std::size_t unknown_bound_open(const std::string& text, std::size_t from, std::size_t semicolon) {
  std::size_t i = semicolon;
  while (i > from && std::isspace(static_cast<unsigned char>(text[i - 1]))) --i;
  if (i == from || text[i - 1] != ']') return std::string::npos;
  const std::size_t open = text.find('[', from);
  if (open == std::string::npos || open >= i) return std::string::npos;
  std::size_t j = open + 1;
  while (j < i && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
  return text[j] == ']' ? open : std::string::npos;
}

// `text` without its `word(...)` groups (alignas, __attribute__).
std::string without_groups(std::string text, const std::string& word) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at)) {
    if ((at > 0 && word_char(text[at - 1])) || (at + word.size() < text.size() && word_char(text[at + word.size()]))) {
      at += word.size();
      continue;
    }
    std::size_t open = text.find('(', at), depth = 0, end = open;
    if (open == std::string::npos) break;
    for (; end < text.size(); ++end) {
      if (text[end] == '(') ++depth;
      if (text[end] == ')' && --depth == 0) break;
    }
    text.replace(at, end + 1 - at, " ");
  }
  return text;
}

// The argument of every `word(...)` in [from, to): the alignments asked for.
void arguments_of(const std::string& text, std::size_t from, std::size_t to, const std::string& word,
                  std::vector<std::string>& out) {
  for (std::size_t at = text.find(word, from); at != std::string::npos && at < to; at = text.find(word, at + 1)) {
    if ((at > 0 && word_char(text[at - 1])) || word_char(text[at + word.size()])) continue;
    std::size_t open = at + word.size();
    while (open < to && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
    if (open >= to || text[open] != '(') continue;
    int depth = 0;
    std::size_t close = open;
    for (; close < to; ++close) {
      if (text[close] == '(') ++depth;
      if (text[close] == ')' && --depth == 0) break;
    }
    if (close >= to) continue;
    std::string argument = text.substr(open + 1, close - open - 1);
    for (char& c : argument)
      if (c == '\n') c = ' ';
    out.push_back(argument);
  }
}

// Whether `type` names the same type at file scope, where the generated file's sizeof reads it:
// built-in types, the fixed-width integers, CUDA's vector and half types, and ::-qualified
// names. A type named inside a namespace or a template may not be; the findings then count
// that memory in bytes.
bool names_a_file_scope_type(const std::string& type) {
  static const char* const known[] = {
      "char", "short", "int", "long", "float", "double", "signed", "unsigned", "bool", "wchar_t", "char16_t",
      "char32_t", "const", "volatile", "std", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t",
      "int64_t", "uint64_t", "size_t", "__half", "half", "__half2", "half2", "__nv_bfloat16", "nv_bfloat16",
      "__nv_bfloat162", "nv_bfloat162", "char2", "char4", "uchar2", "uchar4", "short2", "short4", "ushort2",
      "ushort4", "int2", "int4", "uint2", "uint4", "float2", "float4", "double2", "longlong2", "ulonglong2"};
  for (std::size_t i = 0; i < type.size();) {
    if (!word_char(type[i])) {
      if (type[i] == ':' && i + 1 < type.size() && type[i + 1] == ':' && i > 0 && word_char(type[i - 1])) {
        std::size_t begin = i;
        while (begin > 0 && word_char(type[begin - 1])) --begin;
        if (type.compare(begin, i - begin, "std") != 0) return false;  // inside a namespace or class other than std
      }
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < type.size() && word_char(type[end])) ++end;
    const std::string word = type.substr(i, end - i);
    bool global = i >= 2 && type.compare(i - 2, 2, "::") == 0 && (i == 2 || !word_char(type[i - 3]));
    bool found = global;
    for (const char* k : known) found = found || word == k;
    if (!found) return false;
    i = end;
  }
  return true;
}

struct Declared {
  std::string name, element_type;
};

// The name and element type of `<specifiers> T name` (the text between the __shared__
// expansion and the `[`).
Declared declared(const std::string& specifiers) {
  std::string d = without_groups(without_groups(specifiers, "alignas"), "__attribute__");
  std::size_t end = d.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return {};
  std::size_t begin = end + 1;
  while (begin > 0 && word_char(d[begin - 1])) --begin;
  Declared r;
  r.name = d.substr(begin, end + 1 - begin);
  std::string type = d.substr(0, begin);
  for (char& c : type)
    if (c == '\n') c = ' ';
  std::size_t first = type.find_first_not_of(" \t\r"), last = type.find_last_not_of(" \t\r");
  if (first != std::string::npos) r.element_type = type.substr(first, last + 1 - first);
  return r;
}

// `extern T __shared__ name[];` (the type before __shared__, which CUDA accepts too) as
// `extern __shared__ T name[];`: the __shared__ expansion moved to just after `extern`, when
// only the type's words lie between them.
void shared_after_extern(std::string& text) {
  const std::string expansion = kSharedExpansion;
  for (std::size_t at = text.find(expansion); at != std::string::npos; at = text.find(expansion, at + 1)) {
    std::size_t begin = at;
    while (begin > 0 && text[begin - 1] != ';' && text[begin - 1] != '{' && text[begin - 1] != '}') --begin;
    const std::size_t ext = text.find("extern", begin);
    if (ext == std::string::npos || ext >= at) continue;
    if (ext > 0 && word_char(text[ext - 1])) continue;
    const std::size_t type_begin = ext + sizeof "extern" - 1;
    const std::string between = text.substr(type_begin, at - type_begin);
    if (between.find_first_not_of(" \t\r\n") == std::string::npos) continue;  // already in place
    bool only_type = word_char(between.empty() ? ' ' : between.back()) || between.back() == ' ';
    for (char c : between) only_type = only_type && (word_char(c) || c == ' ' || c == ':' || c == '\t');
    if (!only_type) continue;
    text.erase(at, expansion.size());
    text.insert(type_begin, " " + expansion);
  }
}

// `const` and `volatile` among the words of [from, to), outside alignas(...) and
// __attribute__((...)) groups: the qualifiers written before `extern`.
std::string qualifiers_in(const std::string& text, std::size_t from, std::size_t to) {
  const std::string words = without_groups(without_groups(text.substr(from, to - from), "alignas"), "__attribute__");
  std::string out;
  for (std::size_t i = 0; i < words.size();) {
    if (!word_char(words[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < words.size() && word_char(words[end])) ++end;
    const std::string word = words.substr(i, end - i);
    if (word == "const" || word == "volatile") out += word + " ";
    i = end;
  }
  return out;
}

// One `extern __shared__ T name[];` of the text, as found before any is rewritten.
struct Declaration {
  std::size_t start, at, open, close, semicolon;
  bool block_scope;
  std::string checks;
  Declared declared;
};

}  // namespace

void bind_dynamic_shared(std::string& text) {
  const std::string symbol = storage_symbol(text);
  if (symbol.empty()) return;
  // The checks compare with the storage's alignment as a constant written beside its definition
  // after the loop: g++ gives __alignof__ of a variable its type's alignment inside a template.
  const std::string alignment = symbol + "_alignment";
  bool checked = false;
  shared_after_extern(text);
  const std::string declaration = std::string("extern ") + kSharedExpansion;
  std::vector<Declaration> found;
  for (std::size_t at = text.find(declaration); at != std::string::npos; at = text.find(declaration, at + 1)) {
    std::size_t semicolon = text.find(';', at);
    if (semicolon == std::string::npos) break;
    std::size_t open = unknown_bound_open(text, at, semicolon);
    if (open == std::string::npos) continue;  // a sized extern __shared__ array: not dynamic
    Declaration d{declaration_start(text, at), at, open, text.rfind(']', semicolon), semicolon, false, "", {}};
    // The alignments asked for: alignas before `extern` (moved there by move_shared_alignas,
    // or written so), and __align__ anywhere in the declaration.
    std::vector<std::string> alignments;
    arguments_of(text, d.start, at, "alignas", alignments);
    arguments_of(text, d.start, semicolon, "aligned", alignments);
    for (const std::string& a : alignments)
      d.checks += " static_assert(::cuda_cpu::alignas_argument<" + a + ">() <= " + alignment +
                  ", \"the CPU backend's dynamic shared memory starts at a 1024-byte boundary: an extern __shared__ "
                  "array cannot ask for a larger alignment\");";
    checked = checked || !d.checks.empty();
    d.declared = declared(text.substr(at + declaration.size(), open - at - declaration.size()));
    found.push_back(d);
  }
  if (!found.empty()) {
    const NamespaceScopes scopes(text);
    for (Declaration& d : found) d.block_scope = !scopes.at_namespace_scope(d.at);
  }
  // Rewritten from the last, so that the places found before stay where they are.
  for (auto d = found.rbegin(); d != found.rend(); ++d) {
    if (!d->block_scope || d->declared.name.empty() || d->declared.element_type.empty()) {
      // At namespace scope: the name bound to the storage's symbol by an assembler label. __thread,
      // because a C++ thread_local declared but not defined here would call an initialization
      // wrapper that nothing defines.
      text.insert(d->semicolon + 1, d->checks);
      text.insert(d->close + 1, " __asm__(\"" + symbol + "\")");
      text.replace(d->at, sizeof "extern thread_local" - 1, "extern __thread");
      continue;
    }
    // In a function: a reference to the storage. g++ ignores an assembler label on a block-scope
    // extern declaration inside a template (it names the namespace's variable instead), and the
    // storage, defined at file scope before the kernel file, is in sight here. Lines keep their
    // numbers.
    const std::string bounds = text.substr(d->open, d->close + 1 - d->open);
    const std::string type = qualifiers_in(text, d->start, d->at) + d->declared.element_type;
    const std::string replaced = text.substr(d->start, d->semicolon + 1 - d->start);
    const std::string newlines(static_cast<std::size_t>(std::count(replaced.begin(), replaced.end(), '\n')), '\n');
    text.replace(d->start, replaced.size(),
                 type + " (&" + d->declared.name + ")" + bounds + " = reinterpret_cast<" + type + " (&)" + bounds +
                     ">(::" + symbol + ");" + d->checks + newlines);
  }
  // Only where a check reads it: an unused constant is a warning under -Wall.
  if (checked) {
    const std::size_t defined = text.find(';', text.find("thread_local unsigned char " + symbol));
    if (defined != std::string::npos)
      text.insert(defined + 1, " static constexpr unsigned long " + alignment + " = __alignof__(" + symbol + ");");
  }

  const std::size_t placeholder = text.find(kFactsPlaceholder);
  if (placeholder == std::string::npos) return;
  std::string facts = "namespace { constexpr const char* dynamic_shared_name = ";
  const Declared* first = found.empty() || found[0].declared.name.empty() ? nullptr : &found[0].declared;
  if (first) {
    const std::string element = names_a_file_scope_type(first->element_type) && !first->element_type.empty()
                                    ? "sizeof(" + first->element_type + ")"
                                    : "0";
    facts += "\"" + first->name + "\"; constexpr std::size_t dynamic_shared_element = " + element +
             "; constexpr bool dynamic_shared_declared = true; }";
  } else {
    facts += "nullptr; constexpr std::size_t dynamic_shared_element = 0; constexpr bool dynamic_shared_declared = " +
             std::string(found.empty() ? "false" : "true") + "; }";
  }
  text.replace(placeholder, sizeof kFactsPlaceholder - 1, facts);
}

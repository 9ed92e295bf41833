// The tokens of a preprocessed C++ file, as far as the build's source rewrites need them
// (chevron_launch.h, device_heap_new.h): identifiers, literals, numbers and one-character
// punctuators, each with its place in the file and in the source it came from.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace source_tokens {

// Literals are one token each (so that "<<<" or "new" inside a string is text). Line markers
// give each token its file, its line and whether it is in a system header.
struct Token {
  enum Kind { identifier, literal, number, punct } kind;
  std::size_t begin, end;
  long line;
  std::size_t file;  // index into Tokens::files
  bool system;
};

struct Tokens {
  std::vector<Token> list;
  std::vector<std::string> files{""};
};

bool ident_char(char c);

Tokens tokenize(const std::string& s);

// Whether `text` (as a whole identifier when whole_word) is on a line outside system headers, as
// the line markers say: a cheap test before tokenizing a file (a tenth of a second), which can
// say yes for a string literal, never no for code.
bool outside_system_headers(const std::string& s, const std::string& text, bool whole_word);

}  // namespace source_tokens

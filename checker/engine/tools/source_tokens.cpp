#include "source_tokens.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace source_tokens {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

Tokens tokenize(const std::string& s) {
  Tokens out;
  out.list.reserve(s.size() / 4);  // about a token every 4 bytes of preprocessed C++: no regrowth
  std::size_t pos = 0, file = 0;
  long line = 1;
  bool system = false, line_start = true;
  auto count_lines = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to && i < s.size(); ++i) line += s[i] == '\n';
  };
  while (pos < s.size()) {
    char c = s[pos];
    if (c == '\n') {
      ++line;
      ++pos;
      line_start = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos;
      continue;
    }
    if (c == '#' && line_start) {  // # 12 "file" 1 3: the next line is line 12 of file
      std::size_t end = s.find('\n', pos);
      if (end == std::string::npos) end = s.size();
      std::size_t i = pos + 1;
      while (i < end && s[i] == ' ') ++i;
      if (s.compare(i, 4, "line") == 0) i += 4;
      while (i < end && s[i] == ' ') ++i;
      if (i < end && std::isdigit(static_cast<unsigned char>(s[i]))) {
        long number = std::strtol(s.c_str() + i, nullptr, 10);
        std::size_t q = s.find('"', i);
        if (q < end) {
          std::size_t q2 = s.find('"', q + 1);
          out.files.push_back(s.substr(q + 1, q2 - q - 1));
          file = out.files.size() - 1;
          system = q2 < end && s.substr(q2 + 1, end - q2 - 1).find(" 3") != std::string::npos;
        }
        line = number - 1;
      }
      pos = end;
      continue;
    }
    line_start = false;
    Token t{Token::punct, pos, pos + 1, line, file, system};
    // Literals, with their encoding prefixes (L, u, U, u8) and raw strings (R"x(...)x").
    std::size_t p = pos;
    if (c == 'u' && p + 1 < s.size() && s[p + 1] == '8') p += 2;
    else if (c == 'L' || c == 'u' || c == 'U') p += 1;
    if (p < s.size() && s[p] == 'R' && p + 1 < s.size() && s[p + 1] == '"') {
      std::size_t open = s.find('(', p + 2);
      std::string delimiter = ")" + s.substr(p + 2, open - p - 2) + "\"";
      std::size_t close = s.find(delimiter, open);
      std::size_t end = close == std::string::npos ? s.size() : close + delimiter.size();
      t.kind = Token::literal;
      t.end = end;
      count_lines(pos, end);
    } else if (p < s.size() && (s[p] == '"' || s[p] == '\'') && (p == pos || p - pos <= 2)) {
      char quote = s[p];
      std::size_t i = p + 1;
      while (i < s.size() && s[i] != quote) i += s[i] == '\\' ? 2 : 1;
      t.kind = Token::literal;
      t.end = i + 1 < s.size() ? i + 1 : s.size();
      count_lines(pos, t.end);
    } else if (ident_char(c) && !std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t i = pos;
      while (i < s.size() && ident_char(s[i])) ++i;
      t.kind = Token::identifier;
      t.end = i;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && pos + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[pos + 1])))) {
      std::size_t i = pos + 1;
      while (i < s.size()) {
        char d = s[i];
        if (ident_char(d) || d == '.') ++i;
        else if ((d == '+' || d == '-') && std::strchr("eEpP", s[i - 1])) ++i;
        else if (d == '\'' && i + 1 < s.size() && ident_char(s[i + 1])) ++i;
        else break;
      }
      t.kind = Token::number;
      t.end = i;
    }
    out.list.push_back(t);
    pos = t.end;
  }
  return out;
}

bool outside_system_headers(const std::string& s, const std::string& text, bool whole_word) {
  bool system = false;
  for (std::size_t pos = 0; pos < s.size();) {
    std::size_t end = s.find('\n', pos);
    if (end == std::string::npos) end = s.size();
    if (s[pos] == '#') {  // # 12 "file" 1 3: the flag 3 marks a system header
      std::size_t open = s.find('"', pos), close = open < end ? s.find('"', open + 1) : std::string::npos;
      if (close < end) system = s.substr(close + 1, end - close - 1).find(" 3") != std::string::npos;
    } else if (!system) {
      const std::string_view line(s.data() + pos, end - pos);  // searched alone: not to the file's end
      for (std::size_t in = line.find(text); in != std::string_view::npos; in = line.find(text, in + 1)) {
        const std::size_t at = pos + in;
        if (!whole_word) return true;
        bool starts = at == 0 || !ident_char(s[at - 1]);
        bool ends = at + text.size() >= s.size() || !ident_char(s[at + text.size()]);
        if (starts && ends) return true;
      }
    }
    pos = end + 1;
  }
  return false;
}

}  // namespace source_tokens

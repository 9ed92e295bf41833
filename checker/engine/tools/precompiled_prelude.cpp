#include "precompiled_prelude.h"

#include <cstddef>
#include <string>

namespace {

// The preprocessor's line markers: `# <line> "<file>"[ <flags>]`, each on a line of its own.
struct Marker {
  std::size_t begin = 0, end = 0;  // the line, without its newline
  std::string line_number, file, flags;
};

bool read_marker(const std::string& text, std::size_t begin, Marker& m) {
  std::size_t end = text.find('\n', begin);
  if (end == std::string::npos) end = text.size();
  if (text.compare(begin, 2, "# ") != 0) return false;
  std::size_t digits = begin + 2, quote = digits;
  while (quote < end && text[quote] >= '0' && text[quote] <= '9') ++quote;
  if (quote == digits || quote + 1 >= end || text[quote] != ' ' || text[quote + 1] != '"') return false;
  std::size_t closing = text.find('"', quote + 2);
  if (closing == std::string::npos || closing >= end) return false;
  m.begin = begin;
  m.end = end;
  m.line_number = text.substr(digits, quote - digits);
  m.file = text.substr(quote + 2, closing - quote - 2);
  m.flags = text.substr(closing + 1, end - closing - 1);
  return true;
}

std::size_t next_line(const std::string& text, std::size_t at) {
  std::size_t end = text.find('\n', at);
  return end == std::string::npos ? text.size() : end + 1;
}

// The first marker that enters a real file (not <built-in> or <command line>) from the main one.
bool first_header(const std::string& text, Marker& header) {
  for (std::size_t at = 0; at < text.size(); at = next_line(text, at))
    if (read_marker(text, at, header) && header.flags == " 1" && !header.file.empty() && header.file[0] != '<')
      return true;
  return false;
}

}  // namespace

bool leave_out_precompiled_prelude(std::string& text, const std::string& prelude, std::string& error) {
  Marker prelude_main, kernel_main, header, back;
  if (!read_marker(prelude, 0, prelude_main) || !first_header(prelude, header)) {
    error = "the precompiled prelude is not a preprocessed file that includes a header";
    return false;
  }
  // The shim's text runs up to the prelude's last return to its own file.
  std::size_t shim_end = std::string::npos;
  for (std::size_t at = header.begin; at < prelude.size(); at = next_line(prelude, at))
    if (read_marker(prelude, at, back) && back.file == prelude_main.file && back.flags == " 2") shim_end = at;
  if (shim_end == std::string::npos) {
    error = "the precompiled prelude never returns from " + header.file;
    return false;
  }
  const std::string shim = prelude.substr(header.begin, shim_end - header.begin);

  if (!read_marker(text, 0, kernel_main)) {
    error = "the kernel file does not begin with a line marker";
    return false;
  }
  Marker kernel_header;
  if (!first_header(text, kernel_header) || text.compare(kernel_header.begin, shim.size(), shim) != 0) {
    error = "the kernel file does not begin with the precompiled prelude's text (" + header.file + ")";
    return false;
  }
  Marker after;
  const std::size_t shim_stop = kernel_header.begin + shim.size();
  if (!read_marker(text, shim_stop, after) || after.file != kernel_main.file || after.flags != " 2") {
    error = "the kernel file goes on inside " + header.file + " after the precompiled prelude's text";
    return false;
  }
  // The header comes in before the file (-include-pch): the file goes on at the same line,
  // with no include to return from.
  text.replace(kernel_header.begin, after.end - kernel_header.begin, "# " + after.line_number + " \"" + after.file + "\"");
  return true;
}

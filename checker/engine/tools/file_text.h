// A file's bytes in one read: the tools read preprocessed kernel files (a megabyte, most of it
// the kernel shim) and object files at every kernel build, where a character-at-a-time stream
// read was a tenth of the step.
#pragma once

#include <fstream>
#include <string>

// False when the file cannot be opened or read.
inline bool read_file_text(const char* path, std::string& text) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const std::streamoff size = in.tellg();
  if (size < 0) return false;
  text.resize(static_cast<std::size_t>(size));
  in.seekg(0);
  return static_cast<bool>(in.read(text.data(), size)) || size == 0;
}

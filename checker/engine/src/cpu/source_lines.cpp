#include "source_lines.h"

#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "symbol_table.h"

namespace engine::cpu {
namespace {

// Offsets from the call, nearest first: the call itself, then alternately the code after it
// and before it, up to a few hundred bytes (an unrolled loop's body).
constexpr std::size_t kProbeCount = 64;
constexpr long probe(std::size_t i) { return i == 0 ? 0 : (i % 2 ? 1 + 8 * long(i / 2) : -8 * long(i / 2)); }

bool engine_file(const std::string& file) {
  return file.find("/checker/engine/") != std::string::npos || file.find("/kernels/") != std::string::npos ||
         file.find("/usr/include/") != std::string::npos || file.find("/usr/lib/") != std::string::npos;
}

bool parse_frame(std::string text, SourceLocation& loc) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  auto paren = text.find(" (discriminator");
  if (paren != std::string::npos) text.erase(paren);
  auto colon = text.rfind(':');
  if (colon == std::string::npos || text.compare(0, 2, "??") == 0) return false;
  loc.file = text.substr(0, colon);
  loc.line = std::atoi(text.c_str() + colon + 1);
  return loc.line > 0;
}

// The line the student wrote: the innermost frame in the kernel's own file, else in any file
// that is not the engine's (a header of theirs). Empty when there is none.
SourceLocation choose(const std::vector<SourceLocation>& frames, const std::string& kernel_source) {
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (frames[i].file == kernel_source) {
      SourceLocation chosen = frames[i];
      // The outer frames in the same file: where a helper of the file was inlined.
      int last = chosen.line;
      for (std::size_t j = i + 1; j < frames.size(); ++j)
        if (frames[j].file == kernel_source && frames[j].line != last) {
          chosen.called_from.push_back(frames[j].line);
          last = frames[j].line;
        }
      return chosen;
    }
  for (const SourceLocation& f : frames)
    if (!engine_file(f.file)) return f;
  return SourceLocation{};
}

}  // namespace

std::map<std::uintptr_t, SourceLocation> source_lines(const std::vector<std::uintptr_t>& addresses,
                                                      const std::string& kernel_source) {
  std::map<std::uintptr_t, SourceLocation> lines;
  if (addresses.empty()) return lines;
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return lines;
  exe[len] = '\0';
  std::ostringstream cmd;
  // -a: each address's frames start with the address; -i: inlined frames, innermost first.
  // Each return address is looked up inside the call (address - 1), and then at nearby
  // code: where the optimizer moved or merged an access it keeps no line for it (line 0),
  // and the nearest line of the code around it is the best that can be said.
  cmd << "addr2line -a -i -e '" << exe << "'";
  for (std::uintptr_t a : addresses)
    for (std::size_t p = 0; p < kProbeCount; ++p)
      cmd << " 0x" << std::hex << SymbolTable::self().file_address(a - 1 + probe(p));
  cmd << " 2>/dev/null";
  FILE* pipe = popen(cmd.str().c_str(), "r");
  if (!pipe) return lines;
  std::vector<std::vector<SourceLocation>> frames;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) {
    if (buf[0] == '0' && buf[1] == 'x') {
      frames.emplace_back();
      continue;
    }
    SourceLocation loc;
    if (!frames.empty() && parse_frame(buf, loc)) frames.back().push_back(loc);
  }
  pclose(pipe);
  for (std::size_t i = 0; i < addresses.size() && (i + 1) * kProbeCount <= frames.size(); ++i) {
    for (std::size_t p = 0; p < kProbeCount; ++p) {
      SourceLocation loc = choose(frames[i * kProbeCount + p], kernel_source);
      if (!loc.known()) continue;
      loc.approximate = p > 0;
      lines[addresses[i]] = loc;
      break;
    }
    // No line of the student's code anywhere near: the innermost line known at the address
    // itself (engine code that crashed, say) is better than none.
    const std::vector<SourceLocation>& here = frames[i * kProbeCount];
    if (!lines.count(addresses[i]) && !here.empty()) lines[addresses[i]] = here.front();
  }
  return lines;
}

}  // namespace engine::cpu

#include "source_lines.h"

#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "symbol_table.h"

namespace engine::cpu {

std::map<std::uintptr_t, SourceLocation> source_lines(const std::vector<std::uintptr_t>& addresses) {
  std::map<std::uintptr_t, SourceLocation> lines;
  if (addresses.empty()) return lines;
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return lines;
  exe[len] = '\0';
  std::ostringstream cmd;
  cmd << "addr2line -e '" << exe << "'";
  for (std::uintptr_t a : addresses)
    cmd << " 0x" << std::hex << SymbolTable::self().file_address(a - 1);
  cmd << " 2>/dev/null";
  FILE* pipe = popen(cmd.str().c_str(), "r");
  if (!pipe) return lines;
  char buf[4096];
  for (std::uintptr_t a : addresses) {
    if (!std::fgets(buf, sizeof buf, pipe)) break;
    std::string text(buf);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    auto paren = text.find(" (discriminator");
    if (paren != std::string::npos) text.erase(paren);
    auto colon = text.rfind(':');
    if (colon == std::string::npos || text.compare(0, 2, "??") == 0) continue;
    SourceLocation loc;
    loc.file = text.substr(0, colon);
    loc.line = std::atoi(text.c_str() + colon + 1);
    if (loc.line > 0) lines[a] = loc;
  }
  pclose(pipe);
  return lines;
}

}  // namespace engine::cpu

#include "source_lines.h"

#include <string>

#include "debug_info.h"
#include "symbol_table.h"

namespace engine::cpu {
namespace {

// Offsets from the call, nearest first: the call itself, then alternately the code after it
// and before it, up to a few hundred bytes (an unrolled loop's body).
constexpr std::size_t kProbeCount = 64;
constexpr long probe(std::size_t i) { return i == 0 ? 0 : (i % 2 ? 1 + 8 * long(i / 2) : -8 * long(i / 2)); }

// The engine's headers and sources, the build's generated kernel wrappers, the system's headers.
// "/engine/include/" also matches a path that reaches the headers through "..".
bool engine_file(const std::string& file) {
  return file.find("/checker/engine/") != std::string::npos || file.find("/engine/include/") != std::string::npos ||
         file.find("/kernels/") != std::string::npos ||
         file.find("/usr/include/") != std::string::npos || file.find("/usr/lib/") != std::string::npos;
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
  DebugInfo& debug = DebugInfo::self();
  // Each return address is looked up inside the call (address - 1), and then at nearby code:
  // where the optimizer moved or merged an access it keeps no line for it (line 0), and the
  // nearest line of the code around it is the best that can be said.
  for (std::uintptr_t address : addresses) {
    if (lines.count(address)) continue;
    const std::uintptr_t call = SymbolTable::self().file_address(address - 1);
    std::vector<SourceLocation> here = debug.frames_at(call);
    for (std::size_t p = 0; p < kProbeCount; ++p) {
      SourceLocation loc = choose(p == 0 ? here : debug.frames_at(call + probe(p)), kernel_source);
      if (!loc.known()) continue;
      loc.approximate = p > 0;
      lines[address] = loc;
      break;
    }
    // No line of the student's code anywhere near: the innermost line known at the address
    // itself (engine code that crashed, say) is better than none.
    if (!lines.count(address) && !here.empty()) lines[address] = here.front();
  }
  return lines;
}

}  // namespace engine::cpu

#include "debug_info.h"

#include <dwarf.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <utility>

namespace engine::cpu {
namespace {

// A file name of the unit as a path: a relative name (a #line directive's, say) is relative to
// the folder the unit was compiled in, as binutils' addr2line prints it.
std::string unit_path(Dwarf_Die* unit, const char* name) {
  if (name == nullptr) return "";
  if (name[0] == '/') return name;
  Dwarf_Attribute attr;
  const char* folder = dwarf_formstring(dwarf_attr(unit, DW_AT_comp_dir, &attr));
  return folder ? std::string(folder) + "/" + name : name;
}

// The file of entry `index` of the unit's file table ("" when there is none).
std::string unit_file(Dwarf_Die* unit, Dwarf_Word index) {
  Dwarf_Files* files = nullptr;
  std::size_t count = 0;
  if (dwarf_getsrcfiles(unit, &files, &count) != 0 || index >= count) return "";
  return unit_path(unit, dwarf_filesrc(files, index, nullptr, nullptr));
}

// The inlined-function instances whose code holds the address, outermost first. The concrete
// tree is walked, not dwarf_getscopes: for an inlined instance, that follows the function's
// abstract origin (where it was written) instead of where it was inlined. True when a
// function instance holds the address.
bool inlined_around(Dwarf_Die* parent, Dwarf_Addr address, std::vector<Dwarf_Die>& out) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return false;
  do {
    switch (dwarf_tag(&child)) {
      case DW_TAG_namespace:  // clang writes a namespace's function definitions inside it
      case DW_TAG_class_type:
      case DW_TAG_structure_type:
        if (inlined_around(&child, address, out)) return true;
        break;
      case DW_TAG_inlined_subroutine:
      case DW_TAG_subprogram:
      case DW_TAG_lexical_block:
        if (dwarf_haspc(&child, address) == 1) {
          if (dwarf_tag(&child) == DW_TAG_inlined_subroutine) out.push_back(child);
          inlined_around(&child, address, out);
          return true;  // code belongs to one function instance: stop at the first that holds it
        }
        break;
      default:
        break;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

SourceLocation location(std::string file, int line) {
  SourceLocation at;
  at.file = std::move(file);
  at.line = line;
  return at;
}

}  // namespace

DebugInfo& DebugInfo::self() {
  static DebugInfo d;
  return d;
}

DebugInfo::DebugInfo() {
  fd_ = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd_ >= 0) dwarf_ = dwarf_begin(fd_, DWARF_C_READ);
}

DebugInfo::~DebugInfo() {
  if (dwarf_) dwarf_end(dwarf_);
  if (fd_ >= 0) close(fd_);
}

void DebugInfo::read_unit_ranges() {
  ranges_read_ = true;
  if (!dwarf_) return;
  Dwarf_Off offset = 0, next = 0;
  std::size_t header = 0;
  while (dwarf_nextcu(dwarf_, offset, &next, &header, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die unit;
    if (dwarf_offdie(dwarf_, offset + header, &unit) != nullptr) {
      Dwarf_Addr base = 0, low = 0, high = 0;
      for (ptrdiff_t at = 0; (at = dwarf_ranges(&unit, at, &base, &low, &high)) > 0;)
        if (high > low) ranges_.push_back({low, high, offset + header});
    }
    offset = next;
  }
  std::sort(ranges_.begin(), ranges_.end(), [](const Range& a, const Range& b) { return a.low < b.low; });
}

bool DebugInfo::unit_at(std::uint64_t file_address, Dwarf_Die* unit) {
  if (!ranges_read_) read_unit_ranges();
  // The last range starting at or before the address; ranges of different units do not
  // overlap, except empty or discarded ones (a linker's 0 for dropped code), so look back a few.
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), file_address,
                             [](std::uint64_t a, const Range& r) { return a < r.low; });
  for (int back = 0; it != ranges_.begin() && back < 8; ++back) {
    --it;
    if (file_address < it->high) return dwarf_offdie(dwarf_, it->unit, unit) != nullptr;
  }
  return false;
}

std::vector<SourceLocation> DebugInfo::frames_at(std::uint64_t file_address) {
  std::lock_guard<std::mutex> guard(lock_);
  auto known = frames_.find(file_address);
  if (known != frames_.end()) return known->second;
  std::vector<SourceLocation>& frames = frames_[file_address];
  Dwarf_Die unit;
  if (!dwarf_ || !unit_at(file_address, &unit)) return frames;
  // The instruction's own line, from the line table.
  if (Dwarf_Line* line = dwarf_getsrc_die(&unit, file_address)) {
    int number = 0;
    const char* file = dwarf_linesrc(line, nullptr, nullptr);
    if (file && dwarf_lineno(line, &number) == 0 && number > 0) frames.push_back(location(unit_path(&unit, file), number));
  }
  // Each inlined function around it, innermost first, names the line that called it.
  std::vector<Dwarf_Die> inlined;
  inlined_around(&unit, file_address, inlined);
  for (auto it = inlined.rbegin(); it != inlined.rend(); ++it) {
    Dwarf_Attribute attr;
    Dwarf_Word file_index = 0, line = 0;
    if (!dwarf_attr(&*it, DW_AT_call_file, &attr) || dwarf_formudata(&attr, &file_index) != 0) continue;
    if (!dwarf_attr(&*it, DW_AT_call_line, &attr) || dwarf_formudata(&attr, &line) != 0) continue;
    std::string file = unit_file(&unit, file_index);
    if (!file.empty() && line > 0) frames.push_back(location(file, static_cast<int>(line)));
  }
  return frames;
}

}  // namespace engine::cpu

#include "symbol_table.h"

#include <cxxabi.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>

// The anchor whose address, minus its TLS offset, gives the start of this thread's TLS
// block for the executable. Kernels and engine are linked into the same executable.
__thread char engine_tls_anchor;

namespace engine::cpu {
namespace {

std::uintptr_t main_program_bias() {
  std::uintptr_t bias = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        *static_cast<std::uintptr_t*>(out) = info->dlpi_addr;
        return 1;  // the first entry is the main program
      },
      &bias);
  return bias;
}

std::size_t anchor_offset = 0;

// The executable's file, mapped read-only for as long as the table is read from it: only the
// pages of its symbol and string tables are read in (a checker with its debug information is
// several megabytes, and reading it all took a tenth of a small checker's run).
class MappedExecutable {
 public:
  MappedExecutable() {
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat info {};
    if (fstat(fd, &info) == 0 && info.st_size > 0) {
      void* mapped = mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (mapped != MAP_FAILED) {
        base_ = static_cast<const char*>(mapped);
        size_ = static_cast<std::size_t>(info.st_size);
      }
    }
    close(fd);
  }
  ~MappedExecutable() {
    if (base_) munmap(const_cast<char*>(base_), size_);
  }
  MappedExecutable(const MappedExecutable&) = delete;
  MappedExecutable& operator=(const MappedExecutable&) = delete;
  const char* data() const { return base_; }
  // Whether [offset, offset + bytes) lies in the file.
  bool holds(std::uint64_t offset, std::uint64_t bytes) const { return offset <= size_ && bytes <= size_ - offset; }

 private:
  const char* base_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace

SymbolTable::SymbolTable() {
  load_bias_ = main_program_bias();
  const MappedExecutable image;
  if (!image.holds(0, sizeof(Elf64_Ehdr))) return;
  const char* base = image.data();
  const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(base);
  if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64) return;
  if (!image.holds(eh->e_shoff, std::uint64_t{eh->e_shnum} * sizeof(Elf64_Shdr))) return;
  const auto* sections = reinterpret_cast<const Elf64_Shdr*>(base + eh->e_shoff);
  for (unsigned i = 0; i < eh->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_SYMTAB || sections[i].sh_link >= eh->e_shnum) continue;
    const Elf64_Shdr& strtab = sections[sections[i].sh_link];
    if (!image.holds(sections[i].sh_offset, sections[i].sh_size) || !image.holds(strtab.sh_offset, strtab.sh_size))
      continue;
    const auto* syms = reinterpret_cast<const Elf64_Sym*>(base + sections[i].sh_offset);
    std::size_t count = sections[i].sh_size / sizeof(Elf64_Sym);
    for (std::size_t s = 0; s < count; ++s) {
      unsigned char type = ELF64_ST_TYPE(syms[s].st_info);
      if (type != STT_FUNC && type != STT_TLS) continue;
      std::string name(base + strtab.sh_offset + syms[s].st_name);
      if (type == STT_TLS && name == "engine_tls_anchor") anchor_offset = syms[s].st_value;
      if (type == STT_TLS) {
        std::size_t dot = name.find('.');
        tls_symbols_.push_back({name.substr(0, dot), dot == std::string::npos ? "" : name.substr(dot + 1),
                                syms[s].st_value, syms[s].st_size});
      }
      symbols_.push_back({std::move(name), syms[s].st_value, syms[s].st_size, type});
    }
  }
  loaded_ = !symbols_.empty();
}

std::string SymbolTable::function_at(std::uintptr_t runtime_address) const {
  const std::uintptr_t address = file_address(runtime_address);
  for (const Symbol& s : symbols_) {
    if (s.type != STT_FUNC || s.value != address) continue;
    int status = 0;
    char* demangled = abi::__cxa_demangle(s.name.c_str(), nullptr, nullptr, &status);
    std::string name = status == 0 && demangled ? demangled : s.name;
    std::free(demangled);
    if (name.compare(0, 5, "void ") == 0) name.erase(0, 5);  // a function template's return type
    // Cut the parameter list: the last '(' outside template arguments.
    int depth = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
      if (name[i] == '<') ++depth;
      else if (name[i] == '>') --depth;
      else if (name[i] == '(' && depth == 0 && i > 0) return name.substr(0, i);
    }
    return name;
  }
  return "";
}

const SymbolTable& SymbolTable::self() {
  static const SymbolTable table;
  return table;
}

std::string SymbolTable::function_symbol_at_file_address(std::uintptr_t file_address) const {
  for (const Symbol& s : symbols_)
    if (s.type == STT_FUNC && s.value == file_address) return s.name;
  return "";
}

std::uintptr_t SymbolTable::tls_address(std::size_t tls_offset) {
  self();  // sets anchor_offset
  return reinterpret_cast<std::uintptr_t>(&engine_tls_anchor) - anchor_offset + tls_offset;
}

}  // namespace engine::cpu

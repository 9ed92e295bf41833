// Two kernel files, or the CPU and the GPU build of one, define the same names: the kernel
// itself, its helpers, and the inline functions of every header they include. Each kernel
// library renames what it defines for the whole program by appending its own suffix, keeping
// only its exports (kernels::<namespace>::cpu_<kernel>() and gpu_<kernel>()), so that any set
// of them links into one program. The suffix after a '.' reads as a clone in demangled names:
// "matmul_tiled(...) [clone .cpu_p04_tiled]". Functions' local statics (_ZZ...) are renamed too,
// local symbols as they often are: the suffix tells the CPU backend which library a __shared__
// variable's symbol belongs to, where the debug information gives no location for it (aarch64:
// shared_layout.cpp).
//
// This runs in the compile step of every kernel file, a student's edit included, so it edits
// the object itself: the new names go into a copy of the symbol string table appended to the
// file, and the section headers, appended after it, point the table there. Symbols are renamed
// by the string they point to, never renumbered: relocations and COMDAT groups (whose
// signature is a symbol) keep their references, and a group renamed with its symbol stays one
// group per library.
#include "localize_symbols.h"

#include <elf.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace localize {
namespace {

template <class T>
bool read_at(const std::string& file, std::uint64_t offset, T& out) {
  if (offset > file.size() || file.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, file.data() + offset, sizeof(T));
  return true;
}

bool starts_with(const char* text, const std::string& prefix) {
  return std::strncmp(text, prefix.c_str(), prefix.size()) == 0;
}

// Whether the symbol is one to rename: defined here, and global (or a function's local static).
bool renamed(const Elf64_Sym& s, const char* name, const std::string& keep_prefix) {
  if (s.st_shndx == SHN_UNDEF || name[0] == '\0') return false;
  unsigned type = ELF64_ST_TYPE(s.st_info);
  if (type == STT_SECTION || type == STT_FILE) return false;
  unsigned bind = ELF64_ST_BIND(s.st_info);
  if (bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE) return !starts_with(name, keep_prefix);
  return starts_with(name, "_ZZ");
}

}  // namespace

bool localize_symbols(const std::string& path, const std::string& suffix, const std::string& keep_prefix,
                      std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read it";
    return false;
  }
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  Elf64_Ehdr header;
  if (!read_at(file, 0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    error = "not an ELF object";
    return false;
  }
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB || header.e_type != ET_REL ||
      header.e_shentsize != sizeof(Elf64_Shdr)) {
    error = "not a 64-bit little-endian relocatable ELF object";
    return false;
  }
  Elf64_Shdr first;
  if (!read_at(file, header.e_shoff, first)) {
    error = "its section headers lie past its end";
    return false;
  }
  std::uint64_t count = header.e_shnum ? header.e_shnum : first.sh_size;  // more than 0xff00: in section 0
  if (count > (file.size() - header.e_shoff) / sizeof(Elf64_Shdr)) {
    error = "its section headers lie past its end";
    return false;
  }
  std::vector<Elf64_Shdr> sections(count);
  std::memcpy(sections.data(), file.data() + header.e_shoff, count * sizeof(Elf64_Shdr));

  std::size_t symtab = count;
  for (std::size_t i = 0; i < count; ++i)
    if (sections[i].sh_type == SHT_SYMTAB) symtab = i;
  if (symtab == count) return true;  // nothing defined, nothing to rename
  const Elf64_Shdr& table = sections[symtab];
  std::uint32_t strtab_index = table.sh_link;
  if (strtab_index >= count || table.sh_entsize != sizeof(Elf64_Sym) || table.sh_offset > file.size() ||
      table.sh_size > file.size() - table.sh_offset) {
    error = "its symbol table is malformed";
    return false;
  }
  const Elf64_Shdr& strings = sections[strtab_index];
  if (strings.sh_offset > file.size() || strings.sh_size > file.size() - strings.sh_offset || strings.sh_size == 0 ||
      file[strings.sh_offset + strings.sh_size - 1] != '\0') {
    error = "its symbol names are malformed";
    return false;
  }

  // The old names stay as they are (section names may share the table); new ones follow them.
  std::string new_strings = file.substr(strings.sh_offset, strings.sh_size);
  std::map<std::string, std::uint32_t> added;  // a new name -> its offset
  std::size_t symbols = table.sh_size / sizeof(Elf64_Sym);
  for (std::size_t i = 1; i < symbols; ++i) {
    std::size_t at = table.sh_offset + i * sizeof(Elf64_Sym);
    Elf64_Sym s;
    std::memcpy(&s, file.data() + at, sizeof s);
    if (s.st_name >= strings.sh_size) {
      error = "a symbol's name lies outside its name table";
      return false;
    }
    const char* name = file.data() + strings.sh_offset + s.st_name;
    if (!renamed(s, name, keep_prefix)) continue;
    std::string new_name = std::string(name) + "." + suffix;
    auto found = added.find(new_name);
    if (found == added.end()) {
      found = added.emplace(new_name, static_cast<std::uint32_t>(new_strings.size())).first;
      new_strings.append(new_name).push_back('\0');
    }
    s.st_name = found->second;
    std::memcpy(&file[at], &s, sizeof s);
  }
  if (added.empty()) return true;

  sections[strtab_index].sh_offset = file.size();
  sections[strtab_index].sh_size = new_strings.size();
  file += new_strings;
  file.resize((file.size() + 7) / 8 * 8, '\0');  // section headers are 8-byte aligned
  header.e_shoff = file.size();
  file.append(reinterpret_cast<const char*>(sections.data()), sections.size() * sizeof(Elf64_Shdr));
  std::memcpy(&file[0], &header, sizeof header);

  // Written beside it and renamed over it: a build stopped halfway leaves the old object whole.
  std::string temporary = path + ".localizing";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << file;
    if (!out.flush()) {
      error = "cannot write " + temporary;
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    error = std::string("cannot replace it: ") + std::strerror(errno);
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

int compile_then_localize(int argc, char** argv) {
  // argv: ptx_rewrite --localize-symbols SUFFIX -- COMPILER ARGS...
  if (argc < 5 || std::strcmp(argv[3], "--") != 0) {
    std::cerr << "usage: ptx_rewrite --localize-symbols SUFFIX -- COMPILER ARGS...\n";
    return 2;
  }
  std::string suffix = argv[2];
  std::string object;
  for (int i = 4; i < argc; ++i) {
    if (std::strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      object = argv[++i];
    } else if (std::strncmp(argv[i], "-o", 2) == 0 && argv[i][2] != '\0') {
      object = argv[i] + 2;
    }
  }
  if (object.empty()) {
    std::cerr << "ptx_rewrite --localize-symbols: the compiler's command names no object (-o)\n";
    return 2;
  }
  std::fflush(nullptr);
  pid_t child = fork();
  if (child < 0) {
    std::cerr << "ptx_rewrite --localize-symbols: cannot start the compiler: " << std::strerror(errno) << "\n";
    return 2;
  }
  if (child == 0) {
    execvp(argv[4], argv + 4);
    std::cerr << "ptx_rewrite --localize-symbols: cannot run " << argv[4] << ": " << std::strerror(errno) << "\n";
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      std::cerr << "ptx_rewrite --localize-symbols: lost the compiler: " << std::strerror(errno) << "\n";
      return 2;
    }
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  if (WEXITSTATUS(status) != 0) return WEXITSTATUS(status);
  std::string error;
  if (!localize_symbols(object, suffix, "_ZN7kernels", error)) {
    std::cerr << "ptx_rewrite --localize-symbols: " << object << ": " << error << "\n";
    std::remove(object.c_str());
    return 1;
  }
  return 0;
}

}  // namespace localize

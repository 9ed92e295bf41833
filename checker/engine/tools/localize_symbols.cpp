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
// the object itself (elf_symbols.h).
#include "localize_symbols.h"

#include <elf.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "elf_symbols.h"

namespace localize {
namespace {

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
  elf::SymbolTable table;
  if (!table.load(path, error)) return false;
  for (std::size_t i = 1; i < table.size(); ++i) {
    const char* name = table.name(i);
    if (renamed(table.symbol(i), name, keep_prefix)) table.rename(i, std::string(name) + "." + suffix);
  }
  return table.save(error);
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

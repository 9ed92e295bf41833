#include "device_pass_merge.h"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "cuda_cpu/kernel_section.h"
#include "elf_symbols.h"

namespace device_pass {
namespace {

bool defined(const Elf64_Sym& s) { return s.st_shndx != SHN_UNDEF && s.st_name != 0; }
unsigned binding(const Elf64_Sym& s) { return ELF64_ST_BIND(s.st_info); }
unsigned type(const Elf64_Sym& s) { return ELF64_ST_TYPE(s.st_info); }
bool function(const Elf64_Sym& s) { return type(s) == STT_FUNC || type(s) == STT_GNU_IFUNC; }
bool variable(const Elf64_Sym& s) { return type(s) == STT_OBJECT || type(s) == STT_TLS || type(s) == STT_COMMON; }

// Sections whose function pointers the C runtime calls before main.
bool initializers(const Elf64_Shdr& section, const std::string& name) {
  return section.sh_type == SHT_INIT_ARRAY || section.sh_type == SHT_PREINIT_ARRAY || name == ".ctors" ||
         name.rfind(".ctors.", 0) == 0;
}

// A symbol's name as C++ spells it ("scale(float*, int)"), or the symbol itself.
std::string demangled(const std::string& symbol) {
  int status = 0;
  char* name = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  std::string result = status == 0 && name ? name : symbol;
  std::free(name);
  return result;
}

// Whether symbol `i`, a function, is alone in its section (the host pass compiles with
// -ffunction-sections), so that what names the section names the function.
bool alone_in_section(const elf::SymbolTable& table, std::size_t i) {
  std::size_t section = table.symbol(i).st_shndx;
  if (section == SHN_UNDEF || section >= SHN_LORESERVE || table.symbol(i).st_value != 0) return false;
  for (std::size_t j = 1; j < table.size(); ++j) {
    const Elf64_Sym& s = table.symbol(j);
    if (j != i && s.st_shndx == section && (function(s) || variable(s))) return false;
  }
  return true;
}

}  // namespace

bool merge(const std::string& host_object, const std::string& device_object, const std::string& suffix,
           const std::string& file_name, std::vector<std::string>& internal_kernels, std::string& error) {
  std::set<std::string> kernels;  // by name: the host pass's are not marked
  std::map<std::string, std::string> private_kernels;  // a kernel of internal linkage -> its global name
  elf::SymbolTable device;
  if (!device.load(device_object, error)) {
    error = device_object + ": " + error;
    return false;
  }
  std::size_t count = device.size();  // symbols added below are not visited
  for (std::size_t i = 1; i < count; ++i) {
    const Elf64_Sym& s = device.symbol(i);
    if (!defined(s) || type(s) == STT_SECTION || type(s) == STT_FILE) continue;
    bool kernel = function(s) && device.section_name(i) == CUDA_CPU_KERNEL_SECTION;
    if (binding(s) == STB_LOCAL) {
      if (!kernel) continue;
      // A global name of its own, unique to this file, that the host pass's launches can reach.
      std::string global = std::string(device.name(i)) + "." + suffix + "." + file_name;
      Elf64_Sym like = s;
      if (device.add_global(global, &like) == 0) {
        internal_kernels.push_back(device.name(i));
        continue;
      }
      private_kernels.emplace(device.name(i), global);
      continue;
    }
    if (kernel) {
      kernels.insert(device.name(i));
      continue;
    }
    if (function(s)) {
      device.rename(i, std::string(device.name(i)) + "." + suffix);
    } else if (variable(s) && binding(s) == STB_GLOBAL) {
      device.set_binding(i, STB_WEAK);
    }
  }
  for (std::size_t index = 1; index < device.section_count(); ++index) {
    // Emptied, not marked SHF_EXCLUDE: lld and GNU ld drop such a section, but mold makes it an
    // output section of its own, the one that the program's list of initializers then names.
    if (!device.in_group(index) && initializers(device.section(index), device.name_of_section(index)))
      device.empty_section(index);
  }
  if (!device.save(error)) {
    error = device_object + ": " + error;
    return false;
  }

  elf::SymbolTable host;
  if (!host.load(host_object, error)) {
    error = host_object + ": " + error;
    return false;
  }
  count = host.size();
  for (std::size_t i = 1; i < count; ++i) {
    const Elf64_Sym& s = host.symbol(i);
    if (!defined(s) || !function(s)) continue;
    if (binding(s) == STB_GLOBAL && kernels.count(host.name(i)) != 0) host.set_binding(i, STB_WEAK);
    auto found = binding(s) == STB_LOCAL ? private_kernels.find(host.name(i)) : private_kernels.end();
    if (found == private_kernels.end()) continue;
    // The host pass names its own copy by a local symbol, or by its section's where the function
    // is alone in it: both are pointed at the device pass's, from every reference but the
    // copy's own code, its debug information and its unwind table (min_addend: a PC-relative
    // reference to a function's start carries the instruction's bias, -4 on x86-64).
    std::size_t section = s.st_shndx;
    std::size_t global = alone_in_section(host, i) ? host.add_global(found->second, nullptr) : 0;
    if (global == 0) {
      internal_kernels.push_back(found->first);
    } else {
      host.redirect_relocations(i, host.section_symbol(section), global, -8, section);
    }
    private_kernels.erase(found);
  }
  for (const auto& unseen : private_kernels) internal_kernels.push_back(unseen.first);
  if (!host.save(error)) {
    error = host_object + ": " + error;
    return false;
  }
  return true;
}

int merge_command(int argc, char** argv) {
  // argv: ptx_rewrite --device-pass HOST.o DEVICE.o FILE_NAME [FACTS]
  if (argc != 5 && argc != 6) {
    std::cerr << "usage: ptx_rewrite --device-pass HOST.o DEVICE.o FILE_NAME [FACTS]\n";
    return 2;
  }
  std::vector<std::string> internal_kernels;
  std::string error;
  if (!merge(argv[2], argv[3], "device_pass", argv[4], internal_kernels, error)) {
    std::cerr << "ptx_rewrite --device-pass: " << error << "\n";
    return 1;
  }
  std::ofstream file;
  if (argc == 6) {
    file.open(argv[5], std::ios::trunc);
    if (!file) {
      std::cerr << "ptx_rewrite --device-pass: cannot write " << argv[5] << "\n";
      return 2;
    }
  }
  std::ostream& facts = argc == 6 ? static_cast<std::ostream&>(file) : std::cout;
  for (const std::string& name : internal_kernels) facts << "internal-kernel " << demangled(name) << "\n";
  return facts.flush() ? 0 : 2;
}

}  // namespace device_pass

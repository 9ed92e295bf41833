// Reads this program's own ELF symbol table: where the program and its TLS block are loaded,
// to turn addresses into the file's (for addr2line and the debug information).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace engine::cpu {

class SymbolTable {
 public:
  static const SymbolTable& self();  // parsed once, on first use

  // This thread's address of a TLS offset.
  static std::uintptr_t tls_address(std::size_t tls_offset);
  // The executable's file address of a code address, as addr2line wants it.
  std::uintptr_t file_address(std::uintptr_t runtime_address) const {
    return runtime_address - load_bias_;
  }
  bool loaded() const { return loaded_; }
  // The function that starts at this code address, demangled and without its parameters
  // ("helpers::add<int>"), or "" when the table has none.
  std::string function_at(std::uintptr_t runtime_address) const;

 private:
  SymbolTable();
  struct Symbol {
    std::string name;
    std::uint64_t value;
    std::uint64_t size;
    unsigned char type;
  };
  std::vector<Symbol> symbols_;
  std::uintptr_t load_bias_ = 0;
  bool loaded_ = false;
};

}  // namespace engine::cpu

// Reads this program's own ELF symbol table: where the program and its TLS block are loaded,
// to turn addresses into the file's (for the debug information).
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
  // The executable's file address of a code address, as the debug information gives it.
  std::uintptr_t file_address(std::uintptr_t runtime_address) const {
    return runtime_address - load_bias_;
  }
  bool loaded() const { return loaded_; }
  // The function that starts at this code address, demangled and without its parameters
  // ("helpers::add<int>"), or "" when the table has none.
  std::string function_at(std::uintptr_t runtime_address) const;

  // A thread_local variable's symbol: where the debug information gives no TLS location
  // (clang writes none for aarch64), the variable is found here by its mangled name.
  struct TlsSymbol {
    std::string name;    // as the compiler mangled it
    std::string suffix;  // what the kernel libraries' renaming appended after a '.', or ""
    std::uint64_t offset;  // within the TLS block
    std::uint64_t size;
  };
  const std::vector<TlsSymbol>& tls_symbols() const { return tls_symbols_; }
  // The symbol (as mangled, with any renaming suffix) of the function that starts at this file
  // address, or "".
  std::string function_symbol_at_file_address(std::uintptr_t file_address) const;

 private:
  SymbolTable();
  struct Symbol {
    std::string name;
    std::uint64_t value;
    std::uint64_t size;
    unsigned char type;
  };
  std::vector<Symbol> symbols_;
  std::vector<TlsSymbol> tls_symbols_;
  std::uintptr_t load_bias_ = 0;
  bool loaded_ = false;
};

}  // namespace engine::cpu

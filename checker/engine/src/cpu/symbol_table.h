// Reads this program's own ELF symbol table. The CPU backend compiles `__shared__` as
// thread_local, so each kernel's shared variables are TLS symbols named after the kernel;
// their sizes give the kernel's static shared memory (what ptxas reports on the GPU) and
// their names let findings say "tile" instead of an address.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace engine::cpu {

struct SharedVariable {
  std::string name;          // "tile", as the kernel declares it
  std::size_t tls_offset;    // within this thread's TLS block
  std::size_t size;          // bytes
};

class SymbolTable {
 public:
  static const SymbolTable& self();  // parsed once, on first use

  // The __shared__ variables declared inside `kernel` (a function of this program).
  std::vector<SharedVariable> shared_variables_of(const void* kernel) const;
  // This thread's address of a TLS offset.
  static std::uintptr_t tls_address(std::size_t tls_offset);
  // The executable's file address of a code address, as addr2line wants it.
  std::uintptr_t file_address(std::uintptr_t runtime_address) const {
    return runtime_address - load_bias_;
  }
  bool loaded() const { return loaded_; }

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

// The symbol table of an ELF relocatable object, read and edited in place: what the kernel
// build's steps on objects need (localize_symbols.cpp, device_pass_merge.cpp), without a
// binutils of the target's architecture. Part of ptx_rewrite.
//
// Symbols are edited where they stand, never renumbered: relocations and COMDAT groups (whose
// signature is a symbol) keep their references. A new name goes into a copy of the symbol
// string table appended to the file, and the section headers, appended after it, point the
// table there.
#pragma once

#include <elf.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace elf {

class SymbolTable {
 public:
  // Reads the 64-bit little-endian relocatable object at `path`; false with `error` set where it
  // is not one, cannot be read or is malformed.
  bool load(const std::string& path, std::string& error);
  // Writes the edits back, through a file beside it renamed over it (a build stopped halfway
  // leaves the old object whole). Nothing is written where nothing changed.
  bool save(std::string& error);

  std::size_t size() const { return symbols_.size(); }  // entry 0, the null symbol, included
  const Elf64_Sym& symbol(std::size_t i) const { return symbols_[i]; }
  const char* name(std::size_t i) const;
  // The name of the section that defines symbol `i`; "" for an undefined, absolute or common one.
  std::string section_name(std::size_t i) const;

  void rename(std::size_t i, const std::string& new_name);
  void set_binding(std::size_t i, unsigned char binding);
  // Appends a global symbol (after every local one, as ELF asks) and returns its index: `like`'s
  // section, value, size and type, or an undefined one where `like` is null. False (0) where the
  // object's sections are too many for the table to grow here (SHT_SYMTAB_SHNDX).
  std::size_t add_global(const std::string& name, const Elf64_Sym* like);
  // The section symbol of section `index` (the one relocations use for a local function in a
  // section of its own), or 0.
  std::size_t section_symbol(std::size_t index) const;
  // Points the relocations of allocated sections (code and data, not debug information or
  // unwind tables) that name symbol `from` or `also`, with an addend in [min_addend, 0], to
  // symbol `to`; `skip`: a section whose own relocations stay. Returns how many it changed.
  std::size_t redirect_relocations(std::size_t from, std::size_t also, std::size_t to, std::int64_t min_addend,
                                   std::size_t skip);

  // Sections, by index (0 is the null section).
  std::size_t section_count() const { return sections_.size(); }
  const Elf64_Shdr& section(std::size_t index) const { return sections_[index]; }
  std::string name_of_section(std::size_t index) const;
  // Whether the section belongs to a group (a COMDAT group: an inline function's, a template's).
  bool in_group(std::size_t index) const { return (sections_[index].sh_flags & SHF_GROUP) != 0; }
  // Makes section `index` hold nothing, and its relocation sections too: what it held is gone
  // from whatever the object is linked into, whichever linker links it.
  void empty_section(std::size_t index);

 private:
  std::string path_;
  std::string file_;
  Elf64_Ehdr header_{};
  std::vector<Elf64_Shdr> sections_;
  std::vector<Elf64_Sym> symbols_;
  std::size_t symtab_ = 0;        // 0: the object has no symbol table
  std::uint32_t strtab_ = 0;
  std::string names_;             // the symbol string table, with the new names appended
  std::map<std::string, std::uint32_t> added_;  // a new name -> its offset in names_
  bool changed_ = false;
  bool grown_ = false;  // symbols were added: the table moves to the end of the file
};

}  // namespace elf

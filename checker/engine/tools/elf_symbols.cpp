#include "elf_symbols.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

namespace elf {
namespace {

template <class T>
bool read_at(const std::string& file, std::uint64_t offset, T& out) {
  if (offset > file.size() || file.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, file.data() + offset, sizeof(T));
  return true;
}

bool within(const std::string& file, const Elf64_Shdr& section) {
  return section.sh_offset <= file.size() && section.sh_size <= file.size() - section.sh_offset;
}

}  // namespace

bool SymbolTable::load(const std::string& path, std::string& error) {
  path_ = path;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read it";
    return false;
  }
  file_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!read_at(file_, 0, header_) || std::memcmp(header_.e_ident, ELFMAG, SELFMAG) != 0) {
    error = "not an ELF object";
    return false;
  }
  if (header_.e_ident[EI_CLASS] != ELFCLASS64 || header_.e_ident[EI_DATA] != ELFDATA2LSB ||
      header_.e_type != ET_REL || header_.e_shentsize != sizeof(Elf64_Shdr)) {
    error = "not a 64-bit little-endian relocatable ELF object";
    return false;
  }
  Elf64_Shdr first;
  if (!read_at(file_, header_.e_shoff, first)) {
    error = "its section headers lie past its end";
    return false;
  }
  std::uint64_t count = header_.e_shnum ? header_.e_shnum : first.sh_size;  // more than 0xff00: in section 0
  if (count > (file_.size() - header_.e_shoff) / sizeof(Elf64_Shdr)) {
    error = "its section headers lie past its end";
    return false;
  }
  sections_.resize(count);
  std::memcpy(sections_.data(), file_.data() + header_.e_shoff, count * sizeof(Elf64_Shdr));
  for (std::size_t i = 0; i < count; ++i)
    if (sections_[i].sh_type == SHT_SYMTAB) symtab_ = i;
  if (symtab_ == 0) return true;  // nothing defined
  const Elf64_Shdr& table = sections_[symtab_];
  strtab_ = table.sh_link;
  if (strtab_ >= count || table.sh_entsize != sizeof(Elf64_Sym) || !within(file_, table)) {
    error = "its symbol table is malformed";
    return false;
  }
  const Elf64_Shdr& strings = sections_[strtab_];
  if (!within(file_, strings) || strings.sh_size == 0 || file_[strings.sh_offset + strings.sh_size - 1] != '\0') {
    error = "its symbol names are malformed";
    return false;
  }
  names_ = file_.substr(strings.sh_offset, strings.sh_size);
  symbols_.resize(table.sh_size / sizeof(Elf64_Sym));
  std::memcpy(symbols_.data(), file_.data() + table.sh_offset, symbols_.size() * sizeof(Elf64_Sym));
  for (const Elf64_Sym& s : symbols_) {
    if (s.st_name >= strings.sh_size) {
      error = "a symbol's name lies outside its name table";
      return false;
    }
  }
  return true;
}

const char* SymbolTable::name(std::size_t i) const { return names_.c_str() + symbols_[i].st_name; }

std::string SymbolTable::section_name(std::size_t i) const {
  std::size_t index = symbols_[i].st_shndx;
  if (index == SHN_UNDEF || index == SHN_ABS || index == SHN_COMMON) return "";
  if (index == SHN_XINDEX) {  // past 0xff00 sections: the index is in SHT_SYMTAB_SHNDX
    index = 0;
    for (const Elf64_Shdr& s : sections_) {
      std::uint32_t extended;
      if (s.sh_type == SHT_SYMTAB_SHNDX && read_at(file_, s.sh_offset + i * sizeof extended, extended)) index = extended;
    }
  }
  return name_of_section(index);
}

std::string SymbolTable::name_of_section(std::size_t index) const {
  std::size_t names = header_.e_shstrndx == SHN_XINDEX ? sections_[0].sh_link : header_.e_shstrndx;
  if (index == 0 || index >= sections_.size() || names >= sections_.size()) return "";
  const Elf64_Shdr& table = sections_[names];
  if (!within(file_, table) || sections_[index].sh_name >= table.sh_size) return "";
  return std::string(file_.c_str() + table.sh_offset + sections_[index].sh_name);
}

void SymbolTable::add_section_flags(std::size_t index, std::uint64_t flags) {
  sections_[index].sh_flags |= flags;
  changed_ = true;
}

void SymbolTable::rename(std::size_t i, const std::string& new_name) {
  auto found = added_.find(new_name);
  if (found == added_.end()) {
    found = added_.emplace(new_name, static_cast<std::uint32_t>(names_.size())).first;
    names_.append(new_name).push_back('\0');
  }
  symbols_[i].st_name = found->second;
  changed_ = true;
}

void SymbolTable::set_binding(std::size_t i, unsigned char binding) {
  symbols_[i].st_info = ELF64_ST_INFO(binding, ELF64_ST_TYPE(symbols_[i].st_info));
  changed_ = true;
}

bool SymbolTable::save(std::string& error) {
  if (!changed_) return true;
  std::string file = file_;
  std::memcpy(&file[sections_[symtab_].sh_offset], symbols_.data(), symbols_.size() * sizeof(Elf64_Sym));
  std::vector<Elf64_Shdr> sections = sections_;
  Elf64_Ehdr header = header_;
  std::memcpy(&file[header.e_shoff], sections.data(), sections.size() * sizeof(Elf64_Shdr));
  if (!added_.empty()) {  // the old names stay as they are (section names may share the table)
    sections[strtab_].sh_offset = file.size();
    sections[strtab_].sh_size = names_.size();
    file += names_;
    file.resize((file.size() + 7) / 8 * 8, '\0');  // section headers are 8-byte aligned
    header.e_shoff = file.size();
    file.append(reinterpret_cast<const char*>(sections.data()), sections.size() * sizeof(Elf64_Shdr));
    std::memcpy(&file[0], &header, sizeof header);
  }
  std::string temporary = path_ + ".editing";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << file;
    if (!out.flush()) {
      error = "cannot write " + temporary;
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path_.c_str()) != 0) {
    error = std::string("cannot replace it: ") + std::strerror(errno);
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace elf

#include "elf_symbols.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "file_text.h"

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
  if (!read_file_text(path.c_str(), file_)) {
    error = "cannot read it";
    return false;
  }
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

void SymbolTable::empty_section(std::size_t index) {
  sections_[index].sh_size = 0;
  for (Elf64_Shdr& section : sections_)
    if ((section.sh_type == SHT_RELA || section.sh_type == SHT_REL) && section.sh_info == index) section.sh_size = 0;
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

std::size_t SymbolTable::add_global(const std::string& name, const Elf64_Sym* like) {
  if (symtab_ == 0) return 0;
  for (const Elf64_Shdr& s : sections_)
    if (s.sh_type == SHT_SYMTAB_SHNDX) return 0;
  Elf64_Sym added{};
  if (like) {
    added = *like;
    added.st_info = ELF64_ST_INFO(STB_GLOBAL, ELF64_ST_TYPE(like->st_info));
  } else {
    added.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE);
    added.st_shndx = SHN_UNDEF;
  }
  added.st_other = STV_DEFAULT;
  symbols_.push_back(added);
  rename(symbols_.size() - 1, name);
  grown_ = true;
  return symbols_.size() - 1;
}

std::size_t SymbolTable::section_symbol(std::size_t index) const {
  for (std::size_t i = 1; i < symbols_.size(); ++i)
    if (ELF64_ST_TYPE(symbols_[i].st_info) == STT_SECTION && symbols_[i].st_shndx == index) return i;
  return 0;
}

std::size_t SymbolTable::redirect_relocations(std::size_t from, std::size_t also, std::size_t to,
                                              std::int64_t min_addend, std::size_t skip) {
  std::size_t changed = 0;
  for (const Elf64_Shdr& r : sections_) {
    if (r.sh_type != SHT_RELA || r.sh_link != symtab_ || r.sh_info >= sections_.size() || r.sh_info == skip) continue;
    const Elf64_Shdr& target = sections_[r.sh_info];
    if (!(target.sh_flags & SHF_ALLOC) || name_of_section(r.sh_info) == ".eh_frame" || !within(file_, r)) continue;
    for (std::uint64_t at = r.sh_offset; at + sizeof(Elf64_Rela) <= r.sh_offset + r.sh_size; at += sizeof(Elf64_Rela)) {
      Elf64_Rela rela;
      std::memcpy(&rela, file_.data() + at, sizeof rela);
      std::size_t symbol = ELF64_R_SYM(rela.r_info);
      if ((symbol != from && symbol != also) || symbol == 0 || rela.r_addend > 0 || rela.r_addend < min_addend) continue;
      rela.r_info = ELF64_R_INFO(to, ELF64_R_TYPE(rela.r_info));
      std::memcpy(&file_[at], &rela, sizeof rela);
      ++changed;
    }
  }
  changed_ |= changed != 0;
  return changed;
}

void SymbolTable::set_binding(std::size_t i, unsigned char binding) {
  symbols_[i].st_info = ELF64_ST_INFO(binding, ELF64_ST_TYPE(symbols_[i].st_info));
  changed_ = true;
}

bool SymbolTable::save(std::string& error) {
  if (!changed_) return true;
  std::string file = file_;
  std::vector<Elf64_Shdr> sections = sections_;
  Elf64_Ehdr header = header_;
  const char* symbol_bytes = reinterpret_cast<const char*>(symbols_.data());
  if (grown_) {  // a longer table no longer fits where it was: it moves to the end
    file.resize((file.size() + 7) / 8 * 8, '\0');
    sections[symtab_].sh_offset = file.size();
    sections[symtab_].sh_size = symbols_.size() * sizeof(Elf64_Sym);
    file.append(symbol_bytes, symbols_.size() * sizeof(Elf64_Sym));
  } else {
    std::memcpy(&file[sections[symtab_].sh_offset], symbol_bytes, symbols_.size() * sizeof(Elf64_Sym));
  }
  if (!added_.empty()) {  // the old names stay as they are (section names may share the table)
    sections[strtab_].sh_offset = file.size();
    sections[strtab_].sh_size = names_.size();
    file += names_;
  }
  if (grown_ || !added_.empty()) {
    file.resize((file.size() + 7) / 8 * 8, '\0');  // section headers are 8-byte aligned
    header.e_shoff = file.size();
    file.append(reinterpret_cast<const char*>(sections.data()), sections.size() * sizeof(Elf64_Shdr));
    std::memcpy(&file[0], &header, sizeof header);
  } else {
    std::memcpy(&file[header.e_shoff], sections.data(), sections.size() * sizeof(Elf64_Shdr));
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

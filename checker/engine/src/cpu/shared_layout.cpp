#include "shared_layout.h"

#include <dwarf.h>
#include <elfutils/libdw.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "debug_info.h"
#include "engine/backend.h"
#include "symbol_table.h"

namespace engine::cpu {
namespace {

// Whether the function `fn` starts at `address`: its low_pc, or, for a function that g++ split
// into a hot part and a cold one (`[clone .cold]`), which has address ranges instead, the start
// of one of them.
bool starts_at(Dwarf_Die* fn, Dwarf_Addr address) {
  Dwarf_Addr low = 0;
  if (dwarf_lowpc(fn, &low) == 0) return low == address;
  Dwarf_Addr base = 0, start = 0, end = 0;
  for (std::ptrdiff_t at = 0; (at = dwarf_ranges(fn, at, &base, &start, &end)) > 0;)
    if (start == address) return true;
  return false;
}

bool find_subprogram(Dwarf_Die* parent, Dwarf_Addr address, Dwarf_Die* found) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return false;
  do {
    int tag = dwarf_tag(&child);
    if (tag == DW_TAG_subprogram) {
      if (starts_at(&child, address)) {
        *found = child;
        return true;
      }
    } else if (tag == DW_TAG_namespace || tag == DW_TAG_structure_type || tag == DW_TAG_class_type) {
      if (find_subprogram(&child, address, found)) return true;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

// The TLS offset of a thread_local variable: DW_OP_const*u <offset>, DW_OP_form_tls_address.
// False for any other variable, and where the compiler wrote no location (see below).
bool tls_offset(Dwarf_Die* variable, std::size_t& offset) {
  Dwarf_Attribute attr;
  if (!dwarf_attr_integrate(variable, DW_AT_location, &attr)) return false;
  Dwarf_Op* ops = nullptr;
  std::size_t count = 0;
  if (dwarf_getlocation(&attr, &ops, &count) != 0 || count != 2) return false;
  if (ops[1].atom != DW_OP_form_tls_address && ops[1].atom != DW_OP_GNU_push_tls_address) return false;
  offset = static_cast<std::size_t>(ops[0].number);
  return true;
}

// clang writes no location for thread_local variables when it compiles for aarch64 (LLVM
// has no debug relocation for their offsets there), so a __shared__ variable is found by
// its symbol instead. A function's static local is mangled Z <function> E <name>
// [<discriminator>] (Itanium C++ ABI, 5.1.6): _ZZ6kernelPfE4tile, and _ZZ6kernelPfE4tile_0
// for a second "tile" of the same function. `occurrence` counts the variables of that name
// met before in the function. Of the kernel libraries that define that name, the kernel's is
// the one whose renaming suffix (tools/localize_symbols.cpp) the kernel's own symbol has.
bool tls_offset_from_symbol(const std::string& function, const char* name, int occurrence,
                            const std::string& suffix, std::size_t& offset) {
  if (function.empty() || name == nullptr) return false;
  std::string encoding = function.compare(0, 2, "_Z") == 0 ? function.substr(2)
                                                           : std::to_string(function.size()) + function;
  const std::string base = "_ZZ" + encoding + "E" + std::to_string(std::strlen(name)) + name;
  // The discriminator of the occurrence: none for the first, then _0 .. _9, __10_ ...
  std::string wanted = base;
  if (occurrence > 0) {
    int d = occurrence - 1;
    wanted += d < 10 ? "_" + std::to_string(d) : "__" + std::to_string(d) + "_";
  }
  int found = 0;
  for (const SymbolTable::TlsSymbol& s : SymbolTable::self().tls_symbols()) {
    if (s.name != wanted || s.suffix != suffix) continue;
    offset = static_cast<std::size_t>(s.offset);
    ++found;
  }
  return found == 1;
}

void describe_type(Dwarf_Die* variable, SharedVariable& v) {
  Dwarf_Attribute attr;
  Dwarf_Die type;
  if (!dwarf_attr_integrate(variable, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &type)) return;
  Dwarf_Die peeled;
  if (dwarf_peel_type(&type, &peeled) != 0) return;
  Dwarf_Word size = 0;
  if (dwarf_aggregate_size(&peeled, &size) == 0) v.size = size;
  v.element_size = v.size;
  if (dwarf_tag(&peeled) != DW_TAG_array_type) return;
  Dwarf_Die sub;
  if (dwarf_child(&peeled, &sub) == 0) {
    do {
      if (dwarf_tag(&sub) != DW_TAG_subrange_type) continue;
      Dwarf_Word n = 0;
      Dwarf_Attribute bound;
      if (dwarf_attr(&sub, DW_AT_count, &bound) && dwarf_formudata(&bound, &n) == 0) {
        v.dims.push_back(static_cast<long>(n));
      } else if (dwarf_attr(&sub, DW_AT_upper_bound, &bound) && dwarf_formudata(&bound, &n) == 0) {
        v.dims.push_back(static_cast<long>(n) + 1);
      } else {
        v.dims.push_back(0);  // an array of unknown size (extern __shared__)
      }
    } while (dwarf_siblingof(&sub, &sub) == 0);
  }
  Dwarf_Die element;
  if (dwarf_attr_integrate(&peeled, DW_AT_type, &attr) && dwarf_formref_die(&attr, &element)) {
    Dwarf_Die element_peeled;
    Dwarf_Word element_size = 0;
    if (dwarf_peel_type(&element, &element_peeled) == 0 && dwarf_aggregate_size(&element_peeled, &element_size) == 0)
      v.element_size = element_size;
  }
}

void add_static(Dwarf_Die* variable, const std::string& function, int occurrence, const std::string& suffix,
                bool symbols_only, std::vector<SharedVariable>& out) {
  SharedVariable v{};
  const char* name = dwarf_diename(variable);
  if ((symbols_only || !tls_offset(variable, v.tls_offset)) &&
      !tls_offset_from_symbol(function, name, occurrence, suffix, v.tls_offset))
    return;
  for (const SharedVariable& seen : out)
    if (seen.tls_offset == v.tls_offset) return;
  v.name = name ? name : "(unnamed)";
  describe_type(variable, v);
  out.push_back(v);
}

// The __shared__ variables a kernel uses: the local statics of its own body, and of every
// function inlined into it or called from it (a __shared__ tile declared in a __device__
// helper is the kernel's too, as on a GPU), found through the inlined subroutines' abstract
// origins and the call sites' targets.
class SharedCollector {
 public:
  SharedCollector(std::vector<SharedVariable>& out, std::string suffix, bool symbols_only)
      : out_(out), suffix_(std::move(suffix)), symbols_only_(symbols_only) {}

  void function(Dwarf_Die* fn) {
    if (!visit(fn)) return;
    const std::string owner = linkage_name(fn);
    scope(fn, owner);
    // g++ keeps the static locals of a function that it also inlined somewhere in the function's
    // abstract entry, which the out-of-line copy's entry names as its origin (clang puts them in
    // the copy's own entry).
    Dwarf_Die origin;
    if (referenced(fn, DW_AT_abstract_origin, &origin) && visit(&origin)) statics(&origin, owner);
  }

 private:
  bool visit(Dwarf_Die* die) { return visited_.insert(dwarf_dieoffset(die)).second; }

  // A concrete scope of the function `owner` (its mangled name): its statics, and what is
  // inlined or called inside it.
  void scope(Dwarf_Die* s, const std::string& owner) {
    Dwarf_Die child;
    if (dwarf_child(s, &child) != 0) return;
    do {
      switch (dwarf_tag(&child)) {
        case DW_TAG_lexical_block: scope(&child, owner); break;
        case DW_TAG_variable: variable(&child, owner); break;
        case DW_TAG_inlined_subroutine: {
          Dwarf_Die origin;
          std::string inlined;
          if (referenced(&child, DW_AT_abstract_origin, &origin)) {
            inlined = linkage_name(&origin);
            if (visit(&origin)) statics(&origin, inlined);
          }
          scope(&child, inlined);
          break;
        }
        case DW_TAG_call_site:
        case DW_TAG_GNU_call_site: {
          Dwarf_Die callee;
          if (referenced(&child, DW_AT_call_origin, &callee) || referenced(&child, DW_AT_abstract_origin, &callee))
            function(&callee);
          break;
        }
        default: break;
      }
    } while (dwarf_siblingof(&child, &child) == 0);
  }

  // An abstract function (the origin of inlined copies): the statics in its tree.
  void statics(Dwarf_Die* s, const std::string& owner) {
    Dwarf_Die child;
    if (dwarf_child(s, &child) != 0) return;
    do {
      int tag = dwarf_tag(&child);
      if (tag == DW_TAG_variable) variable(&child, owner);
      else if (tag == DW_TAG_lexical_block) statics(&child, owner);
    } while (dwarf_siblingof(&child, &child) == 0);
  }

  void variable(Dwarf_Die* v, const std::string& owner) {
    const char* name = dwarf_diename(v);
    int occurrence = name ? occurrences_[owner + ' ' + name]++ : 0;
    add_static(v, owner, occurrence, suffix_, symbols_only_, out_);
  }

  // A function's mangled name (its name, for one with C linkage), from its declaration.
  static std::string linkage_name(Dwarf_Die* fn) {
    Dwarf_Attribute attr;
    const char* name = nullptr;
    if (dwarf_attr_integrate(fn, DW_AT_linkage_name, &attr) || dwarf_attr_integrate(fn, DW_AT_MIPS_linkage_name, &attr))
      name = dwarf_formstring(&attr);
    else if (dwarf_attr_integrate(fn, DW_AT_name, &attr))
      name = dwarf_formstring(&attr);
    return name ? name : "";
  }

  static bool referenced(Dwarf_Die* die, int attribute, Dwarf_Die* target) {
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, attribute, &attr) && dwarf_formref_die(&attr, target);
  }

  std::vector<SharedVariable>& out_;
  const std::string suffix_;  // the kernel library's renaming suffix
  const bool symbols_only_;
  std::set<Dwarf_Off> visited_;
  std::map<std::string, int> occurrences_;  // "<function> <name>": variables met so far
};

}  // namespace

std::vector<SharedVariable> shared_variables_of(const void* kernel, bool symbols_only) {
  DebugInfo& debug = DebugInfo::self();
  std::lock_guard<std::mutex> guard(debug.lock());
  Dwarf* dwarf = debug.dwarf();
  if (dwarf == nullptr)
    throw Error("this program has no debug information (was it stripped?); the CPU backend reads its kernels' "
                "__shared__ variables from it. Rebuild it, and do not strip it");
  Dwarf_Addr address = SymbolTable::self().file_address(reinterpret_cast<std::uintptr_t>(kernel));
  Dwarf_Die cu, subprogram;
  const bool found = debug.unit_at(address, &cu) && find_subprogram(&cu, address, &subprogram);
  if (!found) throw Error("no debug information for this kernel; it must be compiled with -g (the build does this)");
  std::vector<SharedVariable> out;
  const std::string symbol = SymbolTable::self().function_symbol_at_file_address(address);
  const std::size_t dot = symbol.find('.');
  SharedCollector(out, dot == std::string::npos ? "" : symbol.substr(dot + 1), symbols_only).function(&subprogram);
  return out;
}

}  // namespace engine::cpu

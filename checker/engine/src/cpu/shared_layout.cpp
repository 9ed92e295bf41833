#include "shared_layout.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include <mutex>
#include <set>

#include "engine/backend.h"
#include "symbol_table.h"

namespace engine::cpu {
namespace {

// libdw, opened once on the program's own file.
class Debug {
 public:
  static Debug& self() {
    static Debug d;
    return d;
  }
  Dwarf* get() { return dwarf_; }

 private:
  Debug() {
    fd_ = open("/proc/self/exe", O_RDONLY);
    if (fd_ >= 0) dwarf_ = dwarf_begin(fd_, DWARF_C_READ);
  }
  ~Debug() {
    if (dwarf_) dwarf_end(dwarf_);
    if (fd_ >= 0) close(fd_);
  }
  int fd_ = -1;
  Dwarf* dwarf_ = nullptr;
};

bool find_subprogram(Dwarf_Die* parent, Dwarf_Addr address, Dwarf_Die* found) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return false;
  do {
    int tag = dwarf_tag(&child);
    if (tag == DW_TAG_subprogram) {
      Dwarf_Addr low = 0;
      if (dwarf_lowpc(&child, &low) == 0 && low == address) {
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

void add_static(Dwarf_Die* variable, std::vector<SharedVariable>& out) {
  SharedVariable v{};
  if (!tls_offset(variable, v.tls_offset)) return;
  for (const SharedVariable& seen : out)
    if (seen.tls_offset == v.tls_offset) return;
  const char* name = dwarf_diename(variable);
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
  explicit SharedCollector(std::vector<SharedVariable>& out) : out_(out) {}

  void function(Dwarf_Die* fn) {
    if (!visit(fn)) return;
    scope(fn);
  }

 private:
  bool visit(Dwarf_Die* die) { return visited_.insert(dwarf_dieoffset(die)).second; }

  // A concrete scope: its statics, and what is inlined or called inside it.
  void scope(Dwarf_Die* s) {
    Dwarf_Die child;
    if (dwarf_child(s, &child) != 0) return;
    do {
      switch (dwarf_tag(&child)) {
        case DW_TAG_lexical_block: scope(&child); break;
        case DW_TAG_variable: add_static(&child, out_); break;
        case DW_TAG_inlined_subroutine: {
          Dwarf_Die origin;
          if (referenced(&child, DW_AT_abstract_origin, &origin) && visit(&origin)) statics(&origin);
          scope(&child);
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
  void statics(Dwarf_Die* s) {
    Dwarf_Die child;
    if (dwarf_child(s, &child) != 0) return;
    do {
      int tag = dwarf_tag(&child);
      if (tag == DW_TAG_variable) add_static(&child, out_);
      else if (tag == DW_TAG_lexical_block) statics(&child);
    } while (dwarf_siblingof(&child, &child) == 0);
  }

  static bool referenced(Dwarf_Die* die, int attribute, Dwarf_Die* target) {
    Dwarf_Attribute attr;
    return dwarf_attr_integrate(die, attribute, &attr) && dwarf_formref_die(&attr, target);
  }

  std::vector<SharedVariable>& out_;
  std::set<Dwarf_Off> visited_;
};

}  // namespace

std::vector<SharedVariable> shared_variables_of(const void* kernel) {
  static std::mutex lock;  // libdw handles are not shared between threads
  std::lock_guard<std::mutex> guard(lock);
  Dwarf* dwarf = Debug::self().get();
  if (dwarf == nullptr)
    throw Error("this program has no debug information (was it stripped?); the CPU backend reads its kernels' "
                "__shared__ variables from it. Rebuild it, and do not strip it");
  Dwarf_Addr address = SymbolTable::self().file_address(reinterpret_cast<std::uintptr_t>(kernel));
  // Walk the compile units: clang writes no .debug_aranges index for dwarf_addrdie.
  Dwarf_Die cu, subprogram;
  bool found = false;
  Dwarf_Off offset = 0, next = 0;
  std::size_t header = 0;
  while (!found && dwarf_nextcu(dwarf, offset, &next, &header, nullptr, nullptr, nullptr) == 0) {
    if (dwarf_offdie(dwarf, offset + header, &cu) != nullptr && dwarf_haspc(&cu, address) == 1)
      found = find_subprogram(&cu, address, &subprogram);
    offset = next;
  }
  if (!found) throw Error("no debug information for this kernel; it must be compiled with -g (the build does this)");
  std::vector<SharedVariable> out;
  SharedCollector(out).function(&subprogram);
  return out;
}

}  // namespace engine::cpu

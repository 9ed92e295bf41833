#include "variable_locations.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

namespace block_loops {

using namespace llvm;

bool drop_local_variable_locations(Module& m) {
  bool changed = false;
  for (Function& function : m) {
    if (function.isDeclaration() || !function.hasFnAttribute(Attribute::SanitizeAddress)) continue;
    changed = true;
    for (BasicBlock& block : function)
      for (Instruction& instruction : make_early_inc_range(block)) {
#if LLVM_VERSION_MAJOR >= 19
        // From LLVM 19 the locations are records attached to instructions, not calls.
        instruction.dropDbgRecords();
#endif
        if (isa<DbgVariableIntrinsic>(instruction)) instruction.eraseFromParent();
      }
  }
  return changed;
}

}  // namespace block_loops

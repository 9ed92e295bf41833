#include "dispatch.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace block_loops {
namespace {

using namespace llvm;

std::vector<CallBase*> indirect_calls(Function& f) {
  std::vector<CallBase*> found;
  for (Instruction& instruction : instructions(f))
    if (auto* call = dyn_cast<CallBase>(&instruction))
      if (!call->isInlineAsm() && !call->getCalledFunction()) found.push_back(call);
  return found;
}

// Attributes that change what a caller passes: the same type with a different one of these
// would not be the same call.
bool passes_the_same(const AttributeSet& a, const AttributeSet& b) {
  for (Attribute::AttrKind kind : {Attribute::ZExt, Attribute::SExt, Attribute::InReg, Attribute::Returned,
                                   Attribute::SwiftSelf, Attribute::Nest})
    if (a.hasAttribute(kind) != b.hasAttribute(kind)) return false;
  for (Attribute::AttrKind kind : {Attribute::ByVal, Attribute::StructRet, Attribute::InAlloca,
                                   Attribute::Preallocated, Attribute::ByRef}) {
    if (a.hasAttribute(kind) != b.hasAttribute(kind)) return false;
    if (a.hasAttribute(kind) && a.getAttribute(kind).getValueAsType() != b.getAttribute(kind).getValueAsType())
      return false;
  }
  return true;
}

}  // namespace

CallBase* call_through_pointer(Function& invoker) {
  // Optimised, the invoker calls the kernel itself; at -O0, through cuda_cpu::call_kernel and
  // its helper, which are inlined here first (a few levels, no further).
  for (unsigned round = 0; round < 4; ++round) {
    std::vector<CallBase*> found = indirect_calls(invoker);
    if (!found.empty()) return found.size() == 1 ? found.front() : nullptr;
    std::vector<CallBase*> direct;
    for (Instruction& instruction : instructions(invoker))
      if (auto* call = dyn_cast<CallBase>(&instruction))
        if (Function* callee = call->getCalledFunction())
          if (!callee->isDeclaration() && !callee->isIntrinsic()) direct.push_back(call);
    if (direct.empty()) return nullptr;
    for (CallBase* call : direct) {
      InlineFunctionInfo info;
      if (!InlineFunction(*call, info).isSuccess()) return nullptr;
    }
  }
  return nullptr;
}

std::vector<Function*> kernels_for(CallBase& call) {
  std::vector<Function*> found;
  Module& m = *call.getModule();
  for (Function& f : m) {
    if (f.isDeclaration() || f.isVarArg() || f.getFunctionType() != call.getFunctionType()) continue;
    if (!f.hasAddressTaken()) continue;
    bool same = f.getCallingConv() == call.getCallingConv();
    for (unsigned i = 0; same && i < f.arg_size(); ++i)
      same = passes_the_same(f.getAttributes().getParamAttrs(i), call.getAttributes().getParamAttrs(i));
    if (same) found.push_back(&f);
  }
  return found;
}

}  // namespace block_loops

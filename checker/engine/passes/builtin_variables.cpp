#include "builtin_variables.h"

#include <vector>

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "thread_local_address.h"

namespace block_loops {

using namespace llvm;

namespace {

// An address computed from another without leaving it: an offset, a cast, or (LLVM 16 and
// later) the intrinsic through which a thread-local variable's address is taken.
bool derives_address(const User* user) {
  if (isa<GetElementPtrInst>(user) || isa<BitCastInst>(user) || isa<AddrSpaceCastInst>(user)) return true;
  if (const auto* expression = dyn_cast<ConstantExpr>(user)) {
    unsigned op = expression->getOpcode();
    return op == Instruction::GetElementPtr || op == Instruction::BitCast || op == Instruction::AddrSpaceCast;
  }
  return takes_thread_local_address(user);
}

constexpr const char* kBuiltinNames[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};

// The engine's own: declared here, thread-local, and of CUDA's uint3 (12 bytes).
bool is_builtin_variable(const GlobalVariable& variable) { return variable.isDeclaration() && variable.isThreadLocal(); }

}  // namespace

bool reads_builtin_variable(const LoadInst& load) {
  if (load.isVolatile()) return false;
  const Value* address = load.getPointerOperand();
  for (;;) {
    if (const auto* variable = dyn_cast<GlobalVariable>(address)) {
      for (const char* name : kBuiltinNames)
        if (variable->getName() == name) return is_builtin_variable(*variable);
      return false;
    }
    const auto* user = dyn_cast<User>(address);
    if (!user || !derives_address(user) || user->getNumOperands() == 0) return false;
    address = user->getOperand(0);
  }
}

bool quiet_builtin_variable_reads(Module& m) {
  std::vector<Value*> addresses;
  for (const char* name : kBuiltinNames) {
    GlobalVariable* variable = m.getNamedGlobal(name);
    if (variable && is_builtin_variable(*variable)) addresses.push_back(variable);
  }
  if (addresses.empty()) return false;
  std::vector<LoadInst*> reads;
  for (std::size_t i = 0; i < addresses.size(); ++i)
    for (User* user : addresses[i]->users()) {
      if (auto* load = dyn_cast<LoadInst>(user)) {
        if (load->getPointerOperand() == addresses[i] && !load->isVolatile()) reads.push_back(load);
      } else if (derives_address(user)) {
        addresses.push_back(user);
      }
    }
  MDNode* mark = MDNode::get(m.getContext(), {});
  // Invariant too: within one call of a kernel or its loop invoker, each always reads the running
  // thread's own values (the engine sets them before the call, and on fibers before it resumes
  // one), so the code generator may keep one read where the inline checks' calls would make it
  // read again at every load.
  for (LoadInst* read : reads) {
    read->setMetadata("nosanitize", mark);
    read->setMetadata(LLVMContext::MD_invariant_load, mark);
  }
  return !reads.empty();
}

}  // namespace block_loops

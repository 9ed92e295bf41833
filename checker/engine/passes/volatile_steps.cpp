#include "volatile_steps.h"

#include <vector>

#include "cuda_cpu/volatile_step.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

namespace block_loops {

using namespace llvm;

namespace {

// The address of a volatile load or store of memory that other threads may share; else null.
Value* shared_volatile_address(Instruction& i) {
  Value* address = nullptr;
  if (auto* load = dyn_cast<LoadInst>(&i)) {
    if (load->isVolatile()) address = load->getPointerOperand();
  } else if (auto* store = dyn_cast<StoreInst>(&i)) {
    if (store->isVolatile()) address = store->getPointerOperand();
  }
  if (!address || isa<AllocaInst>(getUnderlyingObject(address))) return nullptr;
  return address;
}

}  // namespace

bool insert_volatile_steps(Module& m) {
  LLVMContext& context = m.getContext();
  FunctionCallee step;
  bool inserted = false;
  for (Function& f : m) {
    if (f.isDeclaration()) continue;
    for (BasicBlock& block : f) {
      // What the block did last that touches memory: the step is needed only where another
      // lane's access may come between that and this one.
      enum class Last { other, volatile_load, step_after_store } last = Last::other;
      std::vector<Instruction*> before, after;
      for (Instruction& i : block) {
        if (isa<DbgInfoIntrinsic>(i)) continue;
        if (!shared_volatile_address(i)) {
          if (i.mayReadOrWriteMemory()) last = Last::other;
          continue;
        }
        if (isa<LoadInst>(i)) {
          if (last == Last::other) before.push_back(&i);
          last = Last::volatile_load;
        } else {
          if (last != Last::step_after_store) before.push_back(&i);
          after.push_back(&i);
          last = Last::step_after_store;
        }
      }
      if (before.empty() && after.empty()) continue;
      if (!step) step = m.getOrInsertFunction(CUDA_CPU_VOLATILE_STEP_NAME(CUDA_CPU_VOLATILE_STEP),
                                              FunctionType::get(Type::getVoidTy(context), false));
      auto call_before = [&](Instruction* place, const DebugLoc& where) {
        CallInst* call = CallInst::Create(step, "", place);
        call->setDebugLoc(where);
        inserted = true;
      };
      for (Instruction* access : before) call_before(access, access->getDebugLoc());
      for (Instruction* store : after) call_before(store->getNextNode(), store->getDebugLoc());
    }
  }
  return inserted;
}

}  // namespace block_loops

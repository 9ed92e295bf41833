// How a module takes a thread-local variable's address: LLVM 16 and later through a call to the
// intrinsic llvm.threadlocal.address (its argument is the variable), earlier versions as the
// variable itself. On the CPU backend every __shared__ variable and every built-in variable is
// thread-local (kernel_shim.h, runtime_hooks.h).
#pragma once

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace block_loops {

inline bool takes_thread_local_address(const llvm::Value* value) {
  const auto* call = llvm::dyn_cast<llvm::CallInst>(value);
  const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName().substr(0, 24) == "llvm.threadlocal.address";
}

}  // namespace block_loops

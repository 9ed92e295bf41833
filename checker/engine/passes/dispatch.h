// Whole programs launch a kernel through its address (cuda_cpu::invoke_through_pointer): one
// invoker per kernel type, which calls whichever kernel ends the launch's argument array. The
// pass cannot follow that call, so for each such invoker it makes one copy per kernel the file
// defines that the call could reach, with the call made direct (then as for any invoker).
#pragma once

#include <vector>

namespace llvm {
class CallBase;
class Function;
}  // namespace llvm

namespace block_loops {

// In `invoker` (a copy of a dispatch invoker, which this may inline into): its one call through
// a pointer, or null where it has none or several.
llvm::CallBase* call_through_pointer(llvm::Function& invoker);

// The functions of the module that `call` could call as it is: defined here, their address
// taken, of its type, with the same attributes that decide how arguments are passed (a
// structure by value, sign or zero extension). A launch names one of them, or a kernel of
// another file (which stays on fibers).
std::vector<llvm::Function*> kernels_for(llvm::CallBase& call);

}  // namespace block_loops

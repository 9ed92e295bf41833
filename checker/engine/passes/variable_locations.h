// Where a kernel's local variables live, instruction by instruction, is what a debugger reads to
// print them, and nothing of the engine does: it reads the line table, the functions (inlined
// ones too) and the __shared__ variables, whose one location is their thread-local offset
// (cpu/shared_layout.cpp). Those per-instruction locations are the costliest part of compiling
// an instrumented kernel: every inline check splits the kernel's blocks, and the code generator
// then tracks each register-held variable across all of them, into location lists larger than
// the code (puzzle 10's solution: 1.5 MB of its 2 MB object, 1.6 s of its 3.3 s of code
// generation). So the instrumented functions of a kernel file drop them; the variables stay
// declared, and a debugger shows them as optimized out.
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace block_loops {

// Drops the location records of local variables (dbg.value, dbg.declare and their kin, or
// LLVM 19's debug records) from each function AddressSanitizer instruments. Returns whether
// there was any such function.
bool drop_local_variable_locations(llvm::Module& m);

}  // namespace block_loops

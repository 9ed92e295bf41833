// The checks of a loop's reads, made once before the loop. A matmul's inner loop reads a row of
// one tile and a column of another, or of A and B in global memory, a fixed stride apart at each
// iteration; checked at each read, the tests cost several times the multiply-add they guard
// (puzzle 2 at n = 1024: a billion checked global reads and as many checked shared ones).
//
// For an innermost loop whose trip count is known on entry, whose only accesses that the
// instrumentation would check are such reads, and that calls nothing that could change what the
// checks know, this pass makes a second copy of the loop without those checks and, before the
// two, a call to the engine (cpu/reads_ahead.cpp) for each read: its first address, its stride,
// the trip count. The engine answers whether every one of those accesses is one its callback
// would settle at once (a shared word settled for this reader, a global read inside its buffer,
// memory that is not the device's), and how many global loads they count. Only then does the
// unchecked copy run, after adding the count; otherwise the loop runs as before, every access
// checked at its own line, in its own order. So findings cannot change: the copy runs only where
// no access of the loop would have found anything or changed any state but that count, and
// nothing inside it can change the answer (no stores, no calls, no other checked access).
#pragma once

namespace llvm {
class Module;
template <typename IRUnitT, typename... ExtraArgTs>
class AnalysisManager;
using ModuleAnalysisManager = AnalysisManager<Module>;
}  // namespace llvm

namespace block_loops {

// For the functions that take the inline checks (inline_checks.h), before those are put in.
// Returns whether it changed the module.
bool check_loop_reads_ahead(llvm::Module& m, llvm::ModuleAnalysisManager& analyses);

}  // namespace block_loops

// Which regions of a loop invoker only read: the code a thread runs from one barrier to the next
// writes no memory but its own frame (its locals, and the values it keeps across barriers). The
// engine uses the fact at each barrier (cpu/worker.cpp, open_barrier): where every thread goes on
// into a region that only reads, nothing writes shared memory until the next barrier, so no read
// of the interval can race with a write, and the readers that the checks note for a later write's
// sake would never be looked at. The written words are then settled for every reader at once
// instead of by the first two or three readers of each word, one call each.
#pragma once

#include <vector>

namespace llvm {
class BasicBlock;
class Value;
}  // namespace llvm

namespace block_loops {

// Marks the loads of code that only reads: they may test FastPath::settled_span first
// (inline_checks.cpp).
inline constexpr char kInCodeThatOnlyReads[] = "cuda_cpu.only_reads";

// For each block a thread resumes at (in the order of `resume_at`), whether the code reachable
// from it before the thread's next barrier (the next return) writes memory only through
// `frame`, the thread's frame pointer. Anything that could write elsewhere counts as a write: a
// store, a call that may write memory (the engine's barrier calls excepted), an atomic, a fence,
// a volatile access. The loads of the code that only reads get the mark kInCodeThatOnlyReads.
std::vector<bool> regions_that_only_read(const std::vector<llvm::BasicBlock*>& resume_at, llvm::Value* frame);

}  // namespace block_loops

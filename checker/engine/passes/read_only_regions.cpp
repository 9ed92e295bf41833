#include "read_only_regions.h"

#include <set>

#include "cuda_cpu/block_loop_names.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"

namespace block_loops {
namespace {

using namespace llvm;

// The engine's calls that a region may make without writing the kernel's memory: the arrival at
// the barrier that ends it, and the reduction a barrier returns.
bool engine_barrier_call(const CallBase& call) {
  const Function* callee = call.getCalledFunction();
  if (!callee) return false;
  StringRef name = callee->getName();
  return name == CUDA_CPU_LOOP_NAME(CUDA_CPU_LOOP_ARRIVE) || name == CUDA_CPU_LOOP_NAME(CUDA_CPU_LOOP_BARRIER_RESULT);
}

bool into_frame(const Value* address, const Value* frame) { return getUnderlyingObject(address) == frame; }

bool writes_beyond_frame(const Instruction& instruction, const Value* frame) {
  if (isa<DbgInfoIntrinsic>(instruction)) return false;
  if (auto* store = dyn_cast<StoreInst>(&instruction))
    return store->isVolatile() || !store->isUnordered() || !into_frame(store->getPointerOperand(), frame);
  if (auto* set = dyn_cast<MemSetInst>(&instruction)) return set->isVolatile() || !into_frame(set->getDest(), frame);
  if (auto* copy = dyn_cast<MemTransferInst>(&instruction)) return copy->isVolatile() || !into_frame(copy->getDest(), frame);
  if (auto* call = dyn_cast<CallBase>(&instruction)) return !engine_barrier_call(*call) && call->mayWriteToMemory();
  // Atomics, fences, volatile loads (LLVM counts an ordered access as a write).
  return instruction.mayWriteToMemory();
}

bool only_reads(BasicBlock* start, const Value* frame) {
  std::set<BasicBlock*> seen{start};
  std::vector<BasicBlock*> next{start};
  while (!next.empty()) {
    BasicBlock* block = next.back();
    next.pop_back();
    for (const Instruction& instruction : *block)
      if (writes_beyond_frame(instruction, frame)) return false;
    // A return ends the region: the thread arrived at its next barrier, or its kernel ended.
    for (BasicBlock* successor : successors(block))
      if (seen.insert(successor).second) next.push_back(successor);
  }
  // A block may also belong to code that writes (reached from another barrier): there the
  // engine's flag is never set, and its loads' first test fails.
  MDNode* mark = MDNode::get(start->getContext(), {});
  for (BasicBlock* block : seen)
    for (Instruction& instruction : *block)
      if (isa<LoadInst>(instruction)) instruction.setMetadata(kInCodeThatOnlyReads, mark);
  return true;
}

}  // namespace

std::vector<bool> regions_that_only_read(const std::vector<BasicBlock*>& resume_at, Value* frame) {
  std::vector<bool> found;
  found.reserve(resume_at.size());
  for (BasicBlock* start : resume_at) found.push_back(only_reads(start, frame));
  return found;
}

}  // namespace block_loops

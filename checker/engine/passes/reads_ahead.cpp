#include "reads_ahead.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "cpu/fast_path.h"
#include "inline_checks.h"
#include "instrumented_loads.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "thread_local_address.h"

namespace block_loops {
namespace {

using namespace llvm;

// Marks the reads of a loop that has its copy already, in both copies (the pass then leaves the
// loop alone).
constexpr char kCheckedAhead[] = "cuda_cpu.checked_ahead";

// A function's loops are looked at again after each copy (the analyses start afresh); at most
// this many copies per function, so that the compile's time stays bounded.
constexpr unsigned kMaxLoopsPerFunction = 64;

// A read that steps through memory: `address` is {first,+,step} over the loop, as integers.
struct Read {
  LoadInst* load;
  const SCEVAddRecExpr* address;
  std::uint64_t bytes;
};

struct Plan {
  Loop* loop = nullptr;
  const SCEV* backedges = nullptr;  // the trip count less one
  std::vector<Read> reads;
  // The recurrences may hold only under conditions checked before the loop (an unsigned 32-bit
  // index that must not wrap around, as `threadIdx.x * n + k` is): kept here.
  std::unique_ptr<PredicatedScalarEvolution> conditions;
};

const SCEVPredicate& conditions_of(const PredicatedScalarEvolution& predicated) {
#if LLVM_VERSION_MAJOR < 15
  return predicated.getUnionPredicate();
#else
  return predicated.getPredicate();
#endif
}

bool safe_to_expand(const SCEV* value, Instruction* at, ScalarEvolution& analysis, SCEVExpander& expander) {
#if LLVM_VERSION_MAJOR < 15
  (void)expander;
  return isSafeToExpandAt(value, at, analysis);
#else
  (void)analysis;
  return expander.isSafeToExpandAt(value, at);
#endif
}

// The loop's reads that the instrumentation would check, where nothing else in it would be
// checked or could change what the checks know; false where something could.
bool reads_alone(Loop& loop, const DataLayout& layout, std::vector<InstrumentedLoad>& reads) {
  for (BasicBlock* block : loop.blocks())
    for (Instruction& instruction : *block) {
      if (instruction.hasMetadata(kCheckedAhead)) return false;  // this loop has its copy already
      InstrumentedLoad access;
      if (fixed_size_instrumented_load(instruction, layout, access)) {
        reads.push_back(access);
        continue;
      }
      if (!instruction.mayReadOrWriteMemory()) continue;
      // The engine's own bookkeeping (a frame's slots, the built-in variables): never checked.
      if ((isa<LoadInst>(instruction) || isa<StoreInst>(instruction)) && instruction.hasMetadata("nosanitize"))
        continue;
      // A store, a call, an atomic, a read checked some other way: its check could change what
      // the engine answered before the loop.
      return false;
    }
  return !reads.empty();
}

// The thread-invariant values that the rematerialization (rematerialize.h) computes again where
// they are used, inside the loop (a kernel argument read from the invoker's argument array):
// moved to the preheader, so that a read's address is a recurrence over the loop. Only in a loop
// that writes no memory (a load then reads the same at every iteration), and only from blocks
// that every iteration runs through (so nothing runs that would not have run anyway).
bool hoist_invariants(Loop& loop, const DominatorTree& dominators) {
  for (BasicBlock* block : loop.blocks())
    for (Instruction& instruction : *block)
      if (instruction.mayWriteToMemory()) return false;
  BasicBlock* latch = loop.getLoopLatch();
  Instruction* at = loop.getLoopPreheader()->getTerminator();
  bool hoisted = false;
  for (bool again = true; again;) {
    again = false;
    for (BasicBlock* block : loop.blocks()) {
      if (!dominators.dominates(block, latch)) continue;
      for (auto next = block->begin(); next != block->end();) {
        Instruction& instruction = *next++;
        if (isa<PHINode>(instruction) || instruction.isTerminator()) continue;
        // The one call moved: a __shared__ variable's address (LLVM 16 and later take it through
        // llvm.threadlocal.address), the same on this OS thread for the whole loop.
        if (isa<CallBase>(instruction) && !takes_thread_local_address(&instruction)) continue;
        if (!all_of(instruction.operands(), [&](Value* operand) { return loop.isLoopInvariant(operand); })) continue;
        // The engine's own reads (nosanitize); a read the instrumentation checks stays where it is.
        if (auto* load = dyn_cast<LoadInst>(&instruction)) {
          if (!load->isSimple() || !load->hasMetadata("nosanitize")) continue;
        } else if (instruction.mayReadOrWriteMemory()) {
          continue;
        }
        instruction.moveBefore(at);
        hoisted = again = true;
      }
    }
  }
  return hoisted;
}

// Whether `loop` qualifies (reads_ahead.h), with its reads in `plan`. Gives the loop a preheader
// and exits of its own where it has none (the optimizer's last passes leave loops without), and
// moves what it can out of the loop: `changed` says whether the code changed (then the function's
// analyses must start afresh).
bool plan_for(Loop& loop, LoopInfo& loops, DominatorTree& dominators, ScalarEvolution& analysis,
              AssumptionCache& assumptions, const DataLayout& layout, Plan& plan, bool& changed) {
  std::vector<InstrumentedLoad> reads;
  if (!loop.isInnermost() || !reads_alone(loop, layout, reads)) return false;
  if (!loop.isLoopSimplifyForm()) {
    changed |= simplifyLoop(&loop, &dominators, &loops, &analysis, &assumptions, nullptr, false);
    if (!loop.isLoopSimplifyForm()) return false;
  }
  // Moved: the analyses start afresh, and the loop is looked at again.
  if (hoist_invariants(loop, dominators)) {
    changed = true;
    return false;
  }
  BasicBlock* latch = loop.getLoopLatch();
  // One way out, at the end of an iteration: every read in a block that dominates the latch
  // runs once per iteration, the trip count's times.
  if (loop.getExitingBlock() != latch || !loop.getUniqueExitBlock()) return false;
  const SCEV* backedges = analysis.getBackedgeTakenCount(&loop);
  if (isa<SCEVCouldNotCompute>(backedges)) return false;
  plan.loop = &loop;
  plan.backedges = backedges;
  plan.reads.clear();
  plan.conditions = std::make_unique<PredicatedScalarEvolution>(analysis, loop);
  Type* word = layout.getIntPtrType(loop.getHeader()->getContext());
  for (const InstrumentedLoad& read : reads) {
    // As an integer: a base pointer plus a stepping offset folds into one recurrence. Where the
    // offset is an unsigned 32-bit index, only under the condition that it does not wrap.
    const SCEV* integer = analysis.getPtrToIntExpr(analysis.getSCEV(read.address), word);
    if (!isa<SCEVAddRecExpr>(integer))
      if (const SCEVAddRecExpr* pointer = plan.conditions->getAsAddRec(read.address))
        integer = analysis.getPtrToIntExpr(pointer, word);
    const auto* address = dyn_cast<SCEVAddRecExpr>(integer);
    if (!address || address->getLoop() != &loop || !address->isAffine()) return false;
    if (!dominators.dominates(read.load->getParent(), latch)) return false;
    plan.reads.push_back({read.load, address, read.bytes});
  }
  SCEVExpander expander(analysis, layout, "ahead");
  Instruction* at = loop.getLoopPreheader()->getTerminator();
  if (!safe_to_expand(backedges, at, analysis, expander)) return false;
  for (const Read& read : plan.reads)
    if (!safe_to_expand(read.address->getStart(), at, analysis, expander) ||
        !safe_to_expand(read.address->getStepRecurrence(analysis), at, analysis, expander))
      return false;
  return true;
}

// Before the loop, the engine's answer for each read; the copy without checks where they all
// allow it, after the count of its global loads; else the loop as it was.
void copy_unchecked(const Plan& plan, LoopInfo& loops, DominatorTree& dominators, ScalarEvolution& analysis,
                    Module& m) {
  Loop& loop = *plan.loop;
  formLCSSA(loop, dominators, &loops, &analysis);  // what the loop defines reaches past it through PHIs
  BasicBlock* check = loop.getLoopPreheader();
  BasicBlock* exit = loop.getUniqueExitBlock();
  BasicBlock* preheader =
      SplitBlock(check, check->getTerminator(), &dominators, &loops, nullptr, loop.getHeader()->getName() + ".checked");

  LLVMContext& context = m.getContext();
  IRBuilder<> b(check->getTerminator());
  Type* i64 = b.getInt64Ty();
  FunctionCallee ahead = m.getOrInsertFunction(ENGINE_READS_AHEAD_SYMBOL,
                                               FunctionType::get(i64, {i64, i64, i64, b.getInt32Ty()}, false));
  FunctionCallee count = m.getOrInsertFunction(ENGINE_COUNT_READS_AHEAD_SYMBOL,
                                               FunctionType::get(b.getVoidTy(), {i64}, false));
  SCEVExpander expander(analysis, m.getDataLayout(), "ahead");
  Instruction* at = check->getTerminator();
  auto expand = [&](const SCEV* value) { return expander.expandCodeFor(value, value->getType(), at); };
  Value* trips = b.CreateAdd(b.CreateZExtOrTrunc(expand(plan.backedges), i64), b.getInt64(1));
  Value* allowed = b.getTrue();
  const SCEVPredicate& conditions = conditions_of(*plan.conditions);
  if (!conditions.isAlwaysTrue()) allowed = b.CreateNot(expander.expandCodeForPredicate(&conditions, at));
  Value* counted = b.getInt64(0);
  for (const Read& read : plan.reads) {
    Value* first = b.CreateZExtOrTrunc(expand(read.address->getStart()), i64);
    Value* step = b.CreateSExtOrTrunc(expand(read.address->getStepRecurrence(analysis)), i64);
    Value* answer = b.CreateCall(ahead, {first, step, trips, b.getInt32(static_cast<std::uint32_t>(read.bytes))});
    allowed = b.CreateAnd(allowed, b.CreateICmpSGE(answer, b.getInt64(0)));
    counted = b.CreateAdd(counted, answer);
  }

  ValueToValueMapTy map;
  SmallVector<BasicBlock*, 8> blocks;
  cloneLoopWithPreheader(preheader, check, &loop, map, ".unchecked", &loops, &dominators, blocks);
  remapInstructionsInBlocks(blocks, map);
  auto* unchecked_preheader = cast<BasicBlock>(map[preheader]);
  IRBuilder<>(unchecked_preheader->getTerminator()).CreateCall(count, {counted});
  Instruction* old = check->getTerminator();
  BranchInst::Create(unchecked_preheader, preheader, allowed, old);
  old->eraseFromParent();
  // The exit's PHIs (LCSSA) take the copy's values from the copy's blocks.
  for (PHINode& phi : exit->phis())
    for (unsigned k = 0, n = phi.getNumIncomingValues(); k < n; ++k) {
      BasicBlock* from = phi.getIncomingBlock(k);
      if (!loop.contains(from)) continue;
      Value* value = phi.getIncomingValue(k);
      auto mapped = map.find(value);
      phi.addIncoming(mapped != map.end() ? static_cast<Value*>(mapped->second) : value, cast<BasicBlock>(map[from]));
    }

  MDNode* mark = MDNode::get(context, {});
  for (const Read& read : plan.reads) {
    read.load->setMetadata(kCheckedAhead, mark);
    auto* copy = cast<LoadInst>(map[read.load]);
    copy->setMetadata(kCheckedAhead, mark);
    copy->setMetadata("nosanitize", mark);  // the instrumentation and the inline checks leave it alone
  }
}

}  // namespace

bool check_loop_reads_ahead(Module& m, ModuleAnalysisManager& analyses) {
  FunctionAnalysisManager& functions = analyses.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
  const DataLayout& layout = m.getDataLayout();
  bool changed = false;
  for (Function& function : m) {
    if (!takes_inline_checks(function)) continue;
    for (unsigned copies = 0; copies < kMaxLoopsPerFunction; ++copies) {
      LoopInfo& loops = functions.getResult<LoopAnalysis>(function);
      DominatorTree& dominators = functions.getResult<DominatorTreeAnalysis>(function);
      ScalarEvolution& analysis = functions.getResult<ScalarEvolutionAnalysis>(function);
      AssumptionCache& assumptions = functions.getResult<AssumptionAnalysis>(function);
      Plan plan;
      bool found = false, moved = false;
      for (Loop* loop : loops.getLoopsInPreorder())
        if ((found = plan_for(*loop, loops, dominators, analysis, assumptions, layout, plan, moved)) || moved) break;
      if (!found) {
        if (!moved) break;
        functions.invalidate(function, PreservedAnalyses::none());  // then the loops again
        changed = true;
        continue;
      }
      copy_unchecked(plan, loops, dominators, analysis, m);
      functions.invalidate(function, PreservedAnalyses::none());
      changed = true;
    }
  }
  return changed;
}

}  // namespace block_loops

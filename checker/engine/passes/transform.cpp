#include "transform.h"

#include <map>
#include <set>
#include <vector>

#include "cuda_cpu/block_loop_names.h"
#include "eligibility.h"
#include "read_only_regions.h"
#include "rematerialize.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

namespace block_loops {
namespace {

using namespace llvm;

// The instructions whose values are live on entry to each block: the usual backward dataflow
// over SSA, where a PHI's operand is used at the end of the block it comes from.
std::map<BasicBlock*, std::set<Instruction*>> live_in(Function& f) {
  std::map<BasicBlock*, std::set<Instruction*>> in;
  std::vector<BasicBlock*> backwards;  // later blocks first: the dataflow settles sooner
  for (BasicBlock& b : f) backwards.insert(backwards.begin(), &b);
  for (bool changed = true; changed;) {
    changed = false;
    for (BasicBlock* block : backwards) {
      BasicBlock& b = *block;
      std::set<Instruction*> live;
      for (BasicBlock* successor : successors(&b)) {
        const std::set<Instruction*>& later = in[successor];
        live.insert(later.begin(), later.end());
        for (PHINode& phi : successor->phis())
          if (auto* value = dyn_cast<Instruction>(phi.getIncomingValueForBlock(&b))) live.insert(value);
      }
      for (auto i = b.rbegin(); i != b.rend(); ++i) {
        live.erase(&*i);
        if (isa<PHINode>(*i)) continue;
        for (Value* operand : i->operands())
          if (auto* value = dyn_cast<Instruction>(operand)) live.insert(value);
      }
      std::set<Instruction*>& old = in[&b];
      if (live != old) {
        old = std::move(live);
        changed = true;
      }
    }
  }
  return in;
}

GlobalVariable* thread_local_variable(Module& m, StringRef name, Type* type) {
  if (GlobalVariable* existing = m.getNamedGlobal(name)) return existing;
  return new GlobalVariable(m, type, false, GlobalValue::ExternalLinkage, nullptr, name, nullptr,
                            GlobalValue::InitialExecTLSModel);
}

std::uint64_t align_up(std::uint64_t value, std::uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

}  // namespace

LoopShape make_resumable(Function& f) {
  Module& m = *f.getParent();
  LLVMContext& context = m.getContext();
  const DataLayout& layout = m.getDataLayout();
  Type* i32 = Type::getInt32Ty(context);
  Type* bytes = PointerType::getUnqual(Type::getInt8Ty(context));
  // The pass's own loads and stores (the frame's bookkeeping) are not the kernel's: the
  // instrumentation, which runs after this pass, leaves what carries this mark alone.
  MDNode* mark = MDNode::get(context, {});
  auto unchecked = [&](Instruction* i) { i->setMetadata("nosanitize", mark); };

  // 1. Each barrier ends its block; the code after it starts a block the thread resumes at.
  std::vector<CallInst*> barriers;
  for (BasicBlock& b : f)
    for (Instruction& i : b)
      if (auto* call = dyn_cast<CallInst>(&i))
        if (is_barrier(call->getCalledFunction())) barriers.push_back(call);
  std::vector<BasicBlock*> resume_at;
  FunctionCallee result = m.getOrInsertFunction(CUDA_CPU_LOOP_NAME(CUDA_CPU_LOOP_BARRIER_RESULT),
                                                FunctionType::get(i32, {i32}, false));
  for (CallInst* call : barriers) {
    BasicBlock* after = call->getParent()->splitBasicBlock(call->getNextNode(), "after_barrier");
    resume_at.push_back(after);
    if (call->use_empty()) continue;
    IRBuilder<> b(&*after->getFirstInsertionPt());
    b.SetCurrentDebugLocation(call->getDebugLoc());
    Value* reduce = b.CreateZExtOrBitCast(call->getArgOperand(0), i32);
    Value* value = b.CreateCall(result, {reduce});
    call->replaceAllUsesWith(b.CreateSExtOrTrunc(value, call->getType()));
  }

  // 2. What a thread keeps across a barrier moves to memory (then, with the locals, to its frame).
  std::map<BasicBlock*, std::set<Instruction*>> in = live_in(f);
  std::set<Instruction*> crossing;
  for (BasicBlock* after : resume_at)
    for (Instruction* value : in[after])
      if (!isa<AllocaInst>(value)) crossing.insert(value);
  // What stays the same for the thread is computed again where it is used (rematerialize.h).
  crossing = rematerialize_invariants(f, crossing);
  std::vector<Instruction*> ordered;  // in program order, so that the frame's layout is reproducible
  for (BasicBlock& b : f)
    for (Instruction& i : b)
      if (crossing.count(&i)) ordered.push_back(&i);
  std::vector<AllocaInst*> slots;
  // A PHI too is stored where it is defined and loaded before each use (DemotePHIToStack would
  // load it once, where it stands, which a resumed thread may not pass).
  for (Instruction* value : ordered)
    if (AllocaInst* slot = DemoteRegToStack(*value)) slots.push_back(slot);
  for (AllocaInst* slot : slots)
    for (User* user : slot->users())
      if (auto* i = dyn_cast<Instruction>(user)) unchecked(i);

  // 3. A barrier becomes an arrival and a return: the engine resumes the thread after it.
  FunctionCallee arrive;
  for (std::size_t k = 0; k < barriers.size(); ++k) {
    CallInst* call = barriers[k];
    if (!arrive) {
      Type* file = call->getArgOperand(3)->getType();
      arrive = m.getOrInsertFunction(CUDA_CPU_LOOP_NAME(CUDA_CPU_LOOP_ARRIVE),
                                     FunctionType::get(Type::getVoidTy(context), {i32, i32, i32, i32, file}, false));
    }
    IRBuilder<> b(call);
    Value* reduce = b.CreateZExtOrBitCast(call->getArgOperand(0), i32);
    CallInst* arrival = b.CreateCall(arrive, {b.getInt32(static_cast<unsigned>(k + 1)), reduce,
                                              call->getArgOperand(1), call->getArgOperand(2), call->getArgOperand(3)});
    arrival->setDebugLoc(call->getDebugLoc());
    BasicBlock* block = call->getParent();
    call->eraseFromParent();
    Instruction* to_after = block->getTerminator();
    ReturnInst::Create(context, nullptr, to_after);
    to_after->eraseFromParent();
  }

  // 4. Lifetime markers tell the code generator when a local's stack slot is free; in the frame
  // every local keeps its bytes.
  for (BasicBlock& b : f)
    for (auto i = b.begin(); i != b.end();) {
      Instruction& instruction = *i++;
      if (auto* intrinsic = dyn_cast<IntrinsicInst>(&instruction))
        if (intrinsic->getIntrinsicID() == Intrinsic::lifetime_start ||
            intrinsic->getIntrinsicID() == Intrinsic::lifetime_end)
          intrinsic->eraseFromParent();
    }

  // 5. A new entry: the thread's frame holds every local; the switch goes to where it stopped.
  BasicBlock* old_entry = &f.getEntryBlock();
  BasicBlock* entry = BasicBlock::Create(context, "resume", &f, old_entry);
  IRBuilder<> b(entry);
  LoadInst* frame = b.CreateLoad(bytes, thread_local_variable(m, CUDA_CPU_LOOP_NAME(CUDA_CPU_LOOP_FRAME), bytes), "frame");
  unchecked(frame);
  LoadInst* resume = b.CreateLoad(i32, thread_local_variable(m, CUDA_CPU_LOOP_NAME(CUDA_CPU_LOOP_RESUME), i32), "resume");
  unchecked(resume);
  std::vector<AllocaInst*> locals;
  for (Instruction& i : *old_entry)
    if (auto* local = dyn_cast<AllocaInst>(&i)) locals.push_back(local);
  std::uint64_t offset = 0;
  for (AllocaInst* local : locals) {
    std::uint64_t count = cast<ConstantInt>(local->getArraySize())->getZExtValue();
    std::uint64_t size = layout.getTypeAllocSize(local->getAllocatedType()).getKnownMinValue() * count;
    offset = align_up(offset, local->getAlign().value());
    Value* place = b.CreateConstInBoundsGEP1_64(Type::getInt8Ty(context), frame, offset);
    local->replaceAllUsesWith(b.CreatePointerCast(place, local->getType()));
    local->eraseFromParent();
    offset += size;
  }
  SwitchInst* dispatch = b.CreateSwitch(resume, old_entry, static_cast<unsigned>(resume_at.size()));
  for (std::size_t k = 0; k < resume_at.size(); ++k)
    dispatch->addCase(b.getInt32(static_cast<unsigned>(k + 1)), resume_at[k]);

  LoopShape shape;
  shape.frame_bytes = align_up(offset == 0 ? 1 : offset, CUDA_CPU_LOOP_FRAME_ALIGNMENT);
  shape.barriers = static_cast<unsigned>(barriers.size());
  shape.reads_only = regions_that_only_read(resume_at, frame);
  return shape;
}

void quiet_argument_reads(Function& f) {
  if (f.arg_size() != 1) return;
  MDNode* mark = MDNode::get(f.getContext(), {});
  // Addresses the reads may take: the array, and what its entries point to (an argument's
  // bytes), through casts and offsets only.
  auto addresses_from = [](Value* root) {
    std::vector<Value*> found{root};
    for (std::size_t i = 0; i < found.size(); ++i)
      for (User* user : found[i]->users())
        if (isa<GetElementPtrInst>(user) || isa<BitCastInst>(user) || isa<AddrSpaceCastInst>(user))
          found.push_back(user);
    return found;
  };
  auto reads_of = [&](Value* address, std::vector<Instruction*>& reads) {
    for (User* user : address->users()) {
      if (auto* load = dyn_cast<LoadInst>(user)) {
        if (load->getPointerOperand() == address && !load->isVolatile()) reads.push_back(load);
      } else if (auto* copy = dyn_cast<MemTransferInst>(user)) {
        if (copy->getRawSource() == address && copy->getRawDest() != address) reads.push_back(copy);
      }
    }
  };
  std::vector<Instruction*> entries, bytes;
  for (Value* address : addresses_from(f.getArg(0))) reads_of(address, entries);
  for (Instruction* entry : entries) {
    if (!isa<LoadInst>(entry) || !entry->getType()->isPointerTy()) continue;
    for (Value* address : addresses_from(entry)) reads_of(address, bytes);
  }
  for (Instruction* read : entries) read->setMetadata("nosanitize", mark);
  for (Instruction* read : bytes) read->setMetadata("nosanitize", mark);
}

}  // namespace block_loops

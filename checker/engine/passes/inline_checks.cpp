#include "inline_checks.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cpu/fast_path.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/KnownBits.h"
#include "instrumented_loads.h"
#include "read_only_regions.h"
#include "thread_local_address.h"

namespace block_loops {

using namespace llvm;
using engine::cpu::FastPath;

namespace {

using Access = InstrumentedLoad;

// The loads the instrumentation gives its 4-byte callback, which this pass takes over: 4 bytes,
// the only width a settled shared read has. A wider load of a tile (a float4) always takes the
// callback, and the inline tests in front of it made puzzle 7's register-tiled kernel a third
// slower. Other widths keep the instrumentation's callback.
bool taken_over(Instruction& instruction, const DataLayout& layout, Access& access) {
  return fixed_size_instrumented_load(instruction, layout, access) && access.bytes == 4;
}

// Each load gets four blocks: one branch to where it goes (nothing to check, the callback,
// shared or global memory), the test of each kind of memory, and the call; a load of a
// __shared__ variable three (the test of its offset, the shared test, the call), and one more
// in code that only reads (the test of FastPath::settled_span). The code
// generator's time grows with the blocks of a function, and a kernel with unrolled loops has
// hundreds of loads; fewer blocks would run every test for every load.
class Emitter {
 public:
  explicit Emitter(Module& m)
      : m_(m),
        context_(m.getContext()),
        word_(m.getDataLayout().getIntPtrType(m.getContext())),
        quiet_(MDNode::get(m.getContext(), {})),
        mostly_checked_(MDBuilder(m.getContext()).createBranchWeights(1000, 1)) {
    block_ = m.getNamedGlobal(ENGINE_FAST_PATH_SYMBOL);
    if (!block_)
      block_ = new GlobalVariable(m, ArrayType::get(Type::getInt8Ty(context_), sizeof(FastPath)), false, GlobalValue::ExternalLinkage,
                                  nullptr, ENGINE_FAST_PATH_SYMBOL, nullptr, GlobalValue::GeneralDynamicTLSModel);
  }

  // Before `access`: the callback's early returns, then the callback itself where none applies.
  void emit(const Access& access) {
    LoadInst* at = access.load;
    BasicBlock* before = at->getParent();
    // Every split gets the same name (LLVM numbers them): named after the block it splits, a
    // block split at each of its loads would carry one suffix per load, and the text form of a
    // kernel with an unrolled loop had names past the length LLVM reads back.
    BasicBlock* done = before->splitBasicBlock(at, "checked");
    before->getTerminator()->eraseFromParent();
    BasicBlock* slow = BasicBlock::Create(context_, "check.call", before->getParent(), done);
    BasicBlock* shared = block("check.shared", done);

    IRBuilder<> b(before);
    b.SetCurrentDebugLocation(at->getDebugLoc());
    Value* address = b.CreatePtrToInt(access.address, word_);
    Value* shared_offset = b.CreateSub(address, field(b, offsetof(FastPath, shared_lo), word_));
    Value* in_shared = b.CreateICmpULT(shared_offset, field(b, offsetof(FastPath, shared_span), word_));
    Value* aligned = aligned_word(b, access.address, shared_offset);
    BasicBlock* outside_shared = nullptr;
    if (in_thread_local_variable(access.address)) {
      if (at->hasMetadata(kInCodeThatOnlyReads)) {
        // In code that only reads, an epoch whose every shared word was settled as it began
        // (FastPath::settled_span is then the shared memory's span, else 0) lets any aligned
        // read inside shared memory stop without looking up its word: the lookup's answer
        // would be the same. Otherwise the usual route, below.
        BasicBlock* route = block("check.route", done);
        Value* all_settled = b.CreateICmpULT(shared_offset, field(b, offsetof(FastPath, settled_span), word_));
        b.CreateCondBr(aligned ? b.CreateAnd(all_settled, aligned) : all_settled, done, route, mostly_checked_);
        b.SetInsertPoint(route);
      }
      // A __shared__ variable's element (a thread-local variable here): straight to the shared
      // test, which stops only where the callback would return at once, and only while a CUDA
      // thread runs with the inline checks on (settled_for_all and _for_warp say so). Anything
      // else, an index past the shared memory included, calls the callback.
      b.CreateCondBr(in_shared, shared, slow, mostly_checked_);
    } else {
      // Not a CUDA thread's code (host code, the engine): nothing to check.
      Value* me = field(b, offsetof(FastPath, me), b.getInt16Ty());
      Value* running = b.CreateICmpNE(me, b.getInt16(0));
      // Logged for the memory profile, every access the full way, or the inline checks turned
      // off: the callback. full_checks_only and callbacks_only are read at once.
      static_assert(offsetof(FastPath, callbacks_only) == offsetof(FastPath, full_checks_only) + 1, "adjacent bytes");
      Value* callback_only = b.CreateOr(b.CreateIsNotNull(field(b, offsetof(FastPath, profile), word_)),
                                        b.CreateIsNotNull(field(b, offsetof(FastPath, full_checks_only), b.getInt16Ty())));
      // One branch to where the access goes: nothing, the callback, shared or global memory.
      enum Route : std::uint64_t { kNothing, kCallback, kShared, kOutsideShared };
      Value* route = b.CreateSelect(
          running,
          b.CreateSelect(callback_only, constant(kCallback),
                         b.CreateSelect(in_shared, constant(kShared), constant(kOutsideShared))),
          constant(kNothing));
      outside_shared = block("check.global", done);
      SwitchInst* to = b.CreateSwitch(route, slow, 3);
      to->addCase(constant(kNothing), done);
      to->addCase(constant(kShared), shared);
      to->addCase(constant(kOutsideShared), outside_shared);
    }

    // Shared memory: an aligned 4-byte read of a word settled for every reader in this barrier
    // interval, or for this thread's warp at its __syncwarp() count. Words past the dynamic
    // shared memory the launch asked for are never settled (the callback sends their reads to
    // the full check before it could settle them), so they need no test here.
    b.SetInsertPoint(shared);
    Value* words = pointer_field(b, offsetof(FastPath, settled), b.getInt64Ty());
    Value* settled =
        quiet(b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), words, b.CreateLShr(shared_offset, constant(2)))));
    Value* settled_now =
        b.CreateOr(b.CreateICmpEQ(settled, field(b, offsetof(FastPath, settled_for_all), b.getInt64Ty())),
                   b.CreateICmpEQ(settled, field(b, offsetof(FastPath, settled_for_warp), b.getInt64Ty())));
    b.CreateCondBr(aligned ? b.CreateAnd(aligned, settled_now) : settled_now, done, slow, mostly_checked_);
    if (!outside_shared) {
      finish(b, access, address, slow, done);
      return;
    }

    // Not shared: inside the device arena the load must fall inside its slot's buffer, and then
    // counts itself for the running thread, as the callback counts it; outside the arena it is
    // the thread's stack or the program's data.
    b.SetInsertPoint(outside_shared);
    Value* arena_offset = b.CreateSub(address, field(b, offsetof(FastPath, arena_base), word_));
    Value* in_arena = b.CreateICmpULT(arena_offset, field(b, offsetof(FastPath, arena_span), word_));
    // The slot of an address outside the arena is not to be looked up: slot 0 stands in.
    Value* slot = b.CreateSelect(in_arena, b.CreateLShr(arena_offset, constant(engine::cpu::kArenaSlotBits)), constant(0));
    Value* begin = quiet(b.CreateLoad(word_, element(b, offsetof(FastPath, buffer_begin), slot)));
    Value* end = quiet(b.CreateLoad(word_, element(b, offsetof(FastPath, buffer_end), slot)));
    Value* inside = b.CreateAnd(b.CreateICmpUGE(address, begin),
                                b.CreateICmpULE(b.CreateAdd(address, constant(access.bytes)), end));
    Value* counted = b.CreateAnd(in_arena, inside);
    Value* counter = pointer_field(b, offsetof(FastPath, loads), b.getInt64Ty());
    Value* count = quiet(b.CreateLoad(b.getInt64Ty(), counter));
    quiet(b.CreateStore(b.CreateAdd(count, b.CreateZExt(counted, b.getInt64Ty())), counter));
    b.CreateCondBr(b.CreateOr(b.CreateNot(in_arena), inside), done, slow, mostly_checked_);
    finish(b, access, address, slow, done);
  }

 private:
  void finish(IRBuilder<>& b, const Access& access, Value* address, BasicBlock* slow, BasicBlock* done) {
    LoadInst* at = access.load;
    // The callback the instrumentation would have called, at the access's line (its return
    // address names the line in a finding). Never merged with another access's call (the code
    // generator's tail merging would leave one call, at no one line, for several accesses).
    b.SetInsertPoint(slow);
    std::string name = "__asan_load" + std::to_string(access.bytes);
    FunctionCallee callback = m_.getOrInsertFunction(name, b.getVoidTy(), word_);
    b.CreateCall(callback, {address})->addFnAttr(Attribute::NoMerge);
    b.CreateBr(done);

    // The instrumentation that follows leaves the access alone: it is checked.
    at->setMetadata("nosanitize", quiet_);
  }

  // Whether the read's shared offset is a multiple of 4, as an i1; null where the compiler
  // knows it is (an element of a float array in a __shared__ variable: the shared memory's base
  // is aligned to 4, and so is the address), and the test would only cost time.
  Value* aligned_word(IRBuilder<>& b, Value* address, Value* shared_offset) {
    if (computeKnownBits(address, m_.getDataLayout()).countMinTrailingZeros() >= 2) return nullptr;
    return b.CreateICmpEQ(b.CreateAnd(shared_offset, constant(3)), constant(0));
  }

  // Whether `address` points into a thread-local variable: on the CPU backend every __shared__
  // variable is one (kernel_shim.h), and kernel code has no others but the engine's built-in
  // variables, whose reads are not checked. A guess that only picks the first test: a wrong one
  // costs a call, never a check.
  static bool in_thread_local_variable(Value* address) {
    Value* object = getUnderlyingObject(address);
    if (takes_thread_local_address(object)) object = getUnderlyingObject(cast<CallInst>(object)->getArgOperand(0));
    auto* variable = dyn_cast<GlobalVariable>(object);
    return variable && variable->isThreadLocal();
  }

  ConstantInt* constant(std::uint64_t value) { return ConstantInt::get(word_, value); }
  PointerType* bytes_pointer() { return PointerType::getUnqual(Type::getInt8Ty(context_)); }

  template <class I>
  I* quiet(I* instruction) {
    instruction->setMetadata("nosanitize", quiet_);
    return instruction;
  }

  // A field of the running OS thread's FastPath block, read as `type`.
  Value* field(IRBuilder<>& b, std::size_t offset, Type* type) {
    Value* bytes = b.CreateBitCast(block_, bytes_pointer());
    Value* at = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), bytes, offset);
    return quiet(b.CreateLoad(type, b.CreateBitCast(at, PointerType::getUnqual(type))));
  }

  // A pointer field of the block, as a pointer to `element`.
  Value* pointer_field(IRBuilder<>& b, std::size_t offset, Type* element) {
    return b.CreateBitCast(field(b, offset, bytes_pointer()), PointerType::getUnqual(element));
  }

  // Element `index` of the word array a pointer field points to.
  Value* element(IRBuilder<>& b, std::size_t offset, Value* index) {
    return b.CreateGEP(word_, pointer_field(b, offset, word_), index);
  }

  BasicBlock* block(const char* name, BasicBlock* before) {
    return BasicBlock::Create(context_, name, before->getParent(), before);
  }

  Module& m_;
  LLVMContext& context_;
  IntegerType* word_;
  MDNode* quiet_;
  MDNode* mostly_checked_;
  GlobalVariable* block_ = nullptr;
};

}  // namespace

bool takes_inline_checks(const Function& function) {
  // The functions the instrumentation instruments (its own rules).
  if (function.isDeclaration() || function.hasAvailableExternallyLinkage()) return false;
  if (!function.hasFnAttribute(Attribute::SanitizeAddress)) return false;
  if (function.hasFnAttribute(Attribute::DisableSanitizerInstrumentation)) return false;
  // Run on fibers only where loops are turned off: the callbacks are enough.
  if (function.hasFnAttribute(kRunsAsLoops)) return false;
  return function.getName().substr(0, 7) != "__asan_";
}

bool inline_access_checks(Module& m) {
  const DataLayout& layout = m.getDataLayout();
  std::vector<Access> accesses;
  for (Function& function : m) {
    if (!takes_inline_checks(function)) continue;
    for (BasicBlock& block : function)
      for (Instruction& instruction : block) {
        Access access;
        if (taken_over(instruction, layout, access)) accesses.push_back(access);
      }
  }
  if (accesses.empty()) return false;
  Emitter emitter(m);
  for (const Access& access : accesses) emitter.emit(access);
  return true;
}

}  // namespace block_loops

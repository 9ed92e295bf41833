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

namespace block_loops {

using namespace llvm;
using engine::cpu::FastPath;

namespace {

// The instrumentation's shadow granularity: a fixed-size callback is used for an access of 1,
// 2, 4, 8 or 16 bytes aligned to this or to its own size (AddressSanitizer's rule; any other
// access calls its sized callback, which this pass leaves to it).
constexpr std::uint64_t kShadowGranularity = 8;

struct Access {
  Instruction* instruction;
  Value* address;
  std::uint64_t bytes;
  bool write;
};

// The accesses the instrumentation would give a fixed-size callback, and that this pass takes
// over: plain (not atomic, not volatile) loads and stores in the default address space, not of
// a stack slot (the instrumentation decides those by its own rules: left to it), at a line.
bool taken_over(Instruction& instruction, const DataLayout& layout, Access& access) {
  if (instruction.hasMetadata("nosanitize")) return false;
  // An access the optimizer moved or merged keeps no line (0): the engine names the nearest
  // line of the code around its callback's call (source_lines.cpp), which must stay beside it.
  const DebugLoc& where = instruction.getDebugLoc();
  if (!where || where.getLine() == 0) return false;
  Type* type = nullptr;
  Align align;
  if (auto* load = dyn_cast<LoadInst>(&instruction)) {
    if (!load->isSimple()) return false;
    type = load->getType(), align = load->getAlign();
    access = {load, load->getPointerOperand(), 0, false};
  } else if (auto* store = dyn_cast<StoreInst>(&instruction)) {
    if (!store->isSimple()) return false;
    type = store->getValueOperand()->getType(), align = store->getAlign();
    access = {store, store->getPointerOperand(), 0, true};
  } else {
    return false;
  }
  if (access.address->getType()->getPointerAddressSpace() != 0 || access.address->isSwiftError()) return false;
  if (isa<AllocaInst>(getUnderlyingObject(access.address))) return false;
  TypeSize size = layout.getTypeStoreSize(type);
  if (size.isScalable()) return false;
  access.bytes = size.getKnownMinValue();
  if (access.bytes != 1 && access.bytes != 2 && access.bytes != 4 && access.bytes != 8 && access.bytes != 16) return false;
  return align.value() >= kShadowGranularity || align.value() >= access.bytes;
}

class Emitter {
 public:
  explicit Emitter(Module& m)
      : m_(m),
        context_(m.getContext()),
        word_(m.getDataLayout().getIntPtrType(m.getContext())),
        quiet_(MDNode::get(m.getContext(), {})),
        unlikely_(MDBuilder(m.getContext()).createBranchWeights(1, 1000)) {
    block_ = m.getNamedGlobal(ENGINE_FAST_PATH_SYMBOL);
    if (!block_)
      block_ = new GlobalVariable(m, ArrayType::get(Type::getInt8Ty(context_), sizeof(FastPath)), false,
                                  GlobalValue::ExternalLinkage, nullptr, ENGINE_FAST_PATH_SYMBOL, nullptr,
                                  GlobalValue::GeneralDynamicTLSModel);
  }

  // Before `access`: the callback's early returns inline, then the callback itself.
  void emit(const Access& access) {
    Instruction* at = access.instruction;
    BasicBlock* before = at->getParent();
    BasicBlock* done = before->splitBasicBlock(at, before->getName() + ".checked");
    before->getTerminator()->eraseFromParent();
    Function* function = before->getParent();
    auto block = [&](const char* name) { return BasicBlock::Create(context_, name, function, done); };
    BasicBlock* kernel_code = block("check.kernel");
    BasicBlock* shared = block("check.shared");
    BasicBlock* outside_shared = block("check.global");
    BasicBlock* in_arena = block("check.arena");
    BasicBlock* slow = block("check.call");

    IRBuilder<> b(before);
    b.SetCurrentDebugLocation(at->getDebugLoc());
    Value* address = b.CreatePtrToInt(access.address, word_);
    // Not a CUDA thread's code (host code, the engine): nothing to check.
    Value* me = field(b, offsetof(FastPath, me), b.getInt16Ty());
    b.CreateCondBr(b.CreateICmpEQ(me, b.getInt16(0)), done, kernel_code);

    // Logged for the memory profile, every access the full way, or the inline checks turned
    // off: the callback.
    b.SetInsertPoint(kernel_code);
    Value* profiled = b.CreateIsNotNull(field(b, offsetof(FastPath, profile), word_));
    // full_checks_only and callbacks_only, read at once.
    static_assert(offsetof(FastPath, callbacks_only) == offsetof(FastPath, full_checks_only) + 1, "adjacent bytes");
    Value* full_only = b.CreateIsNotNull(field(b, offsetof(FastPath, full_checks_only), b.getInt16Ty()));
    Value* shared_offset = b.CreateSub(address, field(b, offsetof(FastPath, shared_lo), word_));
    Value* in_shared = b.CreateICmpULT(shared_offset, field(b, offsetof(FastPath, shared_span), word_));
    BasicBlock* routed = block("check.route");
    b.CreateCondBr(b.CreateOr(profiled, full_only), slow, routed, unlikely_);
    b.SetInsertPoint(routed);
    b.CreateCondBr(in_shared, shared, outside_shared);

    // Shared memory: a 4-byte read of a word settled for every reader in this interval, inside
    // what the launch asked for. Everything else is the callback's.
    b.SetInsertPoint(shared);
    if (!access.write && access.bytes == 4) {
      Value* tail = b.CreateSub(b.CreateAdd(address, constant(3)), field(b, offsetof(FastPath, dynamic_tail_lo), word_));
      Value* in_tail = b.CreateICmpULT(tail, field(b, offsetof(FastPath, dynamic_tail_span), word_));
      Value* misaligned = b.CreateICmpNE(b.CreateAnd(address, constant(3)), constant(0));
      BasicBlock* settled_test = block("check.settled");
      b.CreateCondBr(b.CreateOr(in_tail, misaligned), slow, settled_test, unlikely_);
      b.SetInsertPoint(settled_test);
      Value* words = field(b, offsetof(FastPath, settled), bytes_pointer());
      Value* entry = b.CreateInBoundsGEP(b.getInt64Ty(), b.CreateBitCast(words, PointerType::getUnqual(b.getInt64Ty())),
                                         b.CreateLShr(shared_offset, constant(2)));
      Value* settled = quiet(b.CreateLoad(b.getInt64Ty(), entry));
      Value* epoch = b.CreateZExt(field(b, offsetof(FastPath, epoch), b.getInt32Ty()), b.getInt64Ty());
      Value* any_reader = b.CreateOr(b.CreateShl(epoch, 32), b.getInt64(engine::cpu::kAnyReader));
      BasicBlock* warp_test = block("check.settled_for_warp");
      b.CreateCondBr(b.CreateICmpEQ(settled, any_reader), done, warp_test);
      // Or settled for this thread's warp while its __syncwarp() count stays.
      b.SetInsertPoint(warp_test);
      Value* warp = b.CreateUDiv(b.CreateSub(b.CreateZExt(me, b.getInt32Ty()), b.getInt32(1)),
                                 b.getInt32(engine::cpu::kWarpSize));
      Value* syncs = b.CreateBitCast(field(b, offsetof(FastPath, warp_syncs), bytes_pointer()),
                                     PointerType::getUnqual(b.getInt32Ty()));
      Value* sync = b.CreateAnd(quiet(b.CreateLoad(b.getInt32Ty(), syncs)), b.getInt32(0xFFFF));
      Value* warp_readers = b.CreateZExt(b.CreateOr(b.CreateShl(warp, 16), sync), b.getInt64Ty());
      b.CreateCondBr(b.CreateICmpEQ(settled, b.CreateOr(b.CreateShl(epoch, 32), warp_readers)), done, slow);
    } else {
      b.CreateBr(slow);
    }

    // Not shared: inside the device arena, the access must fall inside its slot's buffer (and an
    // 8- or 16-byte one be aligned); outside it, it is the thread's stack or the program's data.
    b.SetInsertPoint(outside_shared);
    Value* arena_offset = b.CreateSub(address, field(b, offsetof(FastPath, arena_base), word_));
    Value* in_arena_test = b.CreateICmpULT(arena_offset, field(b, offsetof(FastPath, arena_span), word_));
    b.CreateCondBr(in_arena_test, in_arena, done);

    b.SetInsertPoint(in_arena);
    Value* slot = b.CreateLShr(arena_offset, constant(engine::cpu::kArenaSlotBits));
    Value* begin = element(b, offsetof(FastPath, buffer_begin), slot);
    Value* end = element(b, offsetof(FastPath, buffer_end), slot);
    Value* inside = b.CreateAnd(b.CreateICmpUGE(address, begin),
                                b.CreateICmpULE(b.CreateAdd(address, constant(access.bytes)), end));
    if (access.bytes >= 8)
      inside = b.CreateAnd(inside, b.CreateICmpEQ(b.CreateAnd(address, constant(access.bytes - 1)), constant(0)));
    BasicBlock* counted = block("check.count");
    b.CreateCondBr(inside, access.write ? done : counted, slow);
    b.SetInsertPoint(counted);
    Value* counter = b.CreateBitCast(field(b, offsetof(FastPath, loads), bytes_pointer()),
                                     PointerType::getUnqual(b.getInt64Ty()));
    quiet(b.CreateStore(b.CreateAdd(quiet(b.CreateLoad(b.getInt64Ty(), counter)), b.getInt64(1)), counter));
    b.CreateBr(done);

    // The callback the instrumentation would have called, at the access's line (its return
    // address names the line in a finding).
    b.SetInsertPoint(slow);
    std::string name = std::string("__asan_") + (access.write ? "store" : "load") + std::to_string(access.bytes);
    FunctionCallee callback = m_.getOrInsertFunction(name, b.getVoidTy(), word_);
    // Never merged with another access's call (the code generator's tail merging would leave
    // one call, at no one line, for several accesses).
    b.CreateCall(callback, {address})->addFnAttr(Attribute::NoMerge);
    b.CreateBr(done);

    // The instrumentation that follows leaves the access alone: it is checked.
    at->setMetadata("nosanitize", quiet_);
  }

 private:
  Constant* constant(std::uint64_t value) { return ConstantInt::get(word_, value); }
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

  // Element `index` of the word array a field points to.
  Value* element(IRBuilder<>& b, std::size_t offset, Value* index) {
    Value* array = b.CreateBitCast(field(b, offset, bytes_pointer()), PointerType::getUnqual(word_));
    return quiet(b.CreateLoad(word_, b.CreateInBoundsGEP(word_, array, index)));
  }

  Module& m_;
  LLVMContext& context_;
  IntegerType* word_;
  MDNode* quiet_;
  MDNode* unlikely_;
  GlobalVariable* block_ = nullptr;
};

}  // namespace

bool inline_access_checks(Module& m) {
  const DataLayout& layout = m.getDataLayout();
  std::vector<Access> accesses;
  for (Function& function : m) {
    // The functions the instrumentation instruments (its own rules).
    if (function.isDeclaration() || function.hasAvailableExternallyLinkage()) continue;
    if (!function.hasFnAttribute(Attribute::SanitizeAddress)) continue;
    if (function.hasFnAttribute(Attribute::DisableSanitizerInstrumentation)) continue;
    if (function.getName().substr(0, 7) == "__asan_") continue;
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

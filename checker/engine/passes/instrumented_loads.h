// Which loads AddressSanitizer's instrumentation, which runs after this plugin's passes, gives
// a fixed-size callback (__asan_load1 ... __asan_load16): the accesses whose common cases the
// engine settles without a full check (asan_callbacks.cpp), so the only ones that the inline
// checks (inline_checks.h) and the checks made ahead of a loop (reads_ahead.h) take over.
#pragma once

#include <cstdint>

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Instructions.h"

namespace block_loops {

// The instrumentation's shadow granularity: a fixed-size callback is used for an access of 1,
// 2, 4, 8 or 16 bytes aligned to this or to its own size (AddressSanitizer's rule; any other
// access calls its sized callback).
inline constexpr std::uint64_t kShadowGranularity = 8;

struct InstrumentedLoad {
  llvm::LoadInst* load = nullptr;
  llvm::Value* address = nullptr;
  std::uint64_t bytes = 0;
};

// Plain (not atomic, not volatile) loads in the default address space, not of a stack slot
// (the instrumentation decides those by its own rules: left to it), at a line, that the
// instrumentation will give a fixed-size callback.
inline bool fixed_size_instrumented_load(llvm::Instruction& instruction, const llvm::DataLayout& layout,
                                         InstrumentedLoad& access) {
  using namespace llvm;
  if (instruction.hasMetadata("nosanitize")) return false;
  // An access the optimizer moved or merged keeps no line (0): the engine names the nearest
  // line of the code around its callback's call (source_lines.cpp), which must stay beside it.
  const DebugLoc& where = instruction.getDebugLoc();
  if (!where || where.getLine() == 0) return false;
  auto* load = dyn_cast<LoadInst>(&instruction);
  if (!load || !load->isSimple()) return false;
  access = {load, load->getPointerOperand(), 0};
  if (access.address->getType()->getPointerAddressSpace() != 0 || access.address->isSwiftError()) return false;
  if (isa<AllocaInst>(getUnderlyingObject(access.address))) return false;
  TypeSize size = layout.getTypeStoreSize(load->getType());
  if (size.isScalable()) return false;
  access.bytes = size.getKnownMinValue();
  if (access.bytes != 1 && access.bytes != 2 && access.bytes != 4 && access.bytes != 8 && access.bytes != 16)
    return false;
  return load->getAlign().value() >= kShadowGranularity || load->getAlign().value() >= access.bytes;
}

}  // namespace block_loops

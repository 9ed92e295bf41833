#include "rematerialize.h"

#include <map>
#include <vector>

#include "builtin_variables.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"
#include "thread_local_address.h"

namespace block_loops {
namespace {

using namespace llvm;

// Recomputing more than this many instructions at each use would cost more than the frame's load.
constexpr unsigned kMostInstructions = 12;

// Instructions that compute the same value from the same operands wherever they stand, cannot
// trap where the original did not, and are cheap: address arithmetic and integer arithmetic
// without a division by an unknown value. (No freeze: two copies of one may differ.)
bool pure_and_cheap(const Instruction& i) {
  if (isa<GetElementPtrInst>(i) || isa<CastInst>(i) || isa<ICmpInst>(i) || isa<SelectInst>(i)) return true;
  if (const auto* op = dyn_cast<BinaryOperator>(&i)) {
    if (op->getType()->isFPOrFPVectorTy()) return false;
    switch (op->getOpcode()) {
      case Instruction::UDiv: case Instruction::SDiv: case Instruction::URem: case Instruction::SRem: {
        const auto* divisor = dyn_cast<ConstantInt>(op->getOperand(1));
        return divisor && !divisor->isZero();
      }
      default: return true;
    }
  }
  return false;
}

class Invariants {
 public:
  explicit Invariants(Function& loops) : arguments_(loops.arg_size() == 1 ? loops.getArg(0) : nullptr) {}

  // Whether `value` is the same for a thread wherever it is computed, and recomputing it takes at
  // most kMostInstructions instructions.
  bool recomputable(Value* value) {
    std::vector<Instruction*> tree;
    return collect(value, tree) && tree.size() <= kMostInstructions;
  }

  // A copy of `value`'s computation before `at`, at `at`'s line.
  Value* copy_before(Value* value, Instruction* at, std::map<Value*, Value*>& copies) {
    auto* original = dyn_cast<Instruction>(value);
    if (!original) return value;
    auto found = copies.find(original);
    if (found != copies.end()) return found->second;
    Instruction* copy = original->clone();
    for (Use& operand : copy->operands()) operand.set(copy_before(operand.get(), at, copies));
    copy->insertBefore(at);
    // Computed for the use, at its line: a fault there (a division) is named where the fiber
    // model names it, and the use's neighbours keep the nearest line they had.
    copy->setDebugLoc(at->getDebugLoc());
    copy->setName(original->getName() + ".again");
    copies[original] = copy;
    return copy;
  }

 private:
  bool collect(Value* value, std::vector<Instruction*>& tree) {
    if (isa<Constant>(value) || value == arguments_) return true;
    auto* i = dyn_cast<Instruction>(value);
    if (!i) return false;
    for (Instruction* seen : tree)
      if (seen == i) return true;
    if (tree.size() > kMostInstructions) return false;
    auto* load = dyn_cast<LoadInst>(i);
    if (load ? !reads_builtin_variable(*load) && !reads_arguments(*load) : !pure_and_cheap(*i) && !takes_thread_local_address(i))
      return false;
    tree.push_back(i);
    for (Value* operand : i->operands())
      if (!collect(operand, tree)) return false;
    return true;
  }

  // A read of the invoker's argument array, or of an argument's bytes that an entry of it points
  // to: the engine's memory, which no kernel code can reach, the same for every thread of a launch.
  bool reads_arguments(LoadInst& load) {
    if (!arguments_ || load.isVolatile() || !load.isUnordered()) return false;
    const Value* address = load.getPointerOperand()->stripInBoundsOffsets();
    if (address == arguments_) return true;
    const auto* entry = dyn_cast<LoadInst>(address);
    return entry && !entry->isVolatile() && entry->getPointerOperand()->stripInBoundsOffsets() == arguments_;
  }

  Value* arguments_;
};

}  // namespace

std::set<Instruction*> rematerialize_invariants(Function& loops, const std::set<Instruction*>& crossing) {
  Invariants invariants(loops);
  std::set<Instruction*> kept;
  std::vector<Instruction*> recomputed;  // in program order: the copies' order is reproducible
  for (BasicBlock& block : loops)
    for (Instruction& value : block) {
      if (!crossing.count(&value)) continue;
      if (isa<PHINode>(value) || !invariants.recomputable(&value))
        kept.insert(&value);
      else
        recomputed.push_back(&value);
    }
  for (Instruction* value : recomputed) {
    std::vector<Use*> uses;
    for (Use& use : value->uses()) uses.push_back(&use);
    for (Use* use : uses) {
      auto* user = cast<Instruction>(use->getUser());
      // A PHI's operand is used at the end of the block it comes from.
      Instruction* at = user;
      if (auto* phi = dyn_cast<PHINode>(user)) at = phi->getIncomingBlock(*use)->getTerminator();
      std::map<Value*, Value*> copies;
      use->set(invariants.copy_before(value, at, copies));
    }
  }
  SmallVector<WeakTrackingVH, 16> dead(recomputed.begin(), recomputed.end());
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(dead);
  return kept;
}

}  // namespace block_loops

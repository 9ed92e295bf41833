// The block-loop pass: a plugin for the clang that compiles kernels for the CPU backend
// (clang -fpass-plugin=..., KernelTargets.cmake). For each kernel invoker that the engine's
// headers mark (engine/kernel_image.h; for whole programs, runtime_api.h and dispatch.h) and
// that qualifies (eligibility.h), it adds a second invoker that runs one CUDA thread from
// barrier to barrier (transform.h), and registers the pair at program start (block_loop_abi.h). The first stays as it was: the engine runs a kernel
// on fibers when it has no loop invoker, or when told to (CUDA_CPU_EXECUTION_MODEL=fibers),
// and the two give the same findings by construction, which tests compare.
//
// It runs at the end of the optimisation pipeline, before AddressSanitizer's instrumentation:
// the kernel's own loads and stores are instrumented as in the fiber build; the pass's frame
// bookkeeping carries "nosanitize" and is not.
//
// In every module it also leaves the reads of CUDA's built-in variables uninstrumented
// (builtin_variables.h): they are the engine's, never device memory. And after the loop
// invokers are made, it puts the common cases of the access checks inline in front of the
// kernels' plain loads and stores (inline_checks.h), which the instrumentation then leaves alone.
// Last, the instrumented functions drop their local variables' locations, which only a debugger
// reads (variable_locations.h).
//
// First of all, it puts the engine's step in front of volatile accesses of memory, where the
// lanes of a warp keep in step as code written for lockstep warps expects (volatile_steps.h).
//
// CUDA_CPU_LOOP_REPORT=1 in the compiler's environment prints each kernel's model and, for
// those that stay on fibers, why.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "builtin_variables.h"
#include "cuda_cpu/block_loop_names.h"
#include "dispatch.h"
#include "eligibility.h"
#include "inline_checks.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "reads_ahead.h"
#include "transform.h"
#include "variable_locations.h"
#include "volatile_steps.h"

namespace block_loops {
namespace {

using namespace llvm;

// Functions carrying __attribute__((annotate(annotation))).
std::vector<Function*> marked_invokers(Module& m, StringRef annotation) {
  std::vector<Function*> found;
  GlobalVariable* annotations = m.getNamedGlobal("llvm.global.annotations");
  if (!annotations || !annotations->hasInitializer()) return found;
  auto* entries = dyn_cast<ConstantArray>(annotations->getInitializer());
  if (!entries) return found;
  for (Value* entry : entries->operands()) {
    auto* fields = dyn_cast<ConstantStruct>(entry);
    if (!fields || fields->getNumOperands() < 2) continue;
    auto* function = dyn_cast<Function>(fields->getOperand(0)->stripPointerCasts());
    auto* text = dyn_cast<GlobalVariable>(fields->getOperand(1)->stripPointerCasts());
    if (!function || function->isDeclaration() || !text || !text->hasInitializer()) continue;
    auto* chars = dyn_cast<ConstantDataArray>(text->getInitializer());
    if (chars && chars->isCString() && chars->getAsCString() == annotation) found.push_back(function);
  }
  return found;
}

struct Made {
  Function* fibers;
  Function* kernel;  // where `fibers` calls whichever kernel a launch names; else null
  Function* loops;
  LoopShape shape;
};

void register_at_start(Module& m, const std::vector<Made>& made) {
  LLVMContext& context = m.getContext();
  auto* bytes = PointerType::getUnqual(Type::getInt8Ty(context));
  Type* size = m.getDataLayout().getIntPtrType(context);
  FunctionCallee enrol = m.getOrInsertFunction(
      CUDA_CPU_LOOP_NAME(CUDA_CPU_LOOP_REGISTER),
      FunctionType::get(Type::getVoidTy(context), {bytes, bytes, bytes, size, Type::getInt32Ty(context), bytes},
                        false));
  Function* at_start = Function::Create(FunctionType::get(Type::getVoidTy(context), false), GlobalValue::InternalLinkage,
                                        "cuda_cpu.block_loop_registration", m);
  IRBuilder<> b(BasicBlock::Create(context, "", at_start));
  for (const Made& pair : made) {
    Value* kernel = pair.kernel ? b.CreatePointerCast(pair.kernel, bytes) : ConstantPointerNull::get(bytes);
    // Indexed by the site a thread resumes at (0: the kernel's start, which is no barrier's).
    std::vector<std::uint8_t> reads_only{0};
    for (bool only_reads : pair.shape.reads_only) reads_only.push_back(only_reads ? 1 : 0);
    Constant* flags = ConstantDataArray::get(context, reads_only);
    auto* table = new GlobalVariable(m, flags->getType(), true, GlobalValue::PrivateLinkage, flags,
                                     "cuda_cpu.block_loop_reads_only");
    b.CreateCall(enrol, {b.CreatePointerCast(pair.fibers, bytes), kernel, b.CreatePointerCast(pair.loops, bytes),
                         ConstantInt::get(size, pair.shape.frame_bytes), b.getInt32(pair.shape.barriers),
                         b.CreatePointerCast(table, bytes)});
  }
  b.CreateRetVoid();
  appendToGlobalCtors(m, at_start, 65535);
}

// Turns `loops`, a copy of an invoker, into a loop invoker; or, where the kernel does not
// qualify, erases it and returns false. `what` names the kernel in the report.
bool make_loop_invoker(Function& loops, const std::string& what, bool report, LoopShape& shape) {
  std::string why = inline_barriers(loops);
  if (why.empty()) why = why_not_loops(loops);
  if (!why.empty()) {
    if (report) errs() << "block loops: " << what << ": fibers (" << why << ")\n";
    loops.eraseFromParent();
    return false;
  }
  quiet_argument_reads(loops);
  shape = make_resumable(loops);
  std::string problems;
  raw_string_ostream out(problems);
  if (verifyFunction(loops, &out)) {
    // A bug of this pass: the kernel still runs, on fibers, and the build says so.
    errs() << "warning: block loops: " << what << " stays on fibers (internal error: " << out.str() << ")\n";
    loops.eraseFromParent();
    return false;
  }
  if (report) {
    errs() << "block loops: " << what << ": loops (" << shape.barriers << " barriers, " << shape.frame_bytes
           << "-byte frame)\n";
    std::string after;
    for (std::size_t k = 0; k < shape.reads_only.size(); ++k)
      if (shape.reads_only[k]) after += (after.empty() ? " " : ", ") + std::to_string(k + 1);
    if (!after.empty()) errs() << "block loops: " << what << ": only reads after barrier" << after << "\n";
  }
  return true;
}

Function* copy_of(Function& invoker, const Twine& name, ValueToValueMapTy& map) {
  Function* copy = CloneFunction(&invoker, map);
  copy->setName(name);
  copy->setLinkage(GlobalValue::InternalLinkage);
  copy->setComdat(nullptr);
  return copy;
}

// Before the optimisation pipeline, the kernels a marked invoker calls: the functions it passes
// on (engine::invoke_with_args<Fn>).
std::vector<Function*> kernels_passed_on(Function& invoker) {
  std::vector<Function*> kernels;
  for (BasicBlock& block : invoker)
    for (Instruction& instruction : block)
      if (auto* call = dyn_cast<CallBase>(&instruction))
        for (Value* argument : call->args())
          if (auto* kernel = dyn_cast<Function>(argument->stripPointerCasts()))
            if (!kernel->isDeclaration()) kernels.push_back(kernel);
  return kernels;
}

// After the optimisation pipeline: the kernels a marked invoker calls, which KeepKernelsApart
// kept out of it (below).
std::vector<Function*> kernels_called_by(Function& invoker) {
  std::vector<Function*> kernels;
  for (BasicBlock& block : invoker)
    for (Instruction& instruction : block)
      if (auto* call = dyn_cast<CallBase>(&instruction))
        if (Function* callee = call->getCalledFunction())
          if (!callee->isDeclaration() && callee->hasFnAttribute(Attribute::NoInline)) kernels.push_back(callee);
  return kernels;
}

// Marks `kernel` as running only where loops are turned off (kRunsAsLoops: it keeps the callbacks
// alone) where the loop invoker `loops` inlined it. A kernel with no barrier is not inlined (the
// loop invoker runs each thread through a call to it): it runs as loops too, and its accesses
// take the inline checks.
void mark_if_inlined(Function& kernel, Function& loops) {
  for (BasicBlock& block : loops)
    for (Instruction& instruction : block)
      if (auto* call = dyn_cast<CallBase>(&instruction))
        if (call->getCalledFunction() == &kernel) return;
  kernel.addFnAttr(kRunsAsLoops);
}

// Before the optimisation pipeline: the kernel that each marked invoker calls (the function it
// passes on, engine::invoke_with_args<Fn>) is kept out of the invoker. Inlined, the kernel's body
// would be compiled twice for fibers (the kernel, whose address the engine keeps, and the
// invoker) and a third time in the loop invoker; kept apart, the fiber invoker calls the kernel,
// and the loop invoker inlines the optimised kernel.
struct KeepKernelsApart : PassInfoMixin<KeepKernelsApart> {
  PreservedAnalyses run(Module& m, ModuleAnalysisManager&) {
    bool changed = false;
    for (Function* invoker : marked_invokers(m, CUDA_CPU_LOOP_ENTRY_ANNOTATION))
      for (Function* kernel : kernels_passed_on(*invoker))
        if (!kernel->hasFnAttribute(Attribute::NoInline)) {
          kernel->addFnAttr(Attribute::NoInline);
          changed = true;
        }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

struct BlockLoopsPass : PassInfoMixin<BlockLoopsPass> {
  PreservedAnalyses run(Module& m, ModuleAnalysisManager&) {
    // Every kernel's, whichever model it runs on, and wherever it is launched from. The steps
    // come first: a kernel that takes them stays on fibers.
    const bool stepped = insert_volatile_steps(m);
    const bool quieted = quiet_builtin_variable_reads(m) || stepped;
    std::vector<Function*> invokers = marked_invokers(m, CUDA_CPU_LOOP_ENTRY_ANNOTATION);
    std::vector<Function*> dispatches = marked_invokers(m, CUDA_CPU_LOOP_DISPATCH_ANNOTATION);
    if (invokers.empty() && dispatches.empty())
      return quieted ? PreservedAnalyses::none() : PreservedAnalyses::all();
    const bool report = std::getenv("CUDA_CPU_LOOP_REPORT") != nullptr;
    std::vector<Made> made;
    for (Function* invoker : invokers) {
      ValueToValueMapTy map;
      Function* loops = copy_of(*invoker, invoker->getName() + ".block_loop", map);
      LoopShape shape;
      if (make_loop_invoker(*loops, invoker->getName().str(), report, shape)) {
        made.push_back({invoker, nullptr, loops, shape});
        for (Function* kernel : kernels_called_by(*invoker)) mark_if_inlined(*kernel, *loops);
      }
    }
    // Invokers are not kernels, though some have a kernel's type.
    std::set<Function*> not_kernels(invokers.begin(), invokers.end());
    not_kernels.insert(dispatches.begin(), dispatches.end());
    for (Function* dispatch : dispatches) {
      ValueToValueMapTy to_probe;
      Function* probe = copy_of(*dispatch, dispatch->getName() + ".probe", to_probe);
      CallBase* call = call_through_pointer(*probe);
      if (!call) {
        if (report) errs() << "block loops: " << dispatch->getName() << ": fibers (no one call through a pointer)\n";
        probe->eraseFromParent();
        continue;
      }
      for (Function* kernel : kernels_for(*call)) {
        if (not_kernels.count(kernel)) continue;
        ValueToValueMapTy map;
        Function* loops = copy_of(*probe, dispatch->getName() + ".block_loop." + kernel->getName(), map);
        cast<CallBase>(map[call])->setCalledFunction(kernel);
        LoopShape shape;
        if (make_loop_invoker(*loops, kernel->getName().str() + " (launched through its address)", report, shape)) {
          made.push_back({dispatch, kernel, loops, shape});
          mark_if_inlined(*kernel, *loops);
        }
      }
      probe->eraseFromParent();
    }
    if (made.empty()) return quieted ? PreservedAnalyses::none() : PreservedAnalyses::all();
    register_at_start(m, made);
    return PreservedAnalyses::none();
  }
};

// After the loop invokers are made (they are instrumented as the kernels are): the checks of a
// loop's reads made ahead of it where they can be (reads_ahead.h), then the common cases of the
// access checks inline (inline_checks.h).
struct InlineAccessChecks : PassInfoMixin<InlineAccessChecks> {
  PreservedAnalyses run(Module& m, ModuleAnalysisManager& analyses) {
    const bool ahead = check_loop_reads_ahead(m, analyses);
    const bool inline_checks = inline_access_checks(m);
    return ahead || inline_checks ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

// Last: the instrumented functions' local variables lose their per-instruction locations,
// which only a debugger reads and which cost most of their code generation (variable_locations.h).
struct DropLocalVariableLocations : PassInfoMixin<DropLocalVariableLocations> {
  PreservedAnalyses run(Module& m, ModuleAnalysisManager&) {
    return drop_local_variable_locations(m) ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

}  // namespace
}  // namespace block_loops

// The callbacks take whatever each LLVM passes them (LLVM 20 added the LTO phase to the last one).
extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "block-loops", "1", [](llvm::PassBuilder& builder) {
            builder.registerPipelineStartEPCallback(
                [](llvm::ModulePassManager& passes, auto&&...) { passes.addPass(block_loops::KeepKernelsApart()); });
            builder.registerOptimizerLastEPCallback([](llvm::ModulePassManager& passes, auto&&...) {
              passes.addPass(block_loops::BlockLoopsPass());
              passes.addPass(block_loops::InlineAccessChecks());
              passes.addPass(block_loops::DropLocalVariableLocations());
            });
          }};
}

#include "eligibility.h"

#include "cuda_cpu/block_loop_names.h"
#include "cuda_cpu/volatile_step.h"

#include <map>
#include <set>

#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace block_loops {
namespace {

using llvm::StringRef;

bool starts_with(StringRef s, StringRef prefix) { return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix; }

// cuda_cpu::<name>(...), as the Itanium C++ ABI mangles it.
std::string hook(const std::string& name) { return "_ZN8cuda_cpu" + std::to_string(name.size()) + name + "E"; }

// Functions that kernel code calls and that never switch to another CUDA thread: the checks'
// callbacks, the C and math libraries, exceptions, and the engine's hooks that act on the
// calling thread alone (runtime_hooks.h). Anything not named here keeps a kernel on fibers.
bool never_switches(StringRef name) {
  static const char* const prefixes[] = {"__asan_", "llvm.", "__atomic_", "__cxa_", "__sanitizer_"};
  for (const char* p : prefixes)
    if (starts_with(name, p)) return true;
  static const std::set<std::string> hooks = {
      hook("note_atomic"), hook("trap"), hook("assert_failed"), hook("lane_id"),
      hook("pipeline_memcpy_async"), hook("pipeline_commit"), hook("pipeline_wait_prior"),
      hook("shared_window_address"), hook("shared_window_pointer"),
  };
  for (const std::string& h : hooks)
    if (starts_with(name, h)) return true;
  static const std::set<StringRef> c_library = {
      "memcpy", "memmove", "memset", "memcmp", "strlen", "printf", "vprintf", "puts", "putchar", "fputs", "fprintf",
      "fflush", "snprintf", "sprintf", "abort", "exit", "__assert_fail", "clock_gettime", "clock", "fegetround",
      "fesetround",
      "sqrt", "sqrtf", "cbrt", "cbrtf", "exp", "expf", "exp2", "exp2f", "expm1", "expm1f", "exp10", "exp10f",
      "log", "logf", "log2", "log2f", "log10", "log10f", "log1p", "log1pf", "pow", "powf", "hypot", "hypotf",
      "sin", "sinf", "cos", "cosf", "tan", "tanf", "asin", "asinf", "acos", "acosf", "atan", "atanf", "atan2",
      "atan2f", "sinh", "sinhf", "cosh", "coshf", "tanh", "tanhf", "asinh", "asinhf", "acosh", "acoshf", "atanh",
      "atanhf", "sincos", "sincosf", "erf", "erff", "erfc", "erfcf", "tgamma", "tgammaf", "lgamma", "lgammaf",
      "fabs", "fabsf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc", "truncf", "rint", "rintf",
      "nearbyint", "nearbyintf", "lround", "lroundf", "llround", "llroundf", "lrint", "lrintf", "fmod", "fmodf",
      "remainder", "remainderf", "fmin", "fminf", "fmax", "fmaxf", "fma", "fmaf", "fdim", "fdimf", "ldexp",
      "ldexpf", "frexp", "frexpf", "modf", "modff", "copysign", "copysignf", "nextafter", "nextafterf",
      "logb", "logbf", "ilogb", "ilogbf", "scalbn", "scalbnf",
  };
  return c_library.count(name) != 0;
}

// What a function defined in the module does, seen through the functions it calls.
struct Summary {
  bool barrier = false;      // reaches a __syncthreads()
  std::string blocker;       // reaches something that may switch threads (why), or empty
  bool recursive = false;
};

class CallGraphFacts {
 public:
  const Summary& of(llvm::Function& f) {
    auto found = done_.find(&f);
    if (found != done_.end()) return found->second;
    if (visiting_.count(&f)) {
      static const Summary cycle{false, "", true};
      return cycle;
    }
    visiting_.insert(&f);
    Summary s;
    for (llvm::BasicBlock& block : f)
      for (llvm::Instruction& instruction : block) {
        auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
        if (!call) continue;
        std::string blocker;
        const Summary* callee_summary = nullptr;
        describe_call(*call, blocker, callee_summary);
        if (callee_summary) {
          s.barrier |= callee_summary->barrier;
          s.recursive |= callee_summary->recursive;
          if (s.blocker.empty()) s.blocker = callee_summary->blocker;
        } else if (is_barrier(call->getCalledFunction())) {
          s.barrier = true;
        } else if (s.blocker.empty()) {
          s.blocker = blocker;
        }
      }
    visiting_.erase(&f);
    return done_[&f] = s;
  }

  // For a call: the callee's summary when it is defined here; else, in `blocker`, why the call
  // may switch threads (empty when it cannot, or when it is a barrier).
  void describe_call(llvm::CallBase& call, std::string& blocker, const Summary*& summary) {
    summary = nullptr;
    if (call.isInlineAsm()) {
      blocker = "inline assembly";
      return;
    }
    llvm::Function* callee = call.getCalledFunction();
    if (!callee) {
      blocker = "a call through a pointer";
      return;
    }
    if (is_barrier(callee)) return;
    if (callee->isDeclaration()) {
      if (callee->getName() == CUDA_CPU_VOLATILE_STEP_NAME(CUDA_CPU_VOLATILE_STEP))
        blocker = "volatile accesses, where the lanes of a warp keep in step";
      else if (!never_switches(callee->getName()))
        blocker = "a call to " + callee->getName().str();
      return;
    }
    summary = &of(*callee);
  }

 private:
  std::map<llvm::Function*, Summary> done_;
  std::set<llvm::Function*> visiting_;
};

}  // namespace

bool is_barrier(const llvm::Function* callee) {
  return callee && starts_with(callee->getName(), hook("syncthreads"));
}

std::string inline_barriers(llvm::Function& invoker) {
  // Each round inlines the calls of the invoker's body whose callees reach a barrier; their
  // own calls that do appear in the body and are inlined in the next round.
  for (unsigned round = 0; round < 64; ++round) {
    CallGraphFacts facts;
    std::vector<llvm::CallBase*> to_inline;
    for (llvm::BasicBlock& block : invoker)
      for (llvm::Instruction& instruction : block) {
        auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
        if (!call) continue;
        std::string blocker;
        const Summary* summary = nullptr;
        facts.describe_call(*call, blocker, summary);
        if (summary && summary->recursive) return "a recursive call";
        if (summary && summary->barrier) to_inline.push_back(call);
      }
    if (to_inline.empty()) return "";
    for (llvm::CallBase* call : to_inline) {
      llvm::InlineFunctionInfo info;
      if (!llvm::InlineFunction(*call, info).isSuccess()) return "a call that cannot be inlined";
    }
  }
  return "barriers nested deeper than the pass inlines";
}

std::string why_not_loops(llvm::Function& invoker) {
  if (!invoker.getReturnType()->isVoidTy()) return "an invoker that returns a value";
  CallGraphFacts facts;
  for (llvm::BasicBlock& block : invoker)
    for (llvm::Instruction& instruction : block) {
      if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction)) {
        if (!alloca->isStaticAlloca() || alloca->getParent() != &invoker.getEntryBlock())
          return "a local array whose size is known only at run time";
        if (alloca->getAlign().value() > CUDA_CPU_LOOP_FRAME_ALIGNMENT) return "a local aligned beyond the frame";
        continue;
      }
      if (llvm::isa<llvm::IndirectBrInst>(instruction) || llvm::isa<llvm::CallBrInst>(instruction))
        return "an indirect branch";
      auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      if (!call) continue;
      if (call->hasFnAttr(llvm::Attribute::ReturnsTwice)) return "setjmp";
      if (is_barrier(call->getCalledFunction())) {
        if (!llvm::isa<llvm::CallInst>(call)) return "a barrier inside code that cleans up on an exception";
        continue;
      }
      std::string blocker;
      const Summary* summary = nullptr;
      facts.describe_call(*call, blocker, summary);
      if (!blocker.empty()) return blocker;
      if (summary) {
        if (summary->recursive) return "a recursive call";
        if (summary->barrier) return "a barrier in a function the pass did not inline";
        if (!summary->blocker.empty()) return summary->blocker;
      }
    }
  return "";
}

}  // namespace block_loops

// The common cases of the access checks, inline in kernel code. AddressSanitizer's
// instrumentation calls the engine before every load and store (asan_callbacks.cpp); the call
// itself, and the registers the kernel must save around it, cost as much as the check in a
// matmul's inner loop. For each plain 4-byte load that the instrumentation would give its
// 4-byte callback, this pass puts in front of the access the tests with which that
// callback settles the access without changing anything: not kernel code, not device memory, a
// shared word that every reader has settled for this barrier interval, an aligned global load
// inside its buffer (which also counts itself, as the callback does). Stores keep the callback:
// a shared store always needs it, and a kernel stores far less than it loads. Anything else calls the
// same callback as before, at the access's line, and the access is marked so that the
// instrumentation that follows leaves it alone. What the checks find cannot change: the
// inline tests read the same per-thread block (cpu/fast_path.h) and return only where the
// callback returns.
#pragma once

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace block_loops {

// Marks a kernel that the block-loop pass also compiled into a loop invoker (which inlines it):
// the kernel itself then runs only where loops are turned off, and keeps the callbacks alone,
// which take the code generator far less time than the inline checks.
inline constexpr char kRunsAsLoops[] = "cuda-cpu-runs-as-loops";

// The functions whose accesses take the inline checks: those AddressSanitizer instruments, but
// not a kernel that runs on fibers only where loops are turned off (kRunsAsLoops).
bool takes_inline_checks(const llvm::Function& function);

// Returns whether it changed the module (any function that AddressSanitizer will instrument).
bool inline_access_checks(llvm::Module& m);

}  // namespace block_loops

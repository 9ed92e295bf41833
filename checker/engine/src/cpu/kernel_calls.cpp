// The engine's entry points that kernel code calls (cuda_cpu/runtime_hooks.h): barriers,
// warp collectives, atomics' reports, __trap() and failed assertions.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "worker.h"

namespace engine::cpu {

Worker& worker_here(const char* what) {
  if (current_worker == nullptr || current_thread == nullptr) {
    std::fprintf(stderr, "%s called outside a kernel\n", what);
    std::abort();
  }
  return *current_worker;
}

namespace {

[[noreturn]] void stop_with_fault(FindingKind kind, unsigned line, const char* file, const char* what) {
  Worker& w = worker_here("__trap()");
  RawFinding f{};
  f.kind = kind;
  f.block = w.current_block();
  f.thread = current_thread->linear;
  f.line = line;
  f.file = file;
  std::snprintf(f.detail, sizeof f.detail, "%s", what);
  w.stop_grid_with(f);
}

}  // namespace
}  // namespace engine::cpu

using engine::cpu::current_thread;
using engine::cpu::current_worker;

int cuda_cpu::syncthreads(BarrierReduce reduce, int predicate, unsigned line, const char* file) {
  return engine::cpu::worker_here("__syncthreads()").barrier(reduce, predicate, line, file);
}

void cuda_cpu::warp_collective(WarpOp op, unsigned mask, void* lane_data, WarpComplete complete, const void* context,
                               unsigned line, const char* file) {
  engine::cpu::worker_here(warp_op_name(op)).warp_collective(op, mask, lane_data, complete, context, line, file);
}

void cuda_cpu::warp_misuse(WarpOp op, unsigned lane, const char* what) {
  engine::cpu::worker_here(warp_op_name(op)).warp_misuse(op, lane, what);
}

void engine::cpu::warp_misuse(cuda_cpu::WarpOp op, unsigned lane, const MisuseFacts& facts) {
  engine::cpu::worker_here(cuda_cpu::warp_op_name(op)).warp_misuse(op, lane, facts);
}

unsigned cuda_cpu::lane_id() { return current_thread ? current_thread->lane : 0; }

unsigned cuda_cpu::active_mask() { return engine::cpu::worker_here("__activemask()").active_mask(); }
unsigned cuda_cpu::coalesced_lanes(unsigned line, const char* file) {
  return engine::cpu::worker_here("cooperative_groups::coalesced_threads()").coalesce(line, file);
}

void cuda_cpu::lane_access(unsigned lane, const void* address, unsigned size, bool write) {
  engine::cpu::Worker& w = engine::cpu::worker_here("a warp collective");
  engine::cpu::CudaThread& me = *current_thread;
  engine::cpu::CudaThread& t = w.thread(me.warp * engine::cpu::kWarpSize + lane);
  w.checks().engine_access(reinterpret_cast<std::uintptr_t>(address), size, write, t, me.wait_line, me.wait_file);
}

void cuda_cpu::note_atomic(const void* address, unsigned size) {
  if (current_thread == nullptr) return;
  current_worker->checks().atomic_access(reinterpret_cast<std::uintptr_t>(address), size,
                                         reinterpret_cast<engine::cpu::Site>(__builtin_return_address(0)),
                                         *current_thread);
  current_worker->atomic_step();
}

void cuda_cpu::trap(unsigned line, const char* file) {
  engine::cpu::stop_with_fault(engine::FindingKind::fault, line, file, "the kernel called __trap()");
}

const char* cuda_cpu::warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::syncwarp: return "__syncwarp";
    case WarpOp::shfl: return "__shfl_sync";
    case WarpOp::shfl_up: return "__shfl_up_sync";
    case WarpOp::shfl_down: return "__shfl_down_sync";
    case WarpOp::shfl_xor: return "__shfl_xor_sync";
    case WarpOp::ballot: return "__ballot_sync";
    case WarpOp::any: return "__any_sync";
    case WarpOp::all: return "__all_sync";
    case WarpOp::wmma_load: return "wmma::load_matrix_sync";
    case WarpOp::wmma_store: return "wmma::store_matrix_sync";
    case WarpOp::wmma_mma: return "wmma::mma_sync";
    case WarpOp::ptx: return "a warp-wide PTX instruction";
    case WarpOp::cg_partition: return "cooperative_groups::labeled_partition";
    case WarpOp::cg_reduce: return "cooperative_groups::reduce";
    case WarpOp::cg_inclusive_scan: return "cooperative_groups::inclusive_scan";
    case WarpOp::cg_exclusive_scan: return "cooperative_groups::exclusive_scan";
  }
  return "a warp function";
}

// assert() in kernel code: glibc's assert calls this. Defined in the program, it takes the
// place of glibc's for every call in it; outside kernels it behaves as glibc's does.
// glibc declares it noexcept, so the thread cannot unwind out of it: the finding stops the
// grid by ending the launch's child process, whose report the parent reads as usual.
extern "C" void __assert_fail(const char* expression, const char* file, unsigned line,
                                           const char* function) noexcept {
  if (current_worker != nullptr && current_thread != nullptr) {
    engine::cpu::RawFinding f{};
    f.kind = engine::FindingKind::assertion;
    f.block = current_worker->current_block();
    f.thread = current_thread->linear;
    f.line = line;
    f.file = file;
    std::snprintf(f.detail, sizeof f.detail, "assert(%s) failed", expression);
    current_worker->plan().report->add(f, current_worker->index());
    current_worker->plan().report->stop.store(1);
    std::fflush(nullptr);
    _exit(0);
  }
  std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expression);
  std::abort();
}

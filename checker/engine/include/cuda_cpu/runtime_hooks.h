// The places where kernel code on the CPU backend calls into the engine. Everything here is
// implemented in checker/engine/src/cpu; the CUDA names kernels use (__syncthreads,
// __shfl_sync, wmma::mma_sync, ...) are thin inline wrappers in the other cuda_cpu headers.
// Calls that can be a student's mistake take the caller's line and file, filled in by
// default arguments (__builtin_LINE()) where the kernel calls, so findings name that line.
#ifndef CUDA_CPU_RUNTIME_HOOKS_H_
#define CUDA_CPU_RUNTIME_HOOKS_H_

#include <cstddef>
#include <cstdint>
#include <time.h>

#include "cuda_cpu/vector_types.h"

// CUDA's built-in variables. The engine writes the running thread's values into these
// per-OS-thread slots at every switch between CUDA threads, so reading threadIdx.x is one
// load, and the names clash with nothing (they are variables, not macros).
extern __thread const uint3 threadIdx;
extern __thread const uint3 blockIdx;
extern __thread const uint3 blockDim;
extern __thread const uint3 gridDim;
static constexpr int warpSize = 32;

namespace cuda_cpu {

// --- The multiprocessor's cycle counter ------------------------------------------------
// It counts at the modelled clock (an H100's 1.98 GHz, cudaDevAttrClockRate) in real time, so a
// kernel that waits some cycles (clock64(), clock()) waits as long as on the GPU.
constexpr long long kClockKhz = 1980000;
inline long long cycles_now() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<long long>(now.tv_sec) * kClockKhz * 1000 + static_cast<long long>(now.tv_nsec) * kClockKhz / 1000000;
}

// --- Barriers --------------------------------------------------------------------------
// Out of line on purpose: the compiler must assume that other threads changed memory
// during a barrier, so it cannot keep shared values in registers across one.
enum class BarrierReduce : std::uint8_t { none, count, all, any };
// Returns, for count/all/any, the reduction of every thread's predicate.
int syncthreads(BarrierReduce reduce, int predicate, unsigned line, const char* file);

// --- Warp collectives ------------------------------------------------------------------
enum class WarpOp : std::uint8_t {
  syncwarp, shfl, shfl_up, shfl_down, shfl_xor, ballot, any, all,
  wmma_load, wmma_store, wmma_mma,
  ptx,  // a warp-wide inline-PTX instruction (ldmatrix, mma.sync, ...): the instruction names itself
  // cooperative_groups' collectives of a group's lanes: each lane receives every lane's value
  // (complete_gather, warp_functions.h) and computes its own result from them.
  cg_partition, cg_reduce, cg_inclusive_scan, cg_exclusive_scan,
};
const char* warp_op_name(WarpOp op);  // "__shfl_sync", "wmma::load_matrix_sync", ...

// Runs once every lane named in `mask` has called with the same op; on the last lane to
// arrive. lane_data[l] is what lane l passed (null for lanes not in the mask).
using WarpComplete = void (*)(void* const* lane_data, unsigned mask, const void* context);
// The calling lane waits here until the collective is complete. A lane that calls with a
// mask that does not name it, or lanes that disagree on the op or the mask, are findings;
// so is a lane named in the mask that never arrives.
void warp_collective(WarpOp op, unsigned mask, void* lane_data, WarpComplete complete, const void* context,
                     unsigned line, const char* file);
unsigned lane_id();
unsigned active_mask();  // lanes of this warp that have not returned
// cooperative_groups::coalesced_threads(): the lanes of this warp that reach this call together
// (the worker's coalesce() says how that is decided on the CPU backend).
unsigned coalesced_lanes(unsigned line, const char* file);
// Called from a WarpComplete: a mistake in the collective's arguments, stopping the block.
[[noreturn]] void warp_misuse(WarpOp op, unsigned lane, const char* what);

// Loads and stores the engine makes on behalf of a lane (tensor-core fragments): checked
// like the kernel's own, and attributed to that lane and to the collective's line.
void lane_access(unsigned lane, const void* address, unsigned size, bool write);

// --- Asynchronous copies (cuda_pipeline.h) ---------------------------------------------
void pipeline_memcpy_async(void* shared_dst, const void* global_src, std::size_t size, std::size_t zero_fill,
                           unsigned line, const char* file);
void pipeline_commit(unsigned line, const char* file);
void pipeline_wait_prior(std::size_t keep, unsigned line, const char* file);

// --- Shared memory's own address space ----------------------------------------------------
// __cvta_generic_to_shared: the 32-bit address of a shared variable in the block's shared
// window, as ldmatrix, cp.async and ld.shared take it; and back.
std::size_t shared_window_address(const void* generic);
void* shared_window_pointer(std::size_t shared_address);

// --- Everything else -------------------------------------------------------------------
// Atomics report themselves; the instrumentation leaves their read-modify-write alone.
void note_atomic(const void* address, unsigned size);
[[noreturn]] void trap(unsigned line, const char* file);
[[noreturn]] void assert_failed(const char* expression, unsigned line, const char* file);
// cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes).
// Returns false when the value is beyond what any launch may have.
bool set_max_dynamic_shared(const void* kernel, int bytes);

}  // namespace cuda_cpu

#endif  // CUDA_CPU_RUNTIME_HOOKS_H_

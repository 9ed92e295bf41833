// What the engine noticed while a kernel ran: the student mistakes that the checkers
// explain. Backends fill these in; the checker library turns them into sentences.
#ifndef ENGINE_FINDINGS_H_
#define ENGINE_FINDINGS_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/dim.h"

namespace engine {

enum class FindingKind {
  out_of_bounds,         // a global read or write outside every buffer
  shared_out_of_bounds,  // past the dynamic shared memory that the launch asked for
  shared_race,           // two threads touch a shared element with no barrier between
  barrier_divergence,    // threads of a block wait at different barriers, or some returned
  fault,                 // the kernel crashed: bad pointer, integer division by zero, ...
  timeout,               // the kernel did not finish in time (an endless loop?)
  misaligned,            // an 8- or 16-byte access at an address not a multiple of its size
  warp_divergence,       // a warp collective (__shfl_sync, wmma, ...) that lanes did not all reach
  warp_misuse,           // a warp collective called with arguments CUDA does not allow
  async_copy,            // an asynchronous copy's destination used before its wait
  assertion,             // assert() failed in the kernel
  uninitialized_shared,  // a read of shared memory that no thread of the block has written
  inline_ptx,            // inline PTX the CPU backend cannot run, or an operand PTX does not allow
  deadlock,              // threads wait (mbarrier, named barrier) for what no thread can still give
  async_proxy,           // shared memory used against the asynchronous units (TMA, wgmma)
  cluster_order,         // another CTA of the cluster used before a cluster barrier orders it, or after it exited
  proxy_fence,           // shared memory written by a thread and read by the async proxy with no fence.proxy.async
  wgmma_accumulator,     // a wgmma's accumulator registers used before the wgmma.wait_group of its group
};
inline constexpr std::size_t kFindingKinds = 18;

struct SourceLocation {
  std::string file;
  int line = 0;
  // The compiler kept no line for the instruction itself (it moved or merged it), so this
  // is the nearest line of the same code: "near line 23".
  bool approximate = false;
  // Where the line's function was inlined into the kernel's own code, in the same file,
  // innermost first: a PTX wrapper's asm line, called from the kernel's line 187.
  std::vector<int> called_from;
  bool known() const { return line > 0; }
};

// A set of threads of one block in the same state, for barrier findings.
struct ThreadGroup {
  bool returned = false;   // they have left the kernel; otherwise they are stopped at `barrier`
  std::string waits_for;   // what they wait in: "__syncthreads()", "__shfl_sync", ...; empty when
                           // they were stopped elsewhere (the block was stopped before they arrived)
  SourceLocation barrier;  // where they wait, when they have not returned
  std::uint64_t count = 0;
  std::vector<Dim3> sample;  // a few of them, in thread order

  // deadlock: what a blocked group waits at, as it stood when the block was stopped.
  struct BarrierWait {
    enum class Kind { none, mbarrier, named_barrier } kind = Kind::none;
    std::string barrier;            // mbarrier: its shared element ("full[2]"); named: its number
    std::vector<long> dims;
    unsigned parity = 0;            // mbarrier: the phase parity waited for
    unsigned phase_parity = 0;      // mbarrier: the parity of its current, incomplete phase
    long long pending_arrivals = 0, expected_arrivals = 0;
    long long bytes_expected = 0, bytes_delivered = 0;  // the current phase's transaction bytes
    bool initialized = true;
    unsigned arrived = 0, count = 0;  // named barrier
  } wait;
};

struct Finding {
  FindingKind kind = FindingKind::fault;
  std::string op;  // warp findings: "__shfl_sync"; async_copy: what was done too early
  bool thread_known = true;
  ThreadCoord where;  // the thread that did it
  SourceLocation at;  // the line it was on, when known

  // Accesses (out_of_bounds, shared_out_of_bounds, shared_race, misaligned, async_copy).
  bool is_write = false;
  bool is_shared = false;         // in shared memory (else global)
  std::string buffer;             // as the kernel names it: "a", "out", "tile"
  long long index = 0;            // element index; negative before the start
  unsigned element_size = 4;
  unsigned access_size = 4;       // bytes moved by the access (16 for a float4)
  long long buffer_elements = 0;  // the buffer's size in elements
  std::vector<long> dims;         // a shared array's dimensions, when known: {16, 16}

  // shared_race: the earlier access by another thread, with no barrier between.
  // async_copy: the thread that issued the copy, and where.
  ThreadCoord other;
  bool other_is_write = false;
  SourceLocation other_at;

  // barrier_divergence, warp_divergence: the groups that disagree.
  std::vector<ThreadGroup> groups;
  unsigned warp = 0, mask = 0;  // warp findings

  std::string detail;  // fault, timeout, assertion, warp_misuse: what happened

  // warp_misuse: the rule broken, as a fact with its numbers (the checker words it); `other`
  // where only `detail` says.
  enum class Misuse {
    other,
    own_lane_not_in_mask,     // a lane calls a collective with a mask that leaves itself out
    source_lane_not_in_mask,  // misuse_value: the lane a shuffle reads
    bad_shuffle_width,        // misuse_value: the width, not a power of 2 from 1 to 32
    wmma_arguments_differ,    // misuse_value: the lane; misuse_subject: "pointer", "ldm" or "layout"
    wmma_pointer_misaligned,  // not 32-byte aligned
    wmma_bad_ldm,             // misuse_value: ldm; misuse_limit: the multiple; misuse_subject: the element type
    wmma_partial_warp,        // not all 32 lanes of the warp take part
  };
  Misuse misuse = Misuse::other;
  long long misuse_value = 0, misuse_limit = 0;
  std::string misuse_subject;

  // async_proxy: what the asynchronous unit was doing with the memory.
  enum class AsyncUse { none, tma_write_pending, wgmma_reading, bulk_store_reading, swizzle_mismatch } async_use =
      AsyncUse::none;
  unsigned swizzle_written = 0, swizzle_read = 0;  // swizzle_mismatch: the TMA's and the descriptor's (bytes)

  // cluster_order: why the use of another CTA of the cluster (its rank: other_rank) was unsafe,
  // and what was used: its shared memory (read or written, is_write) or one of its mbarriers
  // (op says how: an arrival, a tensor copy completing it).
  // proxy_fence: the asynchronous operation that read the bytes (the finding's thread issued it,
  // at `at`); `other` wrote them with a generic-proxy store at `other_at`.
  // wgmma_accumulator: `at` is the access (is_write) of the thread's accumulator `index`
  // (0-based register of the wgmma's output list, -1 when not known); `other_at` the wgmma.
  enum class ProxyReader { none, tensor_store, wgmma } proxy_reader = ProxyReader::none;

  enum class ClusterUse {
    none,
    before_cluster_barrier,    // the thread has waited at no cluster barrier yet
    mbarrier_not_initialized,  // that CTA has not initialized the mbarrier
    mbarrier_init_unordered,   // initialized, but after the last cluster barrier the thread waited at
    cta_exited,                // that CTA has exited: its shared memory is gone
  } cluster_use = ClusterUse::none;
  unsigned other_rank = 0;
  bool cluster_mbarrier = false;
};

// How efficiently one source location uses memory, as the hardware would serve its warp
// requests (CPU backend, with RunOptions::profile): the numbers Nsight Compute shows.
struct AccessProfile {
  SourceLocation at;
  std::uintptr_t site = 0;  // the engine's key for the location
  bool shared = false, write = false;
  unsigned access_size = 0;     // bytes per thread access (16 for a float4)
  std::uint64_t requests = 0;   // warp instructions
  std::uint64_t accesses = 0;   // thread accesses
  // Shared memory: wavefronts the requests take, and the fewest they could take.
  std::uint64_t wavefronts = 0, ideal_wavefronts = 0;
  std::uint64_t ways_sum = 0;             // each request's worst n-way conflict, summed
  std::uint64_t conflicted_requests = 0;  // requests with a conflict (n-way > 1)
  unsigned worst_ways = 0;
  // Global memory: 32-byte sectors touched, and the fewest the bytes moved need.
  std::uint64_t sectors = 0, ideal_sectors = 0;
  unsigned worst_sectors = 0;
};

// What Hopper's tensor memory accelerator did for one source location (CPU backend, with
// RunOptions::profile): the boxes a cp.async.bulk.tensor moved, per mbarrier they complete.
struct TensorCopyProfile {
  SourceLocation at;  // the cp.async.bulk.tensor
  std::uintptr_t site = 0;
  bool store = false;      // shared to global (.global.shared::cta): no mbarrier
  bool multicast = false;  // .multicast::cluster: each destination CTA counts as one copy
  std::string barrier;     // loads: the mbarrier's shared element ("full[2]", "smem[98304]")
  std::uint64_t copies = 0;  // boxes, one per destination CTA
  std::uint64_t bytes = 0;   // the boxes' bytes (loads: zero fill included, the transaction bytes)
  // Loads: the mbarrier phases (stage uses) those bytes went to, over all CTAs; bytes / phases
  // is what one use of the stage received from this location.
  std::uint64_t phases = 0;
};

// Warpgroup MMA instructions of one source location and one warpgroup of the block (threads
// 128 g .. 128 g + 127), over all blocks (CPU backend, with RunOptions::profile).
struct WarpgroupMmaProfile {
  enum class Op { mma, commit_group, wait_group };
  SourceLocation at;
  std::uintptr_t site = 0;
  unsigned warpgroup = 0;
  Op op = Op::mma;
  unsigned n = 0;                  // mma: N of m64nNk16; wait_group: the groups it lets stay pending
  std::uint64_t instructions = 0;  // one per warpgroup, not per thread
  std::uint64_t flops = 0;         // mma: 2 * 64 * N * 16 each
};
// "commit_group": the instruction's name, for tools.
inline const char* to_string(WarpgroupMmaProfile::Op op) {
  switch (op) {
    case WarpgroupMmaProfile::Op::mma: return "mma_async";
    case WarpgroupMmaProfile::Op::commit_group: return "commit_group";
    case WarpgroupMmaProfile::Op::wait_group: return "wait_group";
  }
  return "?";
}

// Tensor copies of one source location whose boxes hung over the tensor's edges (CPU backend,
// every launch). Not a finding: the hardware fills a load's elements outside the tensor with
// zeros and leaves out a store's, and kernels rely on it for the edge tiles. The checker words
// them under --explain.
struct TensorEdgeNote {
  SourceLocation at;  // the cp.async.bulk.tensor
  std::uintptr_t site = 0;
  bool store = false;  // shared to global: elements outside the tensor left out, not zero-filled
  std::string tensor;  // the buffer the tensor map points into ("a"), empty when none is known
  // The tensor's elements per dimension and the first box's coordinates (the lowest block's
  // first such copy), innermost dimension first, as cuTensorMapEncodeTiled and PTX order them.
  std::vector<std::uint64_t> dims;
  std::vector<std::int64_t> first_box;
  std::vector<unsigned> box;  // the box's elements per dimension
  std::uint64_t first_block = 0;  // linear index of the block that issued the first box
  std::uint64_t boxes = 0;             // every box this location copied (multicast: once)
  std::uint64_t boxes_over_edge = 0;   // those that reached outside the tensor
  std::uint64_t elements_outside = 0;  // loads: zero-filled; stores: left out
};

struct LaunchStats {
  bool loads_counted = false;  // the kernel was instrumented (CPU backend with clang)
  std::uint64_t max_global_loads = 0;  // by the single busiest thread
  ThreadCoord max_loads_thread;
  std::uint64_t total_global_loads = 0;
  std::uint64_t threads_run = 0;
  std::uint64_t barrier_waits = 0;  // threads arriving at __syncthreads(), summed
  // CPU, kernels run as loops: barrier intervals in which no thread wrote shared memory, whose
  // written words were settled for every reader as the interval began (AccessChecks::settle_for_reads).
  std::uint64_t intervals_settled = 0;
  double milliseconds = 0;          // GPU: between events around the kernel; CPU: wall time
};

// Why a launch was refused before anything ran: CUDA's checks, as facts (the rule and its
// numbers). The checker words them (checker/lib/src/explain.cpp).
struct LaunchRejection {
  enum class Why {
    none,
    empty_grid,               // shape: the grid; a dimension is 0
    empty_block,              // shape: the block
    too_many_threads,         // shape: the block; requested: its threads; limit: threads per block
    block_too_large,          // shape: the block; limit_shape: the largest block
    grid_too_large,           // shape: the grid; limit_shape: the largest grid
    static_shared_too_large,  // requested: the kernel's __shared__ bytes; limit: per block
    dynamic_shared_too_large, // requested: dynamic bytes; static_shared; limit: the dynamic bytes allowed
                              // (attribute_would_help: cudaFuncSetAttribute could allow them)
    shared_too_large,         // requested: dynamic bytes; static_shared; limit: the device's per block
    attribute_too_large,      // cudaFuncSetAttribute(requested bytes) beyond limit, the device's most
    no_extern_shared,         // requested: dynamic bytes, with no extern __shared__ array to hold them
    registers_limit_threads,  // GPU: requested: the block's threads; limit; registers per thread
    launch_failed,            // GPU: cudaLaunchKernel (or cudaLaunchKernelEx) failed; cuda_error says how
    tensor_map_refused,       // cuTensorMapEncodeTiled refused a map the launch needs; cuda_error: the rule
    empty_cluster,            // shape: the cluster; a dimension is 0
    cluster_too_large,        // shape: the cluster; requested: its blocks; limit: blocks per cluster (portable)
    grid_not_whole_clusters,  // shape: the grid; cluster: the cluster, which some grid dimension is no multiple of
  };
  Why why = Why::none;
  std::string kernel;
  Dim3 shape, limit_shape;
  Dim3 cluster;  // grid_not_whole_clusters: the cluster shape the grid is tiled by
  std::uint64_t requested = 0, limit = 0, static_shared = 0;
  unsigned registers = 0;
  bool attribute_would_help = false;
  std::string cuda_error;  // launch_failed, tensor_map_refused: CUDA's (or the driver's) words for the error

  bool refused() const { return why != Why::none; }
};
// "too_many_threads": the reason's name, for tools (the checker's --json).
const char* to_string(LaunchRejection::Why why);
// "wmma_bad_ldm": the rule's name, for tools.
const char* to_string(Finding::Misuse misuse);

struct LaunchResult {
  // Set when the launch was refused before anything ran.
  LaunchRejection rejected;
  // A sample of the findings (a few per kind, the lowest block and thread first) and
  // how many of each kind there were in all.
  std::vector<Finding> findings;
  std::array<std::uint64_t, kFindingKinds> totals{};
  // Of the shared_race findings, how many were between threads of different warps (the rest:
  // between lanes of one warp).
  std::uint64_t races_across_warps = 0;
  LaunchStats stats;
  // With RunOptions::profile: one entry per source location and kind of access.
  std::vector<AccessProfile> profile;
  bool profile_truncated = false;  // a thread made too many accesses between two barriers
  // With RunOptions::profile, kernels that use Hopper's asynchronous units: per source location.
  std::vector<TensorCopyProfile> tensor_copies;
  std::vector<WarpgroupMmaProfile> warpgroup_mma;
  bool async_profile_truncated = false;  // more locations than the report holds
  // CPU backend, every launch: tensor copies whose boxes hung over the tensor's edges, per
  // source location and tensor (notes, not findings: they do not fail a case).
  std::vector<TensorEdgeNote> tensor_edges;
  bool tensor_edges_truncated = false;  // more locations than the report holds
  // GPU: a fault leaves the CUDA context unusable; nothing more can run in this process.
  bool device_lost = false;

  bool clean() const { return !rejected.refused() && findings.empty(); }
  std::uint64_t total(FindingKind k) const { return totals[static_cast<std::size_t>(k)]; }
  void add(const Finding& f) {
    findings.push_back(f);
    ++totals[static_cast<std::size_t>(f.kind)];
  }
};

// The element that holds a byte offset from a buffer's start; negative before the start.
inline long long element_at(long long byte_offset, std::size_t element_size) {
  auto size = static_cast<long long>(element_size);
  return byte_offset >= 0 ? byte_offset / size : -((-byte_offset + size - 1) / size);
}

// An out-of-bounds write found afterwards in the canary bytes around a buffer: the
// element is known, the thread is not.
inline Finding damaged_canary(const std::string& buffer, std::size_t element_size, long long byte_offset,
                              std::size_t buffer_bytes) {
  Finding f;
  f.kind = FindingKind::out_of_bounds;
  f.thread_known = false;
  f.is_write = true;
  f.buffer = buffer;
  f.element_size = static_cast<unsigned>(element_size);
  f.index = element_at(byte_offset, element_size);
  f.buffer_elements = static_cast<long long>(buffer_bytes / element_size);
  f.detail = "found in the canary bytes around the buffer after the kernel ran";
  return f;
}

}  // namespace engine

#endif  // ENGINE_FINDINGS_H_

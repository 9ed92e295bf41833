// What a CPU-backend launch tells its parent process. It lives in one shared anonymous
// mapping made before fork(), holds only plain data, and is written with atomics or under
// a spin lock because worker threads and a signal handler write it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "engine/findings.h"

namespace engine::cpu {

inline constexpr unsigned kMaxWorkers = 64;
inline constexpr unsigned kMaxKeptFindings = 64;
inline constexpr unsigned kGroupSample = 8;
inline constexpr unsigned kMaxGroups = 4;

struct RawGroup {
  std::uint32_t exited;  // 1: returned from the kernel; 0: waiting
  std::uint32_t line;
  const char* file;     // a string literal of this program: valid in the parent too
  const char* waits_at;  // "__syncthreads()", "__shfl_sync", ...: a string literal too
  std::uint32_t count;
  std::uint32_t sample[kGroupSample];  // linear thread indices
  // deadlock: the barrier they wait at (ThreadGroup::BarrierWait), raw.
  std::uint32_t wait_kind;             // 0 none, 1 mbarrier, 2 named barrier
  std::int32_t wait_slot;              // mbarrier: shared variable index (-1: dynamic)
  std::int64_t wait_byte_offset;
  std::uint32_t wait_parity, wait_phase_parity, wait_initialized;
  std::int64_t wait_pending, wait_expected, wait_bytes_expected, wait_bytes_delivered;
  std::uint32_t wait_arrived, wait_count, wait_number;
  std::uint64_t wait_object;           // which barrier, to tell apart groups at the same line
  std::uint64_t wait_site;             // a code address where they wait (inline PTX), for the call chain
};

struct RawFinding {
  FindingKind kind;
  std::uint64_t block;   // linear block index
  std::uint32_t thread;  // linear thread index in the block
  std::uint8_t is_write, other_is_write, is_shared;
  std::int32_t slot;         // out_of_bounds: arena slot; races: shared variable index
  std::int64_t byte_offset;  // from the start of the buffer or variable
  std::uint32_t access_size;
  std::uint64_t pc, other_pc;  // code addresses, for source lines
  std::uint32_t other_thread;
  std::uint32_t line;  // when known without a pc (barriers, traps, collectives)
  const char* file;
  std::uint32_t other_line;  // async_copy: where the copy was issued
  const char* other_file;
  const char* op;            // warp and async findings: a string literal
  std::uint32_t warp, mask;
  std::uint32_t group_count;
  RawGroup groups[kMaxGroups];
  char detail[160];
  std::uint32_t async_use, swizzle_written, swizzle_read;  // async_proxy findings
  std::uint32_t proxy_reader;                              // proxy_fence findings: Finding::ProxyReader
  std::uint32_t cluster_use, other_rank, cluster_mbarrier;  // cluster_order findings
  std::uint32_t misuse;                        // warp_misuse: Finding::Misuse
  std::int64_t misuse_value, misuse_limit;
  const char* misuse_subject;                  // a string literal, or null

  // Findings are kept lowest (block, thread) first, so the sample does not depend on
  // which worker got there first.
  bool before(const RawFinding& o) const {
    if (block != o.block) return block < o.block;
    if (thread != o.thread) return thread < o.thread;
    if (byte_offset != o.byte_offset) return byte_offset < o.byte_offset;
    return is_write < o.is_write;
  }
};

inline constexpr unsigned kMaxProfileLines = 256;

struct RawProfileLine {
  std::uint64_t site;
  std::uint8_t shared, write;
  std::uint32_t access_size, worst_ways, worst_sectors;
  std::uint64_t requests, accesses, wavefronts, ideal_wavefronts, ways_sum, conflicted_requests, sectors,
      ideal_sectors;
};

// Hopper's asynchronous units (async_profile.h): one line per tensor copy site and mbarrier,
// and per wgmma instruction site and warpgroup.
inline constexpr unsigned kMaxAsyncProfileLines = 128;

struct RawTensorCopyLine {
  std::uint64_t site;
  std::uint8_t store, multicast;
  std::int32_t barrier_slot;  // loads: the mbarrier's shared variable index (-1: dynamic)
  std::int64_t barrier_offset;
  std::uint64_t copies, bytes, phases;
};

struct RawWarpgroupMmaLine {
  std::uint64_t site;
  std::uint32_t warpgroup, op, n;  // op: WarpgroupMmaProfile::Op
  std::uint64_t instructions, flops;
};

// Tensor copies whose boxes hung over the tensor's edges (tensor_edges.h): one line per copy
// site, direction and tensor, on every launch.
inline constexpr unsigned kMaxTensorEdgeLines = 64;

struct RawTensorEdgeLine {
  std::uint64_t site;
  std::uint8_t store;
  std::uint8_t rank;
  std::int32_t slot;                  // the tensor's arena slot (-1: not a device buffer)
  std::uint64_t global_address;       // the tensor map's, which tells tensors apart
  std::uint32_t dims[5], box[5];
  std::int64_t first_box[5];
  std::uint64_t first_block;          // valid once boxes_over_edge > 0
  std::uint64_t boxes, boxes_over_edge, elements_outside;
};

// Each worker stores to its own at every fiber switch: one cache line each, or two workers'
// stores would bounce one line between their cores.
struct alignas(64) WorkerHeartbeat {
  std::atomic<std::uint64_t> block;
  std::atomic<std::uint32_t> thread;  // the block's thread that runs, or last ran
  std::atomic<std::uint32_t> busy;  // 1 while a block runs
  std::atomic<std::uint64_t> blocks_done;  // blocks (CTAs) this worker has finished
  // The worker's OS thread (its id in /proc/<pid>/task), set before its first block: the parent
  // reads that thread's own run-queue wait for the limit on each block (isolated_launch.cpp).
  std::atomic<std::int32_t> os_thread;
};

// How many findings of each kind one worker made: its own cache line(s), so that workers finding
// millions (a race in a loop) never write a line another worker writes.
struct alignas(64) WorkerFindingTotals {
  std::uint64_t of_kind[kFindingKinds];
  std::uint64_t races_across_warps;  // shared_race findings between threads of different warps
};

struct LaunchReport {
  std::atomic_flag lock;
  unsigned findings_per_kind;
  WorkerFindingTotals totals[kMaxWorkers];
  std::uint32_t kept;  // under lock
  RawFinding findings[kMaxKeptFindings];
  // Per kind, the (block, thread) key (finding_key) above which a finding cannot be kept: that
  // of the kind's last kept finding once no more of the kind can be added, else the largest
  // key. It only ever falls, so a worker that reads it without the lock rejects such findings
  // correctly even from a stale value, and leaves the rest to the locked path.
  std::atomic<std::uint64_t> keep_below_or_at[kFindingKinds];

  std::atomic<int> stop;  // set when a finding stops the whole grid
  std::atomic<std::uint64_t> barrier_waits;
  std::atomic<std::uint64_t> intervals_settled;
  std::atomic<std::uint64_t> total_loads;
  std::atomic<std::uint64_t> threads_run;
  std::uint64_t max_loads;  // under lock
  std::uint64_t max_loads_block;
  std::uint32_t max_loads_thread;

  unsigned workers;
  WorkerHeartbeat heartbeat[kMaxWorkers];

  // Written by the child's signal handler just before it exits.
  std::atomic<int> crash_signal;
  std::uint64_t crash_address, crash_pc, crash_block;
  std::uint32_t crash_thread;
  int crash_in_kernel;
  int crash_stack_overflow;

  double grid_milliseconds;

  std::uint32_t profile_lines;  // under lock
  std::uint32_t profile_truncated;
  RawProfileLine profile[kMaxProfileLines];
  std::uint32_t tensor_copy_lines, warpgroup_mma_lines;  // under lock
  std::uint32_t async_profile_truncated;
  RawTensorCopyLine tensor_copies[kMaxAsyncProfileLines];
  RawWarpgroupMmaLine warpgroup_mma[kMaxAsyncProfileLines];
  std::uint32_t tensor_edge_lines, tensor_edges_truncated;  // under lock
  RawTensorEdgeLine tensor_edges[kMaxTensorEdgeLines];

  // Sets what add() reads; before the workers start.
  void start_findings(unsigned per_kind);
  // Counts f against `worker` and keeps it if it is among the first findings_per_kind of its
  // kind in (block, thread) order (RawFinding::before).
  void add(const RawFinding& f, unsigned worker);
  std::uint64_t total(FindingKind kind) const;
  std::uint64_t races_across_warps() const;

  // Text made while the kernel runs (the PTX instruction a finding names): copied here, in
  // the mapping both processes share, so the parent reads it at the same address.
  char text_pool[8192];
  std::uint32_t text_used;  // under lock
  const char* intern(const char* text);
};

}  // namespace engine::cpu

// What the threads of one block wait for besides __syncthreads() and warp collectives:
// named barriers (bar.sync 1, 256), mbarriers (Hopper's transaction barriers in shared
// memory), warpgroup collectives (wgmma, setmaxnreg), and the asynchronous units whose work
// is still in flight (tensor copies, warpgroup MMAs, bulk stores). One per worker, reset at
// every block start; only the worker's own OS thread touches it.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace engine::cpu {

// Why a blocked thread waits, for the scheduler and for the finding if it never gets out.
struct WaitReason {
  enum class Kind : std::uint8_t { none, named_barrier, mbarrier, warpgroup, cluster_barrier };
  Kind kind = Kind::none;
  std::uintptr_t object = 0;  // the named barrier's number; the mbarrier's host address; the cluster barrier's phase
  unsigned parity = 0;        // mbarrier: the phase parity waited for
  unsigned line = 0;
  const char* file = "";
  std::uintptr_t site = 0;    // a code address (inline PTX), for the call chain
  const char* name = "";      // the instruction, for findings (in the report's text pool)
};

struct NamedBarrier {
  unsigned expected = 0;           // threads that must arrive; 0 while none has
  unsigned arrived = 0;
  std::vector<unsigned> waiting;   // threads blocked in bar.sync (bar.arrive does not wait)
};

// A tensor copy on its way into shared memory: issued, not landed yet.
struct PendingTensorCopy {
  std::vector<unsigned char> bytes;          // the box, in the order of `destinations`
  std::vector<std::uintptr_t> destinations;  // host address of each element
  unsigned element_bytes = 2;
  std::uint64_t transaction_bytes = 0;       // what it delivers to the mbarrier: the whole box
  std::uintptr_t barrier = 0;                // the mbarrier it completes (host address)
  unsigned swizzle = 0;                      // the tensor map's swizzle (0, 32, 64, 128 bytes)
  unsigned issuer = 0;
  std::uintptr_t site = 0;
};

struct MBarrier {
  bool initialized = false;
  std::uint32_t expected = 0;        // arrivals per phase (mbarrier.init's count)
  std::int64_t pending = 0;          // arrivals still missing in the current phase
  std::int64_t tx = 0;               // transaction bytes still expected in the current phase
  std::uint64_t delivered = 0;       // bytes delivered in the current phase (for findings)
  std::uint64_t expected_tx = 0;     // bytes announced in the current phase (for findings)
  std::uint32_t completed = 0;       // phases completed so far: the current phase's parity is completed & 1
  std::vector<unsigned> waiting;     // threads blocked in try_wait
  std::vector<std::size_t> copies;   // indices into BlockSync::copies of copies that complete it
  // What the arriving threads knew of each warpgroup's finished wgmma groups (its retired
  // count), for the phase in progress and for the last one completed: a thread that sees the
  // phase complete knows it too (see BlockSync::known_retired).
  std::vector<std::uint32_t> arrival_retired, phase_retired;
  std::uint32_t index = 0;           // its number in this block, for per-thread bookkeeping
  std::uint32_t init_cluster_phase = 0;  // cluster barrier phases completed when it was initialized
  std::uintptr_t shared_address = 0; // where it is (host address), for findings
};

// A warpgroup collective some of the 128 threads have reached.
struct WarpgroupMeeting {
  const char* name = nullptr;
  unsigned arrived = 0;
  std::uint64_t arrived_mask[2] = {};  // which of the 128 threads
  void* lane_data[128] = {};
  void (*complete)(void* const*, unsigned, const void*) = nullptr;
  const void* context = nullptr;
};

// A warpgroup's asynchronous MMAs: groups committed, and how many have been waited for.
struct WarpgroupAsync {
  std::uint32_t committed = 0;   // wgmma.commit_group count
  std::uint32_t retired = 0;     // groups known complete (wgmma.wait_group)
  bool open_group = false;       // wgmma.mma_async issued since the last commit
};

struct BlockSync {
  NamedBarrier named[16];
  std::unordered_map<std::uintptr_t, MBarrier> mbarriers;
  std::vector<PendingTensorCopy> copies;  // landed copies leave an empty slot behind
  std::vector<WarpgroupMeeting> warpgroups;
  std::vector<WarpgroupAsync> warpgroup_async;
  // Per thread, per mbarrier number: the phases it has seen complete (try_wait returned true).
  // Filled only by blocks that use mbarriers (observed_any), so only those clear it.
  std::vector<std::vector<std::uint32_t>> observed;
  bool observed_any = false;
  // Per thread, per warpgroup: how many of that warpgroup's wgmma groups the thread knows
  // to be finished, through program order (its own warpgroup), a __syncthreads, or an
  // mbarrier phase that the finishing warpgroup arrived at afterwards. A tensor copy that a
  // thread issues into shared memory that a wgmma group it does not know finished may
  // still read is a race, however the threads happened to be scheduled.
  // One row of warpgroup_async.size() counts per thread, in one array: a block of 1024 threads
  // resets it at every start, and most blocks never use it (no wgmma).
  std::vector<std::uint32_t> known_retired;
  // Lands the tensor copies in flight that some blocked thread waits for, when nothing else
  // can run: a copy always lands in the end. Set by the first tensor copy of the block.
  void (*land_awaited_copies)() = nullptr;
  // Per thread: bulk (TMA store) groups committed and waited for.
  std::vector<std::uint32_t> bulk_committed, bulk_retired;

  // The warpgroup's finished groups as `thread` knows them.
  std::uint32_t retired_known_to(unsigned thread, unsigned warpgroup) const {
    if (thread / 128 == warpgroup) return warpgroup_async[warpgroup].retired;
    return known_retired[thread * warpgroup_async.size() + warpgroup];
  }
  // `thread`'s row of known_retired.
  std::uint32_t* known_retired_by(unsigned thread) { return known_retired.data() + thread * warpgroup_async.size(); }
  // A __syncthreads opened: every thread knows everything finished before it.
  void barrier_opened() {
    // Until some group retires (most blocks: no wgmma), every row is still the zeros of reset().
    bool any_retired = false;
    for (const WarpgroupAsync& async : warpgroup_async) any_retired |= async.retired != 0;
    if (!any_retired) return;
    const std::size_t groups = warpgroup_async.size();
    for (std::size_t row = 0; row < known_retired.size(); row += groups)
      for (std::size_t g = 0; g < groups; ++g) known_retired[row + g] = warpgroup_async[g].retired;
  }

  void reset(unsigned threads) {
    for (NamedBarrier& b : named) b = NamedBarrier{};
    mbarriers.clear();
    copies.clear();
    land_awaited_copies = nullptr;
    unsigned groups = (threads + 127) / 128;
    warpgroups.assign(groups, WarpgroupMeeting{});
    warpgroup_async.assign(groups, WarpgroupAsync{});
    if (observed.size() != threads) {
      observed.assign(threads, {});
    } else if (observed_any) {
      for (auto& seen : observed) seen.clear();
    }
    observed_any = false;
    known_retired.assign(std::size_t{threads} * groups, 0);
    bulk_committed.assign(threads, 0);
    bulk_retired.assign(threads, 0);
  }
};

}  // namespace engine::cpu

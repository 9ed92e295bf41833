// <cooperative_groups.h> for the CPU backend: thread blocks, tiles of up to a warp, coalesced
// groups and their partitions, built on the engine's barrier and warp collectives (so every
// check of __syncthreads(), __syncwarp() and the shuffles applies to them).
//
// Supported: this_thread_block() (sync, thread_rank, size, num_threads, group_index,
// thread_index, dim_threads, group_dim), this_thread(), thread_group, sync(g),
// tiled_partition<N>(parent) for N = 1, 2, 4, 8, 16, 32 (parent a block or a larger tile),
// the dynamic tiled_partition(parent, n) with the same sizes, and a tile's sync,
// thread_rank, size, num_threads, meta_group_rank, meta_group_size, shfl, shfl_up,
// shfl_down, shfl_xor (of any trivially copyable type; wider than 8 bytes in 8-byte pieces),
// any, all and ballot. coalesced_threads() and its coalesced_group (sync, thread_rank, size,
// num_threads, shfl, shfl_up, shfl_down, any, all, ballot); labeled_partition and
// binary_partition of a tile or a coalesced group; reduce (<cooperative_groups/reduce.h>),
// inclusive_scan and exclusive_scan (<cooperative_groups/scan.h>), as CUDA splits them. this_grid() and its grid_group's ranks and
// sizes; its sync() stops the program with one line, as grid-wide synchronization is not
// modelled (is_valid() is false: no launch is cooperative here).
//
// How tiles meet. A tile of 2 to 32 threads lies in one warp (its threads are consecutive
// in the block's linear order). Its collectives are the warp's: a tile's sync is
// __syncwarp() of the whole warp, a shuffle is __shfl_*_sync with the tile's size as the
// width, and a vote is a ballot of the warp cut to the tile's lanes. So the tiles of a warp
// must reach their collectives together, in the same order, as kernels almost always do;
// tiles of one warp at different collectives at the same time are reported as a warp
// divergence. A tile of one thread needs nobody: its operations are the thread's own.
//
// How coalesced groups form. The lanes of a warp run one after another on the CPU backend, so
// coalesced_threads() waits until every lane of the warp has reached that call, returned, or
// stopped elsewhere (a barrier, another collective); the lanes at the call are the group. The
// two sides of a branch are two groups, as on a GPU. A coalesced group's collectives take its
// own lanes as their mask, so groups of one warp meet separately.
//
// Everything else CUDA has fails to compile with a message naming it: multi-grid groups,
// clusters, tiles of more than 32 threads, cooperative_groups::memcpy_async / wait /
// wait_prior, match_any / match_all, invoke_one.
#ifndef CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_H_
#define CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_H_

#include <assert.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda_cpu/host_launch.h"
#include "cuda_cpu/runtime_hooks.h"
#include "cuda_cpu/vector_types.h"
#include "cuda_cpu/warp_functions.h"

namespace cooperative_groups {
namespace details {

template <typename...>
struct always_false : std::false_type {};

constexpr bool valid_tile_size(unsigned n) { return n >= 1 && n <= 32 && (n & (n - 1)) == 0; }

inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

// The lanes of the calling thread's warp that exist in this block (the last warp of a block
// whose size is not a multiple of 32 has fewer).
inline unsigned warp_lanes() {
  const unsigned first = block_rank() & ~31u, threads = block_threads();
  return threads - first >= 32 ? 0xFFFFFFFFu : (1u << (threads - first)) - 1u;
}
// The lanes of the calling thread's tile of `size` threads, in warp lane numbers.
inline unsigned tile_lanes(unsigned size) {
  const unsigned base = block_rank() & 31u & ~(size - 1);
  const unsigned lanes = size == 32 ? 0xFFFFFFFFu : ((1u << size) - 1u) << base;
  return lanes & warp_lanes();
}

inline void tile_sync(unsigned size, unsigned line, const char* file) {
  if (size > 1) __syncwarp(0xFFFFFFFFu, line, file);
}
// A vote of the whole warp, cut to the tile's lanes and shifted down to tile rank 0.
inline unsigned tile_ballot(unsigned size, int predicate, unsigned line, const char* file) {
  if (size == 1) return predicate ? 1u : 0u;
  const unsigned votes = __ballot_sync(0xFFFFFFFFu, predicate, line, file) & tile_lanes(size);
  return votes >> (block_rank() & 31u & ~(size - 1));
}

enum class Shuffle { index, up, down, exclusive_or };

// A shuffle of any trivially copyable value: in 8-byte pieces, each a warp shuffle. CUDA's
// 16-byte vector types (uint4, float4, ...) count as such: they are here only to copy
// themselves in one 16-byte access (cuda_cpu/vector_types.h), and their bytes are all they hold.
template <typename T>
inline T tile_shuffle(Shuffle kind, unsigned size, const T& value, int param, unsigned line, const char* file) {
  static_assert(std::is_trivially_copyable<T>::value || cuda_cpu::is_wide_vector<T>::value,
                "cooperative_groups shuffles move trivially copyable values");
  if (size == 1) return value;
  constexpr std::size_t pieces = (sizeof(T) + 7) / 8;
  std::uint64_t in[pieces] = {}, out[pieces];
  std::memcpy(in, static_cast<const void*>(&value), sizeof(T));
  const int width = static_cast<int>(size);
  for (std::size_t p = 0; p < pieces; ++p) {
    switch (kind) {
      case Shuffle::index: out[p] = __shfl_sync(0xFFFFFFFFu, in[p], param, width, line, file); break;
      case Shuffle::up: out[p] = __shfl_up_sync(0xFFFFFFFFu, in[p], static_cast<unsigned>(param), width, line, file); break;
      case Shuffle::down:
        out[p] = __shfl_down_sync(0xFFFFFFFFu, in[p], static_cast<unsigned>(param), width, line, file);
        break;
      case Shuffle::exclusive_or: out[p] = __shfl_xor_sync(0xFFFFFFFFu, in[p], param, width, line, file); break;
    }
  }
  T result;
  std::memcpy(static_cast<void*>(&result), out, sizeof(T));
  return result;
}

}  // namespace details

// A group of threads of any kind, as CUDA's type-erased thread_group.
class thread_group {
 public:
  unsigned long long size() const {
    return block_ ? details::block_threads() : lanes_ ? __builtin_popcount(lanes_) : size_;
  }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    if (block_) return details::block_rank();
    if (lanes_) return __builtin_popcount(lanes_ & ((1u << (details::block_rank() & 31u)) - 1u));
    return details::block_rank() % size_;
  }
  void sync(unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    if (block_) {
      cuda_cpu::syncthreads(cuda_cpu::BarrierReduce::none, 0, line, file);
    } else if (lanes_) {
      __syncwarp(lanes_, line, file);
    } else {
      details::tile_sync(size_, line, file);
    }
  }

 protected:
  thread_group(bool block, unsigned size, unsigned lanes = 0) : block_(block), size_(size), lanes_(lanes) {}
  bool block_;     // the whole block; otherwise a tile of size_ threads within a warp,
  unsigned size_;  // or (lanes_ not 0) a coalesced group: these lanes of the caller's warp
  unsigned lanes_;
};

class thread_block : public thread_group {
 public:
  static void sync(unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
    cuda_cpu::syncthreads(cuda_cpu::BarrierReduce::none, 0, line, file);
  }
  static unsigned int thread_rank() { return details::block_rank(); }
  static unsigned int size() { return details::block_threads(); }
  static unsigned int num_threads() { return details::block_threads(); }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 dim_threads() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  static dim3 group_dim() { return dim_threads(); }
  template <typename... A>
  static void barrier_arrive(A...) {
    static_assert(details::always_false<A...>::value,
                  "thread_block::barrier_arrive / barrier_wait are not supported on the CPU backend");
  }
  template <typename... A>
  static void barrier_wait(A...) {
    static_assert(details::always_false<A...>::value,
                  "thread_block::barrier_arrive / barrier_wait are not supported on the CPU backend");
  }

 private:
  friend thread_block this_thread_block();
  thread_block() : thread_group(true, 0) {}
};

inline thread_block this_thread_block() { return thread_block(); }

template <unsigned int Size, typename ParentT = void>
class thread_block_tile;

// A tile of Size threads. Its meta group is its parent's partition: meta_group_rank() is
// the tile's index in the parent, meta_group_size() the number of tiles there.
template <unsigned int Size>
class thread_block_tile<Size, void> : public thread_group {
  static_assert(details::valid_tile_size(Size),
                "tiled_partition<N>: the CPU backend supports tiles of 1, 2, 4, 8, 16 or 32 threads (larger tiles "
                "and block_tile_memory are not supported)");

 public:
  static constexpr unsigned int numThreads = Size;
  static constexpr unsigned long long num_threads() { return Size; }
  static constexpr unsigned long long size() { return Size; }
  static unsigned int thread_rank() { return details::block_rank() % Size; }
  unsigned int meta_group_rank() const { return meta_rank_; }
  unsigned int meta_group_size() const { return meta_size_; }
  void sync(unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    details::tile_sync(Size, line, file);
  }

  template <typename T>
  T shfl(const T& var, int src_rank, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    return details::tile_shuffle(details::Shuffle::index, Size, var, src_rank, line, file);
  }
  template <typename T>
  T shfl_up(const T& var, unsigned int delta, unsigned line = __builtin_LINE(),
            const char* file = __builtin_FILE()) const {
    return details::tile_shuffle(details::Shuffle::up, Size, var, static_cast<int>(delta), line, file);
  }
  template <typename T>
  T shfl_down(const T& var, unsigned int delta, unsigned line = __builtin_LINE(),
              const char* file = __builtin_FILE()) const {
    return details::tile_shuffle(details::Shuffle::down, Size, var, static_cast<int>(delta), line, file);
  }
  template <typename T>
  T shfl_xor(const T& var, unsigned int lane_mask, unsigned line = __builtin_LINE(),
             const char* file = __builtin_FILE()) const {
    return details::tile_shuffle(details::Shuffle::exclusive_or, Size, var, static_cast<int>(lane_mask), line, file);
  }
  int any(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    return details::tile_ballot(Size, predicate, line, file) != 0;
  }
  int all(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    const unsigned everyone = details::tile_lanes(Size) >> (details::block_rank() & 31u & ~(Size - 1));
    return details::tile_ballot(Size, predicate, line, file) == (Size == 1 ? 1u : everyone);
  }
  unsigned int ballot(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    return details::tile_ballot(Size, predicate, line, file);
  }
  template <typename T>
  unsigned int match_any(T) const {
    static_assert(details::always_false<T>::value, "thread_block_tile::match_any is not supported on the CPU backend");
    return 0;
  }
  template <typename T>
  unsigned int match_all(T, int&) const {
    static_assert(details::always_false<T>::value, "thread_block_tile::match_all is not supported on the CPU backend");
    return 0;
  }

 protected:
  thread_block_tile(unsigned meta_rank, unsigned meta_size)
      : thread_group(false, Size), meta_rank_(meta_rank), meta_size_(meta_size) {}
  unsigned meta_rank_, meta_size_;

  template <unsigned int, typename>
  friend class thread_block_tile;
  friend thread_block_tile<1, void> this_thread();
};

// The tile as tiled_partition<Size>(parent) returns it; usable wherever the plain tile is.
template <unsigned int Size, typename ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {
 public:
  explicit thread_block_tile(const ParentT& parent) : thread_block_tile<Size, void>(meta_rank(parent), meta_size(parent)) {}

 private:
  static unsigned meta_rank(const thread_block&) { return details::block_rank() / Size; }
  static unsigned meta_size(const thread_block&) { return (details::block_threads() + Size - 1) / Size; }
  template <unsigned int P, typename Q>
  static unsigned meta_rank(const thread_block_tile<P, Q>&) {
    return (details::block_rank() % P) / Size;
  }
  template <unsigned int P, typename Q>
  static unsigned meta_size(const thread_block_tile<P, Q>&) {
    return P / Size;
  }
};

inline thread_block_tile<1, void> this_thread() {
  return thread_block_tile<1, void>(details::block_rank(), details::block_threads());
}

namespace details {
template <typename ParentT>
struct tile_parent : std::false_type {};
template <>
struct tile_parent<thread_block> : std::true_type {};
template <unsigned int P, typename Q>
struct tile_parent<thread_block_tile<P, Q>> : std::true_type {};
template <typename ParentT>
struct parent_size {
  static constexpr unsigned value = 0xFFFFFFFFu;  // a block: any tile size fits
};
template <unsigned int P, typename Q>
struct parent_size<thread_block_tile<P, Q>> {
  static constexpr unsigned value = P;
};
}  // namespace details

template <unsigned int Size, typename ParentT>
inline thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent) {
  static_assert(details::tile_parent<ParentT>::value,
                "tiled_partition<N>(g): on the CPU backend g is a thread_block or a thread_block_tile");
  static_assert(Size < details::parent_size<ParentT>::value,
                "tiled_partition<N>(tile): N must be smaller than the tile's size");
  return thread_block_tile<Size, ParentT>(parent);
}

// The dynamic form: a thread_group of n threads, n a power of 2 from 1 to 32 (and at most
// the parent's size).
inline thread_group tiled_partition(const thread_group& parent, unsigned int tilesz,
                                    unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  if (!details::valid_tile_size(tilesz) || tilesz > parent.size()) {
    // The engine reports a failed assert() as a finding at the line (kernel_calls.cpp).
    __assert_fail("tiled_partition(g, n) with n a power of 2 from 1 to 32, at most the size of g", file, line,
                  "cooperative_groups::tiled_partition");
  }
  struct tile : thread_group {
    explicit tile(unsigned n) : thread_group(false, n) {}
  };
  return tile(tilesz);
}

template <typename Group>
inline void sync(const Group& g, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  g.sync(line, file);
}

// --- Coalesced groups and partitions ---------------------------------------------------------

namespace details {

inline unsigned lane() { return block_rank() & 31u; }
inline unsigned rank_in(unsigned lanes) { return __builtin_popcount(lanes & ((1u << lane()) - 1u)); }
// The warp lane of rank `rank` in `lanes` (rank < popcount(lanes)).
inline unsigned lane_of_rank(unsigned lanes, unsigned rank) {
  for (; rank > 0; --rank) lanes &= lanes - 1u;
  return static_cast<unsigned>(__builtin_ctz(lanes));
}

// A shuffle within `lanes` from warp lane `source` (the caller's own lane to keep its value).
template <typename T>
inline T masked_shuffle(unsigned lanes, const T& value, unsigned source, unsigned line, const char* file) {
  static_assert(std::is_trivially_copyable<T>::value || cuda_cpu::is_wide_vector<T>::value,
                "cooperative_groups shuffles move trivially copyable values");
  constexpr std::size_t pieces = (sizeof(T) + 7) / 8;
  std::uint64_t in[pieces] = {}, out[pieces];
  std::memcpy(in, static_cast<const void*>(&value), sizeof(T));
  for (std::size_t p = 0; p < pieces; ++p) out[p] = __shfl_sync(lanes, in[p], static_cast<int>(source), 32, line, file);
  T result;
  std::memcpy(static_cast<void*>(&result), out, sizeof(T));
  return result;
}

// Every lane of `mask` brings `value` and receives every lane's: all[l] is lane l's.
template <typename T>
inline void gather(cuda_cpu::WarpOp op, unsigned mask, const T& value, T (&all)[32], unsigned line, const char* file) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 16,
                "cooperative_groups' partitions, reductions and scans take trivially copyable values of at most "
                "16 bytes on the CPU backend");
  cuda_cpu::GatherLane me;
  std::memcpy(me.value, static_cast<const void*>(&value), sizeof(T));
  cuda_cpu::warp_collective(op, mask, &me, &cuda_cpu::complete_gather, nullptr, line, file);
  for (unsigned l = 0; l < 32; ++l)
    if ((mask >> l) & 1u) std::memcpy(static_cast<void*>(&all[l]), me.all[l], sizeof(T));
}

}  // namespace details

namespace details {
struct group_access;
}

// The lanes of a warp that a coalesced_threads() call or a partition grouped. Its collectives
// take those lanes as their mask.
// size, num_threads, thread_rank and sync are thread_group's, which knows a coalesced group's lanes.
class coalesced_group : public thread_group {
 public:
  unsigned long long meta_group_rank() const { return 0; }
  unsigned long long meta_group_size() const { return 1; }
  template <typename T>
  T shfl(const T& var, unsigned int src_rank, unsigned line = __builtin_LINE(),
         const char* file = __builtin_FILE()) const {
    const unsigned count = __builtin_popcount(lanes_);
    return details::masked_shuffle(lanes_, var, details::lane_of_rank(lanes_, src_rank % count), line, file);
  }
  template <typename T>
  T shfl_up(const T& var, unsigned int delta, unsigned line = __builtin_LINE(),
            const char* file = __builtin_FILE()) const {
    const unsigned rank = details::rank_in(lanes_);
    const unsigned source = rank >= delta ? details::lane_of_rank(lanes_, rank - delta) : details::lane();
    return details::masked_shuffle(lanes_, var, source, line, file);
  }
  template <typename T>
  T shfl_down(const T& var, unsigned int delta, unsigned line = __builtin_LINE(),
              const char* file = __builtin_FILE()) const {
    const unsigned rank = details::rank_in(lanes_), count = __builtin_popcount(lanes_);
    const unsigned source = rank + delta < count ? details::lane_of_rank(lanes_, rank + delta) : details::lane();
    return details::masked_shuffle(lanes_, var, source, line, file);
  }
  // Bit r is the predicate of the group's thread of rank r.
  unsigned int ballot(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    const unsigned votes = __ballot_sync(lanes_, predicate, line, file);
    unsigned packed = 0, rank = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((lanes_ >> l) & 1u) packed |= ((votes >> l) & 1u) << rank++;
    return packed;
  }
  int any(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    return __any_sync(lanes_, predicate, line, file);
  }
  int all(int predicate, unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    return __all_sync(lanes_, predicate, line, file);
  }
  // The group's lanes, as warp lane numbers (what the collectives take as their mask).
  unsigned lanes() const { return lanes_; }

 private:
  explicit coalesced_group(unsigned lanes) : thread_group(false, 0, lanes) {}
  friend struct details::group_access;
};

namespace details {
struct group_access {
  static coalesced_group coalesced(unsigned lanes) { return coalesced_group(lanes); }
};
}  // namespace details

inline coalesced_group coalesced_threads(unsigned line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  return details::group_access::coalesced(cuda_cpu::coalesced_lanes(line, file));
}

namespace details {
// The lanes a group's collectives meet with: a tile meets with its whole warp (see "How tiles
// meet" above), a coalesced group with its own lanes.
template <unsigned int Size, typename P>
inline unsigned meeting_lanes(const thread_block_tile<Size, P>&) { return 0xFFFFFFFFu; }
inline unsigned meeting_lanes(const coalesced_group& g) { return g.lanes(); }
// The lanes of the caller's own group, in warp lane numbers.
template <unsigned int Size, typename P>
inline unsigned own_lanes(const thread_block_tile<Size, P>&) { return tile_lanes(Size); }
inline unsigned own_lanes(const coalesced_group& g) { return g.lanes(); }
template <typename G>
struct partitionable : std::false_type {};
template <unsigned int Size, typename P>
struct partitionable<thread_block_tile<Size, P>> : std::true_type {};
template <>
struct partitionable<coalesced_group> : std::true_type {};
}  // namespace details

namespace details {
// The lanes of the caller's group (`own`, meeting with `meeting`) whose label equals its own.
template <typename Label>
inline coalesced_group partition(unsigned meeting, unsigned own, const Label& label, unsigned line, const char* file) {
  if (own == (1u << lane())) return group_access::coalesced(own);  // a group of one meets nobody
  Label labels[32];
  gather(cuda_cpu::WarpOp::cg_partition, meeting, label, labels, line, file);
  unsigned same = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (((own >> l) & 1u) && labels[l] == label) same |= 1u << l;
  return group_access::coalesced(same);
}
}  // namespace details

// The threads of `group` whose `label` (an integer) equals the caller's.
template <typename Group, typename Label,
          typename = std::enable_if_t<details::partitionable<Group>::value && std::is_integral<Label>::value>>
inline coalesced_group labeled_partition(const Group& group, Label label, unsigned line = __builtin_LINE(),
                                         const char* file = __builtin_FILE()) {
  return details::partition(details::meeting_lanes(group), details::own_lanes(group), label, line, file);
}
template <typename Group, typename = std::enable_if_t<details::partitionable<Group>::value>>
inline coalesced_group binary_partition(const Group& group, bool predicate, unsigned line = __builtin_LINE(),
                                        const char* file = __builtin_FILE()) {
  return labeled_partition(group, predicate ? 1 : 0, line, file);
}

// --- The grid ----------------------------------------------------------------------------
// Its ranks and sizes. No launch is cooperative on the CPU backend, so is_valid() is false, as
// on a GPU for a launch made without cudaLaunchCooperativeKernel, and sync() stops the program.
class grid_group {
 public:
  static bool is_valid() { return false; }
  static void sync(unsigned = __builtin_LINE(), const char* = __builtin_FILE()) {
    cuda_cpu::not_modelled("cooperative_groups::grid_group::sync (grid-wide synchronization)");
  }
  static unsigned long long num_blocks() {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
  static unsigned long long block_rank() {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  }
  static unsigned long long num_threads() { return num_blocks() * details::block_threads(); }
  static unsigned long long size() { return num_threads(); }
  static unsigned long long thread_rank() { return block_rank() * details::block_threads() + details::block_rank(); }
  static dim3 dim_blocks() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 group_dim() { return dim_blocks(); }

 private:
  friend grid_group this_grid();
  grid_group() = default;
};
inline grid_group this_grid() { return grid_group(); }

// --- What the CPU backend does not have: each use fails to compile, naming it. -------------
#define CUDA_CPU_CG_UNSUPPORTED_TYPE(name, message)                  \
  namespace details {                                                \
  template <typename T = void>                                       \
  struct name##_unsupported {                                        \
    static_assert(always_false<T>::value, message);                  \
  };                                                                 \
  }                                                                  \
  using name = details::name##_unsupported<>;
#define CUDA_CPU_CG_UNSUPPORTED_FUNCTION(name, message)  \
  template <typename... A>                               \
  inline int name(A&&...) {                              \
    static_assert(details::always_false<A...>::value, message); \
    return 0;                                            \
  }

CUDA_CPU_CG_UNSUPPORTED_TYPE(multi_grid_group,
                             "cooperative_groups::multi_grid_group (this_multi_grid) is not supported on the CPU backend")
CUDA_CPU_CG_UNSUPPORTED_TYPE(cluster_group,
                             "cooperative_groups::cluster_group (this_cluster) is not supported on the CPU backend")
CUDA_CPU_CG_UNSUPPORTED_FUNCTION(this_multi_grid,
                                 "cooperative_groups::this_multi_grid (multi-grid groups) is not supported on the CPU backend")
CUDA_CPU_CG_UNSUPPORTED_FUNCTION(this_cluster,
                                 "cooperative_groups::this_cluster (thread block clusters) is not supported on the CPU backend")
CUDA_CPU_CG_UNSUPPORTED_FUNCTION(memcpy_async,
                                 "cooperative_groups::memcpy_async is not supported on the CPU backend (use "
                                 "cuda::memcpy_async with a cuda::pipeline, or __pipeline_memcpy_async)")
CUDA_CPU_CG_UNSUPPORTED_FUNCTION(wait, "cooperative_groups::wait (of memcpy_async) is not supported on the CPU backend")
template <unsigned int N, typename... A>
inline int wait_prior(A&&...) {
  static_assert(details::always_false<A...>::value,
                "cooperative_groups::wait_prior (of memcpy_async) is not supported on the CPU backend");
  return 0;
}
CUDA_CPU_CG_UNSUPPORTED_FUNCTION(invoke_one, "cooperative_groups::invoke_one is not supported on the CPU backend")
CUDA_CPU_CG_UNSUPPORTED_FUNCTION(invoke_one_broadcast,
                                 "cooperative_groups::invoke_one_broadcast is not supported on the CPU backend")
#undef CUDA_CPU_CG_UNSUPPORTED_TYPE
#undef CUDA_CPU_CG_UNSUPPORTED_FUNCTION

}  // namespace cooperative_groups

#endif  // CUDA_CPU_COMPAT_COOPERATIVE_GROUPS_H_

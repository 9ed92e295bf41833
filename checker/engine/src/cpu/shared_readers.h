// Who read a shared word (or byte) since the last barrier, in enough detail to say whether a
// write now races with one of those reads. A write races with a read by another thread unless
// both threads are of one warp and a __syncwarp() of that warp came between them; only each
// reader's latest read matters. Eight bytes, so that a shadow word stays a quarter line:
//   - every reader of one warp: the warp's __syncwarp count at the latest read, and up to two
//     lanes that read then (one is enough for any writer but itself);
//   - a reader of any other warp makes every later write a race, whoever writes: the first one
//     is kept, to be named.
// Used alike by the callbacks' fast path (asan_callbacks.cpp) and the full check.
#pragma once

#include <cstdint>

#include "cuda_thread.h"

namespace engine::cpu {

struct SharedReaders {
  std::uint16_t first = 0;  // the first reader (thread + 1); 0: none
  std::uint16_t other = 0;  // the first reader outside first's warp (thread + 1); 0: none
  std::uint16_t sync = 0;   // first's warp's __syncwarp count at that warp's latest read
  std::uint16_t last_lane : 5, second_lane : 5, has_second : 1;
  // Two flags of the shadow word that holds these readers (AccessChecks::Word), kept in these
  // spare bits so that the word is 16 bytes. A byte's readers leave them 0.
  std::uint16_t word_reported : 1, word_by_bytes : 1;
  SharedReaders() : last_lane(0), second_lane(0), has_second(0), word_reported(0), word_by_bytes(0) {}

  static unsigned warp_of(std::uint16_t thread) { return (thread - 1u) / kWarpSize; }
  static unsigned lane_of(std::uint16_t thread) { return (thread - 1u) % kWarpSize; }
  std::uint16_t thread_of_lane(unsigned lane) const {
    return static_cast<std::uint16_t>(warp_of(first) * kWarpSize + lane + 1u);
  }

  // A read by `me`, whose warp's __syncwarp count is `sync_now`.
  void note(std::uint16_t me, std::uint16_t sync_now) {
    const auto lane = static_cast<std::uint16_t>(lane_of(me));
    if (first == 0) {
      first = me, sync = sync_now, last_lane = lane, has_second = 0;
    } else if (warp_of(me) != warp_of(first)) {
      if (other == 0) other = me;
    } else if (sync != sync_now) {
      sync = sync_now, last_lane = lane, has_second = 0;
    } else if (lane != last_lane && !has_second) {
      second_lane = lane, has_second = 1;
    }
  }

  // A reader whose read a write by `writer` now is not ordered after; 0: none. `sync_now`:
  // the __syncwarp count of the writer's warp now (it matters only when that is first's warp).
  std::uint16_t unordered_with(std::uint16_t writer, std::uint16_t sync_now) const {
    if (first == 0) return 0;
    if (warp_of(writer) != warp_of(first)) return first;
    if (other != 0) return other;
    if (sync != sync_now) return 0;  // every read came before a __syncwarp() of the writer's warp
    if (thread_of_lane(last_lane) != writer) return thread_of_lane(last_lane);
    return has_second ? thread_of_lane(second_lane) : 0;
  }

  // Whether a read by any thread leaves these readers as they are, whatever it changes in
  // them that no later write looks at: readers in two warps make every write a race.
  bool settled_for_all() const { return other != 0; }
  // Whether a read by a thread of first's warp, while that warp's __syncwarp count is `sync`,
  // leaves them as they are: two lanes read at that count.
  bool settled_for_warp() const { return first != 0 && other == 0 && has_second; }
};
static_assert(sizeof(SharedReaders) == 8, "a shadow word is 16 bytes: its readers take 8");

}  // namespace engine::cpu

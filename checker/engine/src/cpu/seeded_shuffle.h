// The shuffled thread order's permutations: a phase's queue of threads, a cluster's turns. The
// same seed gives the same order (a run can be repeated), and a permutation costs a few
// instructions an element: the engine shuffles a block's queue at every barrier, where seeding
// a Mersenne Twister (312 words) and a 64-bit division per element were a twentieth of a
// checker's run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace engine::cpu {

// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
// well mixed from any seed, consecutive seeds included.
inline std::uint64_t split_mix_next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Fisher-Yates: each element's place drawn below its index by a multiply and a shift (Lemire,
// "Fast random integer generation in an interval", 2019), whose bias at these sizes (at most
// 2^-54) no test could see.
template <class T>
void shuffle_seeded(std::vector<T>& items, std::uint64_t seed) {
  std::uint64_t state = seed;
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto draw = static_cast<unsigned __int128>(split_mix_next(state)) * i;
    std::swap(items[i - 1], items[static_cast<std::size_t>(draw >> 64)]);
  }
}

}  // namespace engine::cpu

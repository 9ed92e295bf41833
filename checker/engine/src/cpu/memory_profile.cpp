#include "memory_profile.h"

#include <algorithm>
#include <utility>

#include "launch_report.h"

namespace engine::cpu {
namespace {

constexpr unsigned kBanks = 32;
constexpr unsigned kLanes = 32;
constexpr unsigned kSector = 32;

std::uintptr_t key_of(const MemoryProfile::Entry& e) { return e.site * 4 + e.shared * 2u + e.write; }

// Loads of 8 and 16 bytes are served in fewer phases when every lane n shares its address
// with lane n ^ 1, or every lane with lane n ^ 2 (NVIDIA's description of LDS.128 on
// Volta and later; docs/dev/profile.md).
bool pairs_share_addresses(const MemoryProfile::Lane (&lanes)[32], unsigned partner) {
  for (unsigned n = 0; n < kLanes; ++n) {
    const auto& a = lanes[n];
    const auto& b = lanes[n ^ partner];
    if (!a.active) continue;
    if (!b.active || a.address != b.address) return false;
  }
  return true;
}

}  // namespace

MemoryProfile::SharedCost MemoryProfile::shared_request(const Lane (&lanes)[32], bool write) {
  unsigned size = 0;
  for (const Lane& l : lanes)
    if (l.active) size = std::max(size, l.size);
  // The warp's lanes are served in phases: the whole warp for accesses of up to 4 bytes,
  // half-warps for 8 bytes, quarter-warps for 16 (128 bytes a phase).
  unsigned lanes_per_phase = size <= 4 ? 32 : size <= 8 ? 16 : 8;
  if (!write && lanes_per_phase < 32 &&
      (pairs_share_addresses(lanes, 1) || pairs_share_addresses(lanes, 2)))
    lanes_per_phase *= 2;
  SharedCost cost;
  for (unsigned first = 0; first < kLanes; first += lanes_per_phase) {
    // Distinct 4-byte words per bank in this phase; the same word for several lanes is
    // one access (a broadcast).
    std::uintptr_t words[kBanks][kLanes * 4];
    unsigned count[kBanks] = {};
    bool any = false;
    for (unsigned n = first; n < first + lanes_per_phase; ++n) {
      const Lane& l = lanes[n];
      if (!l.active) continue;
      any = true;
      for (std::uintptr_t w = l.address / 4; w <= (l.address + l.size - 1) / 4; ++w) {
        unsigned bank = static_cast<unsigned>(w % kBanks);
        bool seen = false;
        for (unsigned i = 0; i < count[bank] && !seen; ++i) seen = words[bank][i] == w;
        if (!seen) words[bank][count[bank]++] = w;
      }
    }
    if (!any) continue;
    unsigned ways = *std::max_element(count, count + kBanks);
    cost.wavefronts += ways;
    cost.ideal += 1;
    cost.worst_ways = std::max(cost.worst_ways, ways);
  }
  return cost;
}

MemoryProfile::GlobalCost MemoryProfile::global_request(const Lane (&lanes)[32]) {
  std::uintptr_t sectors[kLanes * 2];
  unsigned count = 0;
  std::uintptr_t bytes = 0;
  for (const Lane& l : lanes) {
    if (!l.active) continue;
    for (std::uintptr_t s = l.address / kSector; s <= (l.address + l.size - 1) / kSector; ++s)
      if (std::find(sectors, sectors + count, s) == sectors + count) sectors[count++] = s;
  }
  // The fewest sectors the bytes moved could fit in: the distinct bytes, packed.
  if (count) {
    std::pair<std::uintptr_t, std::uintptr_t> ranges[kLanes];
    unsigned n = 0;
    for (const Lane& l : lanes)
      if (l.active) ranges[n++] = {l.address, l.address + l.size};
    std::sort(ranges, ranges + n);
    std::uintptr_t end = 0;
    for (unsigned i = 0; i < n; ++i) {
      std::uintptr_t from = std::max(ranges[i].first, end);
      if (ranges[i].second > from) bytes += ranges[i].second - from;
      end = std::max(end, ranges[i].second);
    }
  }
  return GlobalCost{count, static_cast<unsigned>((bytes + kSector - 1) / kSector)};
}

void MemoryProfile::prepare(unsigned threads) {
  logs_.assign(threads, {});
  for (auto& log : logs_) log.reserve(256);
}

void MemoryProfile::add_request(const Entry& first, const Lane (&lanes)[32]) {
  AccessProfile& p = lines_[key_of(first)];
  p.site = first.site;
  p.shared = first.shared;
  p.write = first.write;
  p.access_size = std::max<unsigned>(p.access_size, first.size);
  ++p.requests;
  for (const Lane& l : lanes) p.accesses += l.active;
  if (first.shared) {
    SharedCost c = shared_request(lanes, first.write);
    p.wavefronts += c.wavefronts;
    p.ideal_wavefronts += c.ideal;
    p.ways_sum += c.worst_ways;
    p.conflicted_requests += c.worst_ways > 1;
    p.worst_ways = std::max(p.worst_ways, c.worst_ways);
  } else {
    GlobalCost c = global_request(lanes);
    p.sectors += c.sectors;
    p.ideal_sectors += c.ideal;
    p.worst_sectors = std::max(p.worst_sectors, c.sectors);
  }
}

void MemoryProfile::end_phase(unsigned threads) {
  for (unsigned warp_first = 0; warp_first < threads; warp_first += kLanes) {
    unsigned lanes_here = std::min(kLanes, threads - warp_first);
    std::vector<Entry>* log[kLanes] = {};
    std::size_t longest = 0;
    for (unsigned l = 0; l < lanes_here; ++l) {
      log[l] = &logs_[warp_first + l];
      longest = std::max(longest, log[l]->size());
    }
    if (longest == 0) continue;
    // Converged warps (the usual case) log the same locations in the same order: the j-th
    // entries form one request. Where lanes took different paths, the i-th access of each
    // lane at one location forms a request.
    bool converged = true;
    for (unsigned l = 0; l < lanes_here && converged; ++l) converged = log[l]->size() == longest;
    if (converged) {
      for (std::size_t j = 0; j < longest && converged; ++j)
        for (unsigned l = 1; l < lanes_here && converged; ++l) converged = key_of((*log[l])[j]) == key_of((*log[0])[j]);
    }
    if (converged) {
      for (std::size_t j = 0; j < longest; ++j) {
        Lane lanes[kLanes] = {};
        for (unsigned l = 0; l < lanes_here; ++l) {
          const Entry& e = (*log[l])[j];
          lanes[l] = Lane{true, e.address, e.size};
        }
        add_request((*log[0])[j], lanes);
      }
    } else {
      struct Request {
        Entry first;
        Lane lanes[kLanes];
      };
      std::unordered_map<std::uintptr_t, std::vector<Request>> by_key;  // key -> the i-th requests
      for (unsigned l = 0; l < lanes_here; ++l) {
        std::unordered_map<std::uintptr_t, std::size_t> seen;
        for (const Entry& e : *log[l]) {
          std::uintptr_t key = key_of(e);
          std::size_t i = seen[key]++;
          std::vector<Request>& list = by_key[key];
          if (list.size() <= i) list.push_back(Request{e, {}});
          list[i].lanes[l] = Lane{true, e.address, e.size};
        }
      }
      for (auto& [key, list] : by_key)
        for (const Request& r : list) add_request(r.first, r.lanes);
    }
    for (unsigned l = 0; l < lanes_here; ++l) log[l]->clear();
  }
}

void MemoryProfile::fold_into(LaunchReport& r) const {
  while (r.lock.test_and_set(std::memory_order_acquire)) {
  }
  if (truncated_) r.profile_truncated = 1;
  for (const auto& [key, p] : lines_) {
    RawProfileLine* line = nullptr;
    for (std::uint32_t i = 0; i < r.profile_lines && !line; ++i)
      if (r.profile[i].site == p.site && r.profile[i].shared == p.shared && r.profile[i].write == p.write)
        line = &r.profile[i];
    if (!line) {
      if (r.profile_lines == kMaxProfileLines) {
        r.profile_truncated = 1;
        continue;
      }
      line = &r.profile[r.profile_lines++];
      *line = RawProfileLine{};
      line->site = p.site;
      line->shared = p.shared;
      line->write = p.write;
    }
    line->access_size = std::max<std::uint32_t>(line->access_size, p.access_size);
    line->worst_ways = std::max<std::uint32_t>(line->worst_ways, p.worst_ways);
    line->worst_sectors = std::max<std::uint32_t>(line->worst_sectors, p.worst_sectors);
    line->requests += p.requests;
    line->accesses += p.accesses;
    line->wavefronts += p.wavefronts;
    line->ideal_wavefronts += p.ideal_wavefronts;
    line->ways_sum += p.ways_sum;
    line->conflicted_requests += p.conflicted_requests;
    line->sectors += p.sectors;
    line->ideal_sectors += p.ideal_sectors;
  }
  r.lock.clear(std::memory_order_release);
}

}  // namespace engine::cpu

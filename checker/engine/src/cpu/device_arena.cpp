#include "device_arena.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/backend.h"
#include "page_size.h"

namespace engine::cpu {
namespace {
std::uintptr_t round_down(std::uintptr_t v, std::uintptr_t a) { return v / a * a; }
}  // namespace

DeviceArena& DeviceArena::instance() {
  static DeviceArena arena;
  return arena;
}

// The address space reserved is kSlots slots (16 TiB), or fewer where the machine has less:
// an arm64 kernel built with 39-bit addresses gives a process 512 GiB. PUZZLES_CPU_BUFFER_SLOTS
// asks for fewer (an emulator such as qemu-user spends time on every reserved page).
DeviceArena::DeviceArena() {
  std::size_t wanted = kSlots;
  if (const char* text = std::getenv("PUZZLES_CPU_BUFFER_SLOTS")) {
    char* end = nullptr;
    unsigned long n = std::strtoul(text, &end, 10);
    if (end == text || *end != '\0' || n < 1 || n > kSlots)
      throw Error("PUZZLES_CPU_BUFFER_SLOTS must be a number from 1 to " + std::to_string(kSlots) + ", not '" +
                  text + "'");
    wanted = n;
  }
  void* p = MAP_FAILED;
  for (slot_count_ = wanted; slot_count_ >= 1; slot_count_ /= 2) {
    p = mmap(nullptr, slot_count_ * kSlotSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED || slot_count_ <= 8) break;
  }
  if (p == MAP_FAILED)
    throw Error(std::string("cannot reserve address space for CPU-backend buffers: ") +
                std::strerror(errno));
  base_ = reinterpret_cast<std::uintptr_t>(p);
}

void* DeviceArena::allocate(std::size_t bytes, std::size_t element_size, const std::string& name) {
  if (bytes > kSlotSize / 2)
    throw BufferRefused(BufferRefused::Limit::buffer_size, kSlotSize / 2,
                        "buffer " + name + " is too large for the CPU backend (" + std::to_string(bytes) +
                            " bytes; at most 2 GiB)");
  for (std::size_t i = 0; i < slot_count_; ++i) {
    if (slots_[i].live) continue;
    // The buffer ends in the middle of its slot, so that indices past either end stay
    // inside the slot. Its start is 256-byte aligned, as cudaMalloc promises.
    std::uintptr_t map_end = base_ + i * kSlotSize + kSlotSize / 2;
    std::uintptr_t begin = round_down(map_end - bytes, 256);
    const std::uintptr_t page = page_size();
    std::uintptr_t map_begin = round_down(begin, page);
    if (map_begin == map_end) map_begin -= page;  // zero-byte buffers still get a page
    void* p = mmap(reinterpret_cast<void*>(map_begin), map_end - map_begin, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p == MAP_FAILED)
      throw BufferRefused(BufferRefused::Limit::host_memory, 0,
                          "out of memory for buffer " + name + " (" + std::to_string(bytes) + " bytes)");
    std::memset(p, kCanaryByte, map_end - map_begin);
    slots_[i] = Buffer{begin, begin + bytes, map_begin, map_end, element_size, name, true};
    begin_[i] = begin;
    end_[i] = begin + bytes;
    return reinterpret_cast<void*>(begin);
  }
  throw BufferRefused(BufferRefused::Limit::buffer_count, slot_count_,
                      "too many buffers at once on the CPU backend (at most " + std::to_string(slot_count_) + ")");
}

void DeviceArena::release(void* p) {
  auto address = reinterpret_cast<std::uintptr_t>(p);
  if (!contains(address)) return;
  Buffer& b = slots_[(address - base_) >> kSlotBits];
  if (!b.live || b.begin != address) return;
  mmap(reinterpret_cast<void*>(b.map_begin), b.map_end - b.map_begin, PROT_NONE,
       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  b.live = false;
  begin_[(address - base_) >> kSlotBits] = end_[(address - base_) >> kSlotBits] = 0;
}

std::uint64_t DeviceArena::live_bytes() const {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < slot_count_; ++i)
    if (slots_[i].live) sum += slots_[i].end - slots_[i].begin;
  return sum;
}

std::vector<DeviceArena::Damage> DeviceArena::damaged_canaries() const {
  std::vector<Damage> damage;
  for (std::size_t i = 0; i < slot_count_; ++i) {
    const Buffer& b = slots_[i];
    if (!b.live) continue;
    auto check = [&](std::uintptr_t from, std::uintptr_t to) {
      for (std::uintptr_t a = from; a < to; ++a)
        if (*reinterpret_cast<const unsigned char*>(a) != kCanaryByte) {
          damage.push_back({static_cast<int>(i), a});
          return true;
        }
      return false;
    };
    if (!check(b.map_begin, b.begin)) check(b.end, b.map_end);
  }
  return damage;
}

}  // namespace engine::cpu

// __pipeline_memcpy_async, __pipeline_commit and __pipeline_wait_prior on the CPU backend.
// A copy reads its source when it is issued and lands in shared memory at some point before
// the wait that covers it: at once in reverse thread order, at the commit in shuffled order,
// at the wait in forward order. Until that wait, any access to its destination (by any
// thread) and any write to its source is a finding: on a GPU the copy may not have happened.
#include <cstring>

#include "worker.h"

namespace engine::cpu {
namespace {

Worker& worker_here() {
  if (current_worker == nullptr || current_thread == nullptr) std::abort();
  return *current_worker;
}

[[noreturn]] void misuse(Worker& w, unsigned line, const char* file, const char* op, const char* what) {
  RawFinding f{};
  f.kind = FindingKind::warp_misuse;
  f.block = w.current_block();
  f.thread = current_thread->linear;
  f.op = op;
  f.line = line;
  f.file = file;
  std::snprintf(f.detail, sizeof f.detail, "%s", what);
  w.stop_grid_with(f);
}

void land(Worker& w, PendingCopy& c, CudaThread& t) {
  if (c.landed) return;
  w.checks().copy_landed(c, t);
  c.landed = true;
}

}  // namespace
}  // namespace engine::cpu

namespace engine::cpu {

void issue_async_copy(void* dst, const void* src, std::size_t size, std::size_t zero_fill, unsigned line,
                      const char* file, const char* op, std::uintptr_t site) {
  Worker& w = worker_here();
  CudaThread& t = *current_thread;
  if (size != 4 && size != 8 && size != 16) misuse(w, line, file, op, "it copies 4, 8 or 16 bytes");
  if (zero_fill > size) misuse(w, line, file, op, "its zero-fill is larger than the copy");
  auto d = reinterpret_cast<std::uintptr_t>(dst), s = reinterpret_cast<std::uintptr_t>(src);
  if ((d | s) & (size - 1)) misuse(w, line, file, op, "its source and destination must be aligned to its size");
  PendingCopy c;
  c.dst = d;
  c.src = s;
  c.size = size;
  c.zero_fill = zero_fill;
  c.group = PendingCopies::kOpenGroup;
  c.line = line;
  c.file = file;
  c.site = site;
  w.checks().copy_issued(c, t);  // stops the thread if the source is outside its buffer
  std::memcpy(c.data, src, size - zero_fill);
  if (w.plan().options.order == engine::ThreadOrder::reverse) land(w, c, t);
  t.copies.copies.push_back(c);
}

}  // namespace engine::cpu

using namespace engine::cpu;

void cuda_cpu::pipeline_memcpy_async(void* dst, const void* src, std::size_t size, std::size_t zero_fill,
                                     unsigned line, const char* file) {
  issue_async_copy(dst, src, size, zero_fill, line, file, "__pipeline_memcpy_async");
}

void cuda_cpu::pipeline_commit(unsigned, const char*) {
  Worker& w = worker_here();
  CudaThread& t = *current_thread;
  std::uint32_t group = t.copies.committed++;
  for (PendingCopy& c : t.copies.copies) {
    if (c.group != PendingCopies::kOpenGroup) continue;
    c.group = group;
    if (w.plan().options.order == engine::ThreadOrder::shuffled) land(w, c, t);
  }
}

void cuda_cpu::pipeline_wait_prior(std::size_t keep, unsigned, const char*) {
  Worker& w = worker_here();
  CudaThread& t = *current_thread;
  std::vector<PendingCopy>& copies = t.copies.copies;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < copies.size(); ++i) {
    PendingCopy& c = copies[i];
    bool done = c.group != PendingCopies::kOpenGroup && std::size_t{c.group} + keep < t.copies.committed;
    if (!done) {
      copies[kept++] = c;
      continue;
    }
    land(w, c, t);
    w.checks().copy_waited(c, t);
  }
  copies.resize(kept);
}

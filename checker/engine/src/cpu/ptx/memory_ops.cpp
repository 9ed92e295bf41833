// PTX that moves data or orders threads: ld, st, cvta, cp.async and its groups, bar.sync,
// fences. Every access goes through the same checks as the kernel's own C++ accesses, as
// the thread's, at the statement's line.
#include <cstdio>
#include <cstring>

#include "../symbol_table.h"
#include "lane.h"

namespace engine::cpu::ptx_run {
namespace {

unsigned bytes_of(ptx::Type t) { return ptx::bits_of(t) / 8; }

// Where an ld/st/cp.async address points on this machine, and that it is where the
// instruction's state space says.
std::uintptr_t host_address(Lane& lane, ptx::Space space, std::uint64_t a, unsigned size) {
  if (space == ptx::Space::shared) return shared_host_address(lane, a, size);
  return static_cast<std::uintptr_t>(a);  // .global and generic addresses are the kernel's pointers
}

void load_store(Lane& lane, const ptx::Instruction& in) {
  bool load = in.op == ptx::Op::ld;
  const ptx::Operand& addr = load ? in.operands[1] : in.operands[0];
  const ptx::Operand& data = load ? in.operands[0] : in.operands[1];
  unsigned element = bytes_of(in.type);
  unsigned size = element * in.vector;
  std::uintptr_t host;
  if (in.space == ptx::Space::shared_cluster) {
    // Distributed shared memory: this CTA's or another's of the cluster. Another CTA's
    // accesses are not race-checked (its checks follow its own threads only).
    ClusterPlace place = cluster_place(lane, address(lane, addr), size, ClusterAccess{false, !load});
    require_cluster_barrier(lane, place, ClusterAccess{false, !load});
    host = place.host;
    if (!place.remote()) access(lane, *lane.thread, host, size, !load);
    else if (!load) place.owner->checks().written_from_other_cta(host, size);
  } else {
    host = host_address(lane, in.space, address(lane, addr), size);
    access(lane, *lane.thread, host, size, !load);
  }
  auto* p = reinterpret_cast<unsigned char*>(host);
  for (unsigned i = 0; i < in.vector; ++i) {
    const ptx::Operand& reg = in.vector == 1 ? data : data.elements[i];
    if (load) {
      std::uint64_t v = 0;
      std::memcpy(&v, p + i * element, element);
      // Loads of signed narrow types sign-extend into the register.
      if (ptx::is_signed(in.type) && element < 8 && ((v >> (8 * element - 1)) & 1))
        v |= ~((std::uint64_t{1} << (8 * element)) - 1);
      set(lane, reg, v);
    } else {
      std::uint64_t v = value(lane, reg);
      std::memcpy(p + i * element, &v, element);
    }
  }
}

void async_copy(Lane& lane, const ptx::Instruction& in) {
  const auto& o = in.operands;
  std::uint64_t copy = value(lane, o[2]);
  std::uint64_t source = o.size() > 3 ? value(lane, o[3]) : copy;
  char what[160];
  if (copy != 4 && copy != 8 && copy != 16) {
    std::snprintf(what, sizeof what, "it copies %llu bytes; cp.async copies 4, 8 or 16",
                  static_cast<unsigned long long>(copy));
    refuse(lane, what);
  }
  if (in.cache_global && copy != 16) refuse(lane, "cp.async.cg copies 16 bytes only (cp.async.ca copies 4, 8 or 16)");
  if (source > copy) {
    std::snprintf(what, sizeof what, "its source size %llu is larger than the %llu bytes it copies",
                  static_cast<unsigned long long>(source), static_cast<unsigned long long>(copy));
    refuse(lane, what);
  }
  std::uintptr_t dst = shared_host_address(lane, address(lane, o[0]), static_cast<unsigned>(copy));
  auto src = static_cast<std::uintptr_t>(address(lane, o[1]));
  issue_async_copy(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), copy, copy - source,
                   lane.statement->line, lane.statement->file,
                   current_worker->plan().report->intern(lane.instruction->text.c_str()), lane.site);
}

}  // namespace

void run_memory(Lane& lane, const ptx::Instruction& in) {
  const auto& o = in.operands;
  const char* file = lane.statement->file;
  unsigned line = lane.statement->line;
  switch (in.op) {
    case ptx::Op::ld:
    case ptx::Op::st:
      load_store(lane, in);
      return;
    case ptx::Op::cvta: {
      std::uint64_t v = value(lane, o[1]);
      bool shared = in.space == ptx::Space::shared || in.space == ptx::Space::shared_cluster;
      std::uint64_t base = shared ? shared_window_base() : 0;
      std::uint64_t r = in.to_space ? v - base : v + base;
      set(lane, o[0], in.type == ptx::Type::u32 ? r & 0xFFFFFFFFu : r);
      return;
    }
    case ptx::Op::cp_async:
      async_copy(lane, in);
      return;
    case ptx::Op::cp_async_commit:
      cuda_cpu::pipeline_commit(line, file);
      return;
    case ptx::Op::cp_async_wait_group:
      cuda_cpu::pipeline_wait_prior(static_cast<std::size_t>(value(lane, o[0])), line, file);
      return;
    case ptx::Op::cp_async_wait_all:
      // Waits for every copy, committed or not: as a commit and a wait for all groups.
      cuda_cpu::pipeline_commit(line, file);
      cuda_cpu::pipeline_wait_prior(0, line, file);
      return;
    case ptx::Op::bar_sync:
    case ptx::Op::bar_arrive: {
      std::uint64_t id = value(lane, o[0]);
      unsigned block = current_worker->plan().threads_per_block;
      std::uint64_t count = o.size() < 2 ? block : value(lane, o[1]);
      if (id > 15) refuse(lane, "a barrier number must be 0 to 15");
      if (count == 0 || count % 32 != 0 || count > ((block + 31) / 32) * 32)
        refuse(lane, "a barrier's thread count must be a multiple of 32, at most the block's threads");
      if (in.op == ptx::Op::bar_sync && id == 0 && count >= block) {
        // The block's barrier: __syncthreads().
        cuda_cpu::syncthreads(cuda_cpu::BarrierReduce::none, 0, line, file);
        return;
      }
      WaitReason where;
      where.line = line;
      where.file = file;
      where.site = lane.site;
      where.name = in.text.c_str();
      current_worker->named_barrier(static_cast<unsigned>(id), static_cast<unsigned>(count), in.op == ptx::Op::bar_sync,
                                    where);
      return;
    }
    case ptx::Op::fence:
      // A proxy fence that covers shared memory (not .global alone) orders this thread's
      // generic writes before later async-proxy reads of them (tensor stores, wgmma).
      if (in.text.rfind("fence.proxy.async", 0) == 0 &&
          (in.text == "fence.proxy.async" || in.text.find(".shared") != std::string::npos))
        AccessChecks::proxy_fence(*lane.thread);
      return;
    case ptx::Op::nanosleep:
      // The CPU backend runs a block's threads one at a time and makes every write visible at
      // once: memory fences order nothing more, and there is nobody to sleep for.
      return;
    case ptx::Op::trap:
      cuda_cpu::trap(line, file);
    case ptx::Op::ret:
      refuse(lane, "ret and exit inside inline PTX are not supported by the CPU backend (return from the C++ code)");
    default:
      refuse(lane, "this instruction is parsed but not implemented by the CPU backend");
  }
}

}  // namespace engine::cpu::ptx_run

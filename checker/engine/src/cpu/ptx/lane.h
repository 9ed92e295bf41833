// One CUDA thread running one inline-PTX statement on the CPU backend: its registers (the
// statement's operands and its .reg declarations) and the reading and writing of operands.
// Instructions that the whole warp executes together (ldmatrix, mma.sync) meet as warp
// collectives, each lane bringing its Lane; the last to arrive does the work for all
// (matrix_ops.cpp).
#pragma once

#include <cstdint>

#include "cuda_cpu/inline_ptx.h"
#include "ptx/program.h"
#include "../worker.h"

namespace engine::cpu::ptx_run {

struct Lane {
  const ptx::Program* program = nullptr;
  const cuda_cpu::ptx::Statement* statement = nullptr;
  std::uint64_t* registers = nullptr;
  CudaThread* thread = nullptr;
  const ptx::Instruction* instruction = nullptr;  // the one being executed
  // Where the statement is in the kernel's code: the return address of execute(), so that
  // findings name the asm line and, through the inlined frames, the kernel's line that
  // called the wrapper holding it.
  Site site = 0;
  // The asm statement's operands as bound to the kernel's C++ values (outputs: their addresses).
  const cuda_cpu::ptx::Bound* bound = nullptr;
  unsigned bound_count = 0;
};

// An operand's value: a register (its low `bits` bits), an immediate, a special register.
std::uint64_t value(const Lane& lane, const ptx::Operand& o);
// Writes a register operand (the whole register; narrower types keep their low bits).
void set(Lane& lane, const ptx::Operand& o, std::uint64_t bits);
// The address an [address] operand names: its register's value plus the offset.
std::uint64_t address(const Lane& lane, const ptx::Operand& o);

// Stops the grid with an inline_ptx finding at the statement's line (on the current thread).
[[noreturn]] void refuse(const Lane& lane, const char* what);
// The host address behind a shared-window address, checked to lie in the block's shared
// memory; `size` bytes from there. Refuses it (a finding) otherwise.
std::uintptr_t shared_host_address(const Lane& lane, std::uint64_t window_address, unsigned size);
// The host address of shared address 0 for the running block: its lowest shared variable,
// rounded down to 1024 bytes, so that shared addresses are small (descriptors keep 18 bits
// of them, as on a GPU) and aligned as the host's (swizzles follow address bits).
std::uintptr_t shared_window_base();
// Distributed shared memory (cluster_memory.cpp). A .shared::cluster address is a CTA's shared
// address with, above its 24 bits, the CTA's rank + 1 (what mapa gives); without them it is the
// thread's own CTA, as on a GPU.
struct ClusterPlace {
  Worker* owner = nullptr;  // the worker running that CTA
  unsigned rank = 0;
  std::uintptr_t host = 0;  // the host address there
  bool remote() const { return owner != current_worker; }
};
std::uint64_t cluster_address(unsigned rank, std::uint64_t shared_address);
// How an instruction uses another CTA's shared memory, for a cluster_order finding.
struct ClusterAccess {
  bool mbarrier = false;  // one of its mbarriers (else plain shared memory)
  bool write = false;
};
// Checked: the rank is in the cluster, that CTA has not exited (a cluster_order finding), and
// `size` bytes from there lie in its shared memory (an inline_ptx finding otherwise).
ClusterPlace cluster_place(const Lane& lane, std::uint64_t cluster_address, unsigned size, ClusterAccess how = {});
// A use of another CTA's shared memory that nothing orders after that CTA started: before any
// cluster barrier, the other CTA may not even be running yet. A cluster_order finding.
void require_cluster_barrier(const Lane& lane, const ClusterPlace& place, ClusterAccess how);
// Stops the grid with a cluster_order finding at the statement's line.
[[noreturn]] void cluster_order_finding(const Lane& lane, Finding::ClusterUse why, unsigned rank, ClusterAccess how);

// A load or store the statement makes for the thread `t` (another lane, for collectives):
// checked and profiled as that thread's access at the statement's line.
void access(const Lane& lane, CudaThread& t, std::uintptr_t address, unsigned size, bool write);

// The instructions, by the file that implements them.
void run_scalar(Lane& lane, const ptx::Instruction& in);     // scalar.cpp
void run_memory(Lane& lane, const ptx::Instruction& in);     // memory_ops.cpp
void run_matrix(Lane& lane, const ptx::Instruction& in);     // matrix_ops.cpp

}  // namespace engine::cpu::ptx_run

// Runs an inline-PTX statement for the current CUDA thread (cuda_cpu/inline_ptx.h): binds its
// operands to registers, interprets its instructions in order (with @p guards and branches),
// and writes the outputs back to the kernel's C++ variables.
#include <cstdio>
#include <cstring>

#include "../symbol_table.h"
#include "hopper.h"
#include "lane.h"

namespace engine::cpu::ptx_run {
namespace {

Worker& worker_here() {
  if (current_worker == nullptr || current_thread == nullptr) {
    std::fprintf(stderr, "inline PTX ran outside a kernel\n");
    std::abort();
  }
  return *current_worker;
}

std::uint64_t mask_to(unsigned bits, std::uint64_t v) { return bits >= 64 ? v : v & ((std::uint64_t{1} << bits) - 1); }

std::uint64_t special_value(const Lane& lane, ptx::Special s) {
  const CudaThread& t = *lane.thread;
  const GridPlan& plan = current_worker->plan();
  Dim3 block = plan.config.grid.unlinear(current_worker->current_block());
  switch (s) {
    case ptx::Special::laneid: return t.lane;
    case ptx::Special::warpid: return t.warp;
    case ptx::Special::nwarpid: return (plan.threads_per_block + kWarpSize - 1) / kWarpSize;
    case ptx::Special::tid_x: return t.thread_idx.x;
    case ptx::Special::tid_y: return t.thread_idx.y;
    case ptx::Special::tid_z: return t.thread_idx.z;
    case ptx::Special::ntid_x: return plan.config.block.x;
    case ptx::Special::ntid_y: return plan.config.block.y;
    case ptx::Special::ntid_z: return plan.config.block.z;
    case ptx::Special::ctaid_x: return block.x;
    case ptx::Special::ctaid_y: return block.y;
    case ptx::Special::ctaid_z: return block.z;
    case ptx::Special::nctaid_x: return plan.config.grid.x;
    case ptx::Special::nctaid_y: return plan.config.grid.y;
    case ptx::Special::nctaid_z: return plan.config.grid.z;
    case ptx::Special::lanemask_eq: return 1u << t.lane;
    case ptx::Special::lanemask_lt: return (1u << t.lane) - 1u;
    case ptx::Special::lanemask_le: return t.lane == 31 ? 0xFFFFFFFFu : (2u << t.lane) - 1u;
    case ptx::Special::lanemask_gt: return t.lane == 31 ? 0u : ~((2u << t.lane) - 1u);
    case ptx::Special::lanemask_ge: return ~((1u << t.lane) - 1u);
    case ptx::Special::clock:
    case ptx::Special::clock64:
    case ptx::Special::globaltimer: {
      // A counter that only goes up, for kernels that time themselves.
      static thread_local std::uint64_t ticks = 0;
      return ticks += 1000;
    }
    case ptx::Special::smid: return 0;
    case ptx::Special::nsmid: return 1;
    case ptx::Special::dynamic_smem_size: return plan.config.dynamic_shared_bytes;
    case ptx::Special::total_smem_size: {
      std::size_t total = plan.config.dynamic_shared_bytes;
      for (const auto& v : plan.shared) total += v.size;
      return total;
    }
    // Without a cluster launch, every block is a cluster of one.
    case ptx::Special::cluster_ctarank: return current_worker->rank();
    case ptx::Special::cluster_nctarank: return plan.config.cluster.count();
    case ptx::Special::cluster_ctaid_x: return block.x % plan.config.cluster.x;
    case ptx::Special::cluster_ctaid_y: return block.y % plan.config.cluster.y;
    case ptx::Special::cluster_ctaid_z: return block.z % plan.config.cluster.z;
    case ptx::Special::cluster_nctaid_x: return plan.config.cluster.x;
    case ptx::Special::cluster_nctaid_y: return plan.config.cluster.y;
    case ptx::Special::cluster_nctaid_z: return plan.config.cluster.z;
    case ptx::Special::clusterid_x: return block.x / plan.config.cluster.x;
    case ptx::Special::clusterid_y: return block.y / plan.config.cluster.y;
    case ptx::Special::clusterid_z: return block.z / plan.config.cluster.z;
    case ptx::Special::is_explicit_cluster: return plan.config.cluster.count() > 1 ? 1 : 0;
    case ptx::Special::none: break;
  }
  return 0;
}

}  // namespace

std::uint64_t value(const Lane& lane, const ptx::Operand& o) {
  switch (o.kind) {
    case ptx::Operand::Kind::reg: {
      std::uint64_t v = lane.registers[o.reg];
      if (o.negated) v = v ? 0 : 1;  // !p
      return v;
    }
    case ptx::Operand::Kind::imm: return static_cast<std::uint64_t>(o.imm);
    case ptx::Operand::Kind::special: return special_value(lane, o.special);
    default: return 0;
  }
}

void set(Lane& lane, const ptx::Operand& o, std::uint64_t bits) {
  if (o.kind == ptx::Operand::Kind::reg) {
    const ptx::Register& r = lane.program->registers[o.reg];
    unsigned width = r.type == ptx::Type::pred ? 1 : ptx::bits_of(r.type);
    lane.registers[o.reg] = r.type == ptx::Type::pred ? (bits != 0) : mask_to(width ? width : 64, bits);
  }
  // A sink (_) or an immediate destination: nothing to keep.
}

std::uint64_t address(const Lane& lane, const ptx::Operand& o) {
  std::uint64_t base = o.reg >= 0 ? lane.registers[o.reg] : 0;
  return base + static_cast<std::uint64_t>(o.imm);
}

void refuse(const Lane& lane, const char* what) {
  Worker& w = worker_here();
  RawFinding f{};
  f.kind = FindingKind::inline_ptx;
  f.block = w.current_block();
  f.thread = lane.thread->linear;
  f.line = lane.statement->line;
  f.file = lane.statement->file;
  f.pc = lane.site;  // resolved with the kernel's line that called the wrapper, when it was one
  f.op = lane.instruction ? w.plan().report->intern(lane.instruction->text.c_str()) : "";
  std::snprintf(f.detail, sizeof f.detail, "%s", what);
  w.stop_grid_with(f);
}

std::uintptr_t shared_window_base() {
  return current_worker ? current_worker->checks().shared_low() & ~std::uintptr_t{1023}
                        : SymbolTable::tls_address(0);
}

std::uintptr_t shared_host_address(const Lane& lane, std::uint64_t window_address, unsigned size) {
  std::uintptr_t base = shared_window_base();
  std::uintptr_t host = base + static_cast<std::uintptr_t>(window_address);
  if (!current_worker->checks().in_shared_memory(host, size)) {
    char what[160];
    std::snprintf(what, sizeof what,
                  "%s uses the shared address %#llx, which is not in the block's shared memory (take shared "
                  "addresses from __cvta_generic_to_shared)",
                  lane.instruction ? lane.instruction->text.c_str() : "the instruction",
                  static_cast<unsigned long long>(window_address));
    refuse(lane, what);
  }
  return host;
}

void access(const Lane& lane, CudaThread& t, std::uintptr_t address, unsigned size, bool write) {
  Worker& w = *current_worker;
  Site site = lane.site;
  if (fast_path.profile) {
    bool shared = address - fast_path.shared_lo < fast_path.shared_span;
    if (shared || address - fast_path.arena_base < DeviceArena::span())
      for (unsigned done = 0; done < size; done += 16)
        fast_path.profile->record(t.linear, site, address + done, size - done < 16 ? size - done : 16, write, shared);
  }
  w.checks().full_check(address, size, write, site, t, true);
}

}  // namespace engine::cpu::ptx_run

// --- The kernel's side (cuda_cpu/inline_ptx.h) -------------------------------------------

cuda_cpu::ptx::Statement::Statement(const char* text_, const char* constraints_, const char* file_, unsigned line_)
    : text(text_), constraints(constraints_), file(file_), line(line_) {
  std::vector<::ptx::Constraint> parsed;
  std::string why;
  if (!::ptx::parse_constraints(constraints, parsed, why)) {
    error = strdup(("the CPU backend does not know " + why).c_str());
    return;
  }
  auto* p = new ::ptx::Program;  // one per statement, for the life of the program
  ::ptx::ParseError e;
  if (!::ptx::parse_program(text, parsed, *p, e)) {
    error = strdup(e.message.c_str());
    delete p;
    return;
  }
  program = p;
}

void cuda_cpu::ptx::execute(const Statement& statement, Bound* operands, unsigned count) {
  using namespace engine::cpu;
  using namespace engine::cpu::ptx_run;
  worker_here();
  Lane lane;
  lane.statement = &statement;
  lane.thread = current_thread;
  lane.site = reinterpret_cast<Site>(__builtin_return_address(0));
  lane.bound = operands;
  lane.bound_count = count;
  if (!statement.program) refuse(lane, statement.error ? statement.error : "its template could not be read");
  const ::ptx::Program& program = *static_cast<const ::ptx::Program*>(statement.program);
  lane.program = &program;
  constexpr std::size_t kInline = 64;
  std::uint64_t inline_registers[kInline];
  std::vector<std::uint64_t> more;
  std::uint64_t* regs = inline_registers;
  if (program.registers.size() > kInline) {
    more.assign(program.registers.size(), 0);
    regs = more.data();
  } else {
    std::memset(regs, 0, sizeof(std::uint64_t) * program.registers.size());
  }
  lane.registers = regs;
  std::vector<::ptx::Constraint> constraints;
  for (unsigned i = 0; i < count; ++i) regs[i] = operands[i].bits;
  // Matching constraints ("0"): the input also starts in its output's register.
  if (std::strpbrk(statement.constraints, "0123456789")) {
    std::string why;
    ::ptx::parse_constraints(statement.constraints, constraints, why);
    for (unsigned i = 0; i < count && i < constraints.size(); ++i)
      if (constraints[i].tied >= 0) regs[constraints[i].tied] = operands[i].bits;
  }

  // Other statements may not touch a wgmma's accumulators before its wait_group: their
  // outputs, and their "+" inputs (read without the instrumentation, inline_ptx.h).
  if (!lane.thread->accumulators.empty()) {
    bool chains = false;  // a wgmma.mma_async may use the accumulators of earlier ones
    for (const ::ptx::Instruction& in : program.code) chains |= in.op == ::ptx::Op::wgmma;
    for (unsigned i = 0; i < count && !chains; ++i)
      if (operands[i].address)
        current_worker->checks().accumulator_access(reinterpret_cast<std::uintptr_t>(operands[i].address), 4, true,
                                                    lane.site, *lane.thread);
  }

  const auto& code = program.code;
  std::size_t steps = 0;
  for (std::size_t pc = 0; pc < code.size();) {
    const ::ptx::Instruction& in = code[pc];
    lane.instruction = &in;
    if (++steps > 100000000) refuse(lane, "its instructions ran 100 million steps without finishing (an endless branch loop?)");
    if (in.guard >= 0 && ((regs[in.guard] != 0) == in.guard_negated)) {
      ++pc;
      continue;
    }
    switch (in.op) {
      case ::ptx::Op::bra:
        pc = program.label_target(in.operands[0].label);
        continue;
      case ::ptx::Op::ld: case ::ptx::Op::st: case ::ptx::Op::cp_async: case ::ptx::Op::cp_async_commit:
      case ::ptx::Op::cp_async_wait_group: case ::ptx::Op::cp_async_wait_all: case ::ptx::Op::cvta:
      case ::ptx::Op::bar_sync: case ::ptx::Op::fence: case ::ptx::Op::nanosleep: case ::ptx::Op::trap:
      case ::ptx::Op::ret:
        run_memory(lane, in);
        break;
      case ::ptx::Op::ldmatrix: case ::ptx::Op::stmatrix: case ::ptx::Op::mma: case ::ptx::Op::elect:
        run_matrix(lane, in);
        break;
      case ::ptx::Op::bar_arrive:
        run_memory(lane, in);
        break;
      case ::ptx::Op::mbarrier_init: case ::ptx::Op::mbarrier_arrive: case ::ptx::Op::mbarrier_expect_tx:
      case ::ptx::Op::mbarrier_try_wait: case ::ptx::Op::mbarrier_test_wait: case ::ptx::Op::mbarrier_inval:
        run_mbarrier(lane, in);
        break;
      case ::ptx::Op::tma_load: case ::ptx::Op::tma_store: case ::ptx::Op::bulk_commit:
      case ::ptx::Op::bulk_wait_group:
        run_tensor_copy(lane, in);
        break;
      case ::ptx::Op::wgmma: case ::ptx::Op::wgmma_fence: case ::ptx::Op::wgmma_commit: case ::ptx::Op::wgmma_wait:
      case ::ptx::Op::setmaxnreg:
        run_warpgroup(lane, in);
        break;
      case ::ptx::Op::cluster_arrive: case ::ptx::Op::cluster_wait: case ::ptx::Op::mapa:
        run_cluster(lane, in);
        break;
      default:
        run_scalar(lane, in);
        break;
    }
    ++pc;
  }
  // The stores are the kernel's code (instrumented): the wgmma's own results are not a use of
  // its accumulators.
  lane.thread->writing_outputs = true;
  for (unsigned i = 0; i < count; ++i)
    if (operands[i].store) operands[i].store(operands[i].address, regs[i]);
  lane.thread->writing_outputs = false;
}

std::size_t cuda_cpu::shared_window_address(const void* generic) {
  return reinterpret_cast<std::uintptr_t>(generic) - engine::cpu::ptx_run::shared_window_base();
}

void* cuda_cpu::shared_window_pointer(std::size_t shared_address) {
  return reinterpret_cast<void*>(engine::cpu::ptx_run::shared_window_base() + shared_address);
}

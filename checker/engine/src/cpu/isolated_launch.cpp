#include "isolated_launch.h"

#include "access_checks.h"

#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "cuda_cpu/host_launch.h"
#include "device_arena.h"
#include "device_globals.h"
#include "device_heap.h"
#include "grid_runner.h"
#include "seconds_text.h"
#include "source_lines.h"

namespace engine::cpu {
namespace {

// A finding's file and line, as the launch report keeps them (no file: "").
SourceLocation file_line(const char* file, unsigned line) {
  SourceLocation at;
  at.file = file ? file : "";
  at.line = static_cast<int>(line);
  return at;
}

// An emulator (qemu-user: tests/platforms/arm64_emulated.sh) runs kernels tens of times
// slower than the machine it stands for: PUZZLES_TIME_LIMIT_SCALE multiplies every time limit.
double time_limit_scale() {
  static const double scale = [] {
    const char* text = std::getenv("PUZZLES_TIME_LIMIT_SCALE");
    if (text == nullptr) return 1.0;
    char* end = nullptr;
    double value = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(value >= 1 && value <= 1000))
      throw Error("PUZZLES_TIME_LIMIT_SCALE must be a number from 1 to 1000, not '" + std::string(text) + "'");
    return value;
  }();
  return scale;
}

// A time limit is the kernel's, not the machine's: on a machine busy with other work (a class
// graded two at a time, a parallel test run) the workers wait for a core, and the clock alone
// would stop a kernel that was only waiting for its turn. So the limit counts the time since
// the launch less the time each worker, on average, spent ready to run but waiting for a CPU
// (the scheduler's run-queue delay); an endless loop runs and is stopped at the limit, by the
// clock, on an idle machine. Up to this many times the limit by the clock, whatever the load.
constexpr double kStarvedLimitFactor = 3.0;

// Seconds that one thread has spent runnable but waiting for a CPU (the second field of
// /proc/<pid>/task/<tid>/schedstat), or -1 when the kernel does not say (or the thread ended).
double thread_run_queue_wait_seconds(const std::string& task) {
  std::FILE* f = std::fopen((task + "/schedstat").c_str(), "r");
  if (f == nullptr) return -1;
  unsigned long long on_cpu = 0, waiting = 0;
  const bool read = std::fscanf(f, "%llu %llu", &on_cpu, &waiting) == 2;
  std::fclose(f);
  return read ? 1e-9 * static_cast<double>(waiting) : -1;
}

std::string task_folder(pid_t pid, pid_t thread) {
  return "/proc/" + std::to_string(pid) + "/task/" + std::to_string(thread);
}

// The same for the threads of process `pid` together, or -1 when the kernel does not say.
double run_queue_wait_seconds(pid_t pid) {
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  DIR* dir = opendir(tasks.c_str());
  if (dir == nullptr) return -1;
  double total = 0;
  bool read_any = false;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    const double waiting = thread_run_queue_wait_seconds(tasks + "/" + entry->d_name);
    if (waiting < 0) continue;  // a thread that just ended
    total += waiting;
    read_any = true;
  }
  closedir(dir);
  return read_any ? total : -1;
}

class SharedReport {
 public:
  SharedReport() {
    void* p = mmap(nullptr, sizeof(LaunchReport), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw Error("cannot map the launch report: " + std::string(std::strerror(errno)));
    report_ = new (p) LaunchReport();
  }
  ~SharedReport() { munmap(report_, sizeof(LaunchReport)); }
  LaunchReport* get() { return report_; }

 private:
  LaunchReport* report_;
};

std::string signal_words(int signal, bool stack_overflow) {
  if (stack_overflow) return "the thread ran out of stack (a very large local array, or endless recursion?)";
  switch (signal) {
    case SIGSEGV: return "segmentation fault: it used an address that is not valid memory";
    case SIGBUS: return "bus error: a misaligned or invalid memory access";
    case SIGFPE: return "arithmetic fault: an integer division by zero";
    case SIGILL: return "illegal instruction";
    case SIGABRT: return "abort() was called (a failed assert?)";
    case SIGTRAP: return "a trap instruction";
    default: return std::string("signal ") + std::to_string(signal);
  }
}

// Converts what the child wrote into findings that name buffers, variables and lines.
class Translator {
 public:
  explicit Translator(const GridPlan& plan) : plan_(plan) {}

  ThreadCoord coord(std::uint64_t block, std::uint32_t thread) const {
    return ThreadCoord{plan_.config.grid.unlinear(block), plan_.config.block.unlinear(thread)};
  }

  // "full[2]": the shared element at a byte offset of a variable (or of dynamic shared memory).
  void shared_name(std::int32_t slot, std::int64_t byte_offset, unsigned element, std::string& name,
                   std::vector<long>& dims) const {
    if (slot >= 0 && slot < static_cast<int>(plan_.shared.size())) {
      const SharedVariable& v = plan_.shared[slot];
      unsigned size = v.element_size ? static_cast<unsigned>(v.element_size) : element;
      name = v.name;
      dims = v.dims;
      long index = static_cast<long>(byte_offset / size);
      long total = 1;
      for (long d : dims) total *= d > 0 ? d : 1;
      if (!dims.empty() && index < total) {
        std::string s;
        for (std::size_t i = dims.size(); i-- > 0;) {
          s = "[" + std::to_string(index % dims[i]) + "]" + s;
          index /= dims[i];
        }
        name += s;
      } else if (v.size > size) {
        name += " (element " + std::to_string(index) + ")";
      }
      return;
    }
    const char* dynamic = plan_.kernel->dynamic_shared_name;
    const std::size_t size = plan_.kernel->dynamic_shared_element;
    if (dynamic && size && byte_offset % static_cast<std::int64_t>(size) == 0)
      name = std::string(dynamic) + "[" + std::to_string(byte_offset / static_cast<std::int64_t>(size)) + "]";
    else
      name = std::string(dynamic ? dynamic : "extern __shared__ memory") + " (byte " + std::to_string(byte_offset) + ")";
  }

  Finding from_raw(const RawFinding& r) const {
    Finding f;
    f.kind = r.kind;
    f.where = coord(r.block, r.thread);
    f.is_write = r.is_write;
    f.is_shared = r.is_shared;
    f.op = r.op ? r.op : "";
    f.warp = r.warp;
    f.mask = r.mask;
    f.access_size = r.access_size;
    bool has_place = r.kind == FindingKind::out_of_bounds || r.kind == FindingKind::shared_out_of_bounds ||
                     r.kind == FindingKind::shared_race || r.kind == FindingKind::misaligned ||
                     r.kind == FindingKind::async_copy || r.kind == FindingKind::uninitialized_shared ||
                     r.kind == FindingKind::async_proxy || r.kind == FindingKind::proxy_fence;
    if (has_place && !r.is_shared) {
      const DeviceArena::Buffer& b = DeviceArena::instance().slot(r.slot);
      f.buffer = b.name;
      f.element_size = static_cast<unsigned>(b.element_size);
      f.index = element_at(r.byte_offset, b.element_size);
      f.buffer_elements = static_cast<long long>((b.end - b.begin) / b.element_size);
    } else if (has_place) {
      std::size_t bytes = 0;
      unsigned element = r.access_size && r.access_size < 4 ? r.access_size : 4;
      if (r.slot >= 0 && r.slot < static_cast<int>(plan_.shared.size())) {
        const SharedVariable& v = plan_.shared[r.slot];
        f.buffer = v.name;
        bytes = v.size;
        if (v.element_size) element = static_cast<unsigned>(v.element_size);
        f.dims = v.dims;
      } else {
        // Dynamic shared memory: by the name the kernel declared it with, when it has one.
        f.buffer = plan_.kernel->dynamic_shared_name ? plan_.kernel->dynamic_shared_name : "extern __shared__ memory";
        bytes = plan_.config.dynamic_shared_bytes;
        if (plan_.kernel->dynamic_shared_name && plan_.kernel->dynamic_shared_element &&
            (r.access_size == 0 || plan_.kernel->dynamic_shared_element <= r.access_size))
          element = static_cast<unsigned>(plan_.kernel->dynamic_shared_element);
        if (plan_.kernel->dynamic_shared_name && element) f.dims = {static_cast<long>(bytes / element)};
      }
      f.element_size = element;
      f.index = element_at(r.byte_offset, element);
      f.buffer_elements = static_cast<long long>(bytes / element);
    }
    if (r.kind == FindingKind::shared_race || r.kind == FindingKind::async_copy || r.kind == FindingKind::async_proxy ||
        r.kind == FindingKind::proxy_fence || r.kind == FindingKind::wgmma_accumulator) {
      f.other = coord(r.block, r.other_thread);
      f.other_is_write = r.other_is_write;
      if (r.other_line) f.other_at = file_line(r.other_file, r.other_line);
    }
    if (r.kind == FindingKind::barrier_divergence || r.kind == FindingKind::warp_divergence ||
        r.kind == FindingKind::deadlock) {
      for (std::uint32_t g = 0; g < r.group_count; ++g) {
        const RawGroup& raw = r.groups[g];
        ThreadGroup group;
        group.returned = raw.exited;
        if (!raw.exited && raw.waits_at) group.waits_for = raw.waits_at;
        if (!raw.exited) group.barrier = file_line(raw.file, raw.line);
        group.count = raw.count;
        if (raw.wait_kind == 1) {
          group.wait.kind = ThreadGroup::BarrierWait::Kind::mbarrier;
          shared_name(raw.wait_slot, raw.wait_byte_offset, 8, group.wait.barrier, group.wait.dims);
          group.wait.parity = raw.wait_parity;
          group.wait.phase_parity = raw.wait_phase_parity;
          group.wait.initialized = raw.wait_initialized != 0;
          group.wait.pending_arrivals = raw.wait_pending;
          group.wait.expected_arrivals = raw.wait_expected;
          group.wait.bytes_expected = raw.wait_bytes_expected;
          group.wait.bytes_delivered = raw.wait_bytes_delivered;
        } else if (raw.wait_kind == 2) {
          group.wait.kind = ThreadGroup::BarrierWait::Kind::named_barrier;
          group.wait.barrier = std::to_string(raw.wait_number);
          group.wait.arrived = raw.wait_arrived;
          group.wait.count = raw.wait_count;
        }
        for (std::uint32_t s = 0; s < raw.count && s < kGroupSample; ++s)
          group.sample.push_back(plan_.config.block.unlinear(raw.sample[s]));
        f.groups.push_back(group);
      }
    }
    if (r.line) f.at = file_line(r.file, r.line);
    f.detail = r.detail;
    f.misuse = static_cast<Finding::Misuse>(r.misuse);
    f.misuse_value = r.misuse_value;
    f.misuse_limit = r.misuse_limit;
    f.misuse_subject = r.misuse_subject ? r.misuse_subject : "";
    f.async_use = static_cast<Finding::AsyncUse>(r.async_use);
    f.proxy_reader = static_cast<Finding::ProxyReader>(r.proxy_reader);
    f.cluster_use = static_cast<Finding::ClusterUse>(r.cluster_use);
    f.other_rank = r.other_rank;
    f.cluster_mbarrier = r.cluster_mbarrier != 0;
    f.swizzle_written = r.swizzle_written;
    f.swizzle_read = r.swizzle_read;
    return f;
  }

 private:
  const GridPlan& plan_;
};

void attach_source_lines(std::vector<Finding>& findings, const std::vector<std::uintptr_t>& pcs,
                         const std::vector<std::uintptr_t>& other_pcs, const std::string& kernel_source) {
  std::vector<std::uintptr_t> all;
  for (auto p : pcs) if (p) all.push_back(p);
  for (auto p : other_pcs) if (p) all.push_back(p);
  auto lines = source_lines(all, kernel_source);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (pcs[i] && lines.count(pcs[i])) findings[i].at = lines[pcs[i]];
    if (other_pcs[i] && lines.count(other_pcs[i])) findings[i].other_at = lines[other_pcs[i]];
  }
}

// Where a line site (access_checks.h) is.
SourceLocation line_site_location(Site site) {
  SourceLocation at;
  at.file = site_file(site);
  at.line = static_cast<int>(site_line(site));
  return at;
}

// Where the groups of a deadlock wait, with the calls that led there (an mbarrier wait in a
// helper, called from the kernel's line).
void attach_wait_sites(std::vector<Finding>& findings, const LaunchReport& report, const std::string& kernel_source) {
  std::vector<std::uintptr_t> sites;
  for (std::uint32_t i = 0; i < report.kept; ++i)
    for (std::uint32_t g = 0; g < report.findings[i].group_count; ++g)
      if (report.findings[i].groups[g].wait_site) sites.push_back(report.findings[i].groups[g].wait_site);
  if (sites.empty()) return;
  auto lines = source_lines(sites, kernel_source);
  for (std::uint32_t i = 0; i < report.kept && i < findings.size(); ++i)
    for (std::uint32_t g = 0; g < report.findings[i].group_count && g < findings[i].groups.size(); ++g) {
      auto it = lines.find(report.findings[i].groups[g].wait_site);
      if (report.findings[i].groups[g].wait_site && it != lines.end()) findings[i].groups[g].barrier = it->second;
    }
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The workers whose blocks ran past the limit, one bit each; none: the child exited in time.
using LateWorkers = std::uint64_t;
static_assert(kMaxWorkers <= 64, "one bit per worker");
constexpr LateWorkers kEveryWorker = ~LateWorkers{0};

// Waits for the child to exit (0) or for the launch to pass its limit (every worker is late).
LateWorkers wait_whole_launch(pid_t pid, pollfd& pfd, double limit, const LaunchReport& report, Clock::time_point start) {
  double deadline = limit;  // seconds since the start; moves on while the child is starved of CPU
  for (;;) {
    double waited = seconds_since(start);
    if (waited >= deadline) {
      // The kernel's own time: the clock, less what an average worker waited for a core.
      const double queued = run_queue_wait_seconds(pid);
      const double workers = std::max(1u, report.workers);
      const double own = queued < 0 ? waited : waited - queued / workers;
      if (own >= limit || waited >= kStarvedLimitFactor * limit) return kEveryWorker;
      // At best its own time grows one second a second from here.
      deadline = std::min(waited + (limit - own), kStarvedLimitFactor * limit);
    }
    int ready = poll(&pfd, 1, static_cast<int>((deadline - waited) * 1000.0) + 1);
    if (ready > 0) return 0;
    if (ready < 0 && errno != EINTR) return 0;
  }
}

// The same, with the limit on each block: the time since a busy worker last finished a block
// (or since the launch), less the time its own thread spent waiting for a CPU over that time.
// Only the workers past the limit are late. (A share of the whole process's wait, as the limit
// on the launch takes, is wrong here: while one worker spins in an endless loop and never waits,
// another that waits for a core behind other processes would be charged half its wait only,
// and its short block named as late.)
LateWorkers wait_each_block(pid_t pid, pollfd& pfd, double limit, const LaunchReport& report, Clock::time_point start) {
  struct Mark {
    std::uint64_t done = 0;
    double at = 0, queued = 0;  // when the count last moved, and the worker's run-queue wait then
  };
  Mark marks[kMaxWorkers];
  // Often enough that a block is not stopped late by much, seldom enough to cost nothing.
  const int poll_ms = static_cast<int>(std::clamp(limit * 1000.0 / 20.0, 10.0, 250.0));
  for (;;) {
    int ready = poll(&pfd, 1, poll_ms);
    if (ready > 0) return 0;
    if (ready < 0 && errno != EINTR) return 0;
    const double now = seconds_since(start);
    const unsigned workers = std::min<unsigned>(std::max(1u, report.workers), kMaxWorkers);
    // Where the kernel does not say a thread's wait: the process's, shared out evenly.
    double shared_out = -1;
    auto waited = [&](unsigned w) {
      const std::int32_t thread = report.heartbeat[w].os_thread.load(std::memory_order_relaxed);
      const double own = thread > 0 ? thread_run_queue_wait_seconds(task_folder(pid, thread)) : -1;
      if (own >= 0) return own;
      if (shared_out < 0) shared_out = std::max(0.0, run_queue_wait_seconds(pid)) / workers;
      return shared_out;
    };
    LateWorkers late = 0;
    for (unsigned w = 0; w < workers; ++w) {
      const std::uint64_t done = report.heartbeat[w].blocks_done.load(std::memory_order_relaxed);
      if (done != marks[w].done || !report.heartbeat[w].busy.load(std::memory_order_relaxed)) {
        marks[w] = Mark{done, now, waited(w)};
        continue;
      }
      const double clock = now - marks[w].at;
      const double own = clock - (waited(w) - marks[w].queued);
      if (own >= limit || clock >= kStarvedLimitFactor * limit) late |= LateWorkers{1} << w;
    }
    if (late) return late;
  }
}

}  // namespace

LaunchResult launch_isolated(GridPlan& plan) {
  SharedReport shared;
  LaunchReport* report = shared.get();
  report->start_findings(plan.options.findings_per_kind);
  plan.report = report;

  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw Error("cannot create a pipe: " + std::string(std::strerror(errno)));
  std::fflush(nullptr);  // or the child would print the parent's buffered output again
  DeviceGlobals globals;
  prepare_device_heap();  // before the fork: the child allocates where we and later children see it
  const double limit = plan.options.timeout_seconds * time_limit_scale();
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) throw Error("cannot fork the CPU-backend worker: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    close(pipe_fds[0]);
    int status = run_grid(plan);
    if (status == 0) globals.save();
    std::fflush(nullptr);
    _exit(status);
  }
  close(pipe_fds[1]);

  // The child holds the pipe's write end: it closes, waking poll, when the child exits.
  pollfd pfd{pipe_fds[0], POLLIN, 0};
  const LateWorkers late = plan.options.limit_each_block ? wait_each_block(pid, pfd, limit, *report, start)
                                                        : wait_whole_launch(pid, pfd, limit, *report, start);
  const bool timed_out = late != 0;
  LaunchResult result;
  Translator translate(plan);
  if (timed_out) {
    // What was running when time ran out, before the child is stopped.
    for (unsigned w = 0; w < report->workers && w < kMaxWorkers; ++w) {
      if (!report->heartbeat[w].busy.load() || !((late >> w) & 1u)) continue;
      std::uint32_t thread = report->heartbeat[w].thread.load();
      if (thread >= plan.threads_per_block) continue;
      Finding f;
      f.kind = FindingKind::timeout;
      f.where = translate.coord(report->heartbeat[w].block.load(), thread);
      f.detail = plan.options.limit_each_block ? "still running, its block unfinished after " + seconds_text(limit) + " s"
                                                : "still running after " + seconds_text(limit) + " s";
      result.add(f);
    }
    if (result.findings.empty()) {
      Finding f;
      f.kind = FindingKind::timeout;
      f.thread_known = false;
      f.detail = "the grid did not finish within " + seconds_text(limit) + " s";
      result.add(f);
    }
    kill(pid, SIGKILL);
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // A kernel that reached a call the CPU backend does not model has said so, and ended its
  // worker with cuda_cpu::not_modelled's status: the program stops there too.
  if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == cuda_cpu::kNotModelledStatus) {
    std::fflush(nullptr);
    std::_Exit(cuda_cpu::kNotModelledStatus);
  }
  if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0) globals.restore();
  result.stats.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (timed_out) return result;

  std::vector<std::uintptr_t> pcs, other_pcs;
  // Workers add findings in whatever order they run; print them in block and thread order.
  std::sort(report->findings, report->findings + report->kept,
            [](const RawFinding& x, const RawFinding& y) { return x.before(y); });
  for (std::uint32_t i = 0; i < report->kept; ++i) {
    result.findings.push_back(translate.from_raw(report->findings[i]));
    pcs.push_back(report->findings[i].pc);
    other_pcs.push_back(report->findings[i].other_pc);
  }
  attach_wait_sites(result.findings, *report, plan.kernel->source);
  for (std::size_t k = 0; k < kFindingKinds; ++k) result.totals[k] = report->total(static_cast<FindingKind>(k));
  result.races_across_warps = report->races_across_warps();

  int crash = report->crash_signal.load();
  bool exited_normally = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (crash || !exited_normally) {
    Finding f;
    f.kind = FindingKind::fault;
    if (crash) {
      f.thread_known = report->crash_in_kernel != 0;
      f.where = translate.coord(report->crash_block, report->crash_thread);
      f.detail = signal_words(crash, report->crash_stack_overflow != 0);
      if (crash == SIGSEGV && !report->crash_stack_overflow) {
        char addr[64];
        std::snprintf(addr, sizeof addr, " (address %#llx)", static_cast<unsigned long long>(report->crash_address));
        f.detail += addr;
      }
      pcs.push_back(report->crash_pc + 1);  // a faulting pc, not a return address
    } else {
      f.thread_known = false;
      f.detail = WIFSIGNALED(status) ? "the CPU-backend worker was killed by " + signal_words(WTERMSIG(status), false)
                                     : "the CPU-backend worker exited with status " + std::to_string(WEXITSTATUS(status));
      pcs.push_back(0);
    }
    other_pcs.push_back(0);
    result.add(f);
  }
  std::vector<std::uintptr_t> profile_sites;
  for (std::uint32_t i = 0; i < report->profile_lines; ++i) {
    const RawProfileLine& raw = report->profile[i];
    AccessProfile p;
    p.site = raw.site;
    // Accesses the engine made for a thread (inline PTX, tensor-core fragments) carry their line.
    if (raw.site & kLineSite) p.at = line_site_location(raw.site);
    p.shared = raw.shared;
    p.write = raw.write;
    p.access_size = raw.access_size;
    p.requests = raw.requests;
    p.accesses = raw.accesses;
    p.wavefronts = raw.wavefronts;
    p.ideal_wavefronts = raw.ideal_wavefronts;
    p.ways_sum = raw.ways_sum;
    p.conflicted_requests = raw.conflicted_requests;
    p.worst_ways = raw.worst_ways;
    p.sectors = raw.sectors;
    p.ideal_sectors = raw.ideal_sectors;
    p.worst_sectors = raw.worst_sectors;
    result.profile.push_back(p);
    if (!(raw.site & kLineSite)) profile_sites.push_back(raw.site);
  }
  result.profile_truncated = report->profile_truncated != 0;
  // Hopper's asynchronous units, at the sites of their PTX statements.
  for (std::uint32_t i = 0; i < report->tensor_copy_lines; ++i) {
    const RawTensorCopyLine& raw = report->tensor_copies[i];
    TensorCopyProfile p;
    p.site = raw.site;
    p.store = raw.store;
    p.multicast = raw.multicast;
    std::vector<long> dims;
    if (!raw.store) translate.shared_name(raw.barrier_slot, raw.barrier_offset, 8, p.barrier, dims);
    p.copies = raw.copies;
    p.bytes = raw.bytes;
    p.phases = raw.phases;
    if (raw.site & kLineSite) p.at = line_site_location(raw.site);
    else profile_sites.push_back(raw.site);
    result.tensor_copies.push_back(p);
  }
  for (std::uint32_t i = 0; i < report->warpgroup_mma_lines; ++i) {
    const RawWarpgroupMmaLine& raw = report->warpgroup_mma[i];
    WarpgroupMmaProfile p;
    p.site = raw.site;
    p.warpgroup = raw.warpgroup;
    p.op = static_cast<WarpgroupMmaProfile::Op>(raw.op);
    p.n = raw.n;
    p.instructions = raw.instructions;
    p.flops = raw.flops;
    if (raw.site & kLineSite) p.at = line_site_location(raw.site);
    else profile_sites.push_back(raw.site);
    result.warpgroup_mma.push_back(p);
  }
  result.async_profile_truncated = report->async_profile_truncated != 0;
  // Tensor copies over the tensor's edges: every launch, only the locations that hung over.
  for (std::uint32_t i = 0; i < report->tensor_edge_lines; ++i) {
    const RawTensorEdgeLine& raw = report->tensor_edges[i];
    if (raw.boxes_over_edge == 0) continue;
    TensorEdgeNote n;
    n.site = raw.site;
    n.store = raw.store != 0;
    if (raw.slot >= 0) n.tensor = DeviceArena::instance().slot(raw.slot).name;
    for (unsigned d = 0; d < raw.rank && d < 5; ++d) {
      n.dims.push_back(raw.dims[d]);
      n.box.push_back(raw.box[d]);
      n.first_box.push_back(raw.first_box[d]);
    }
    n.first_block = raw.first_block;
    n.boxes = raw.boxes;
    n.boxes_over_edge = raw.boxes_over_edge;
    n.elements_outside = raw.elements_outside;
    if (raw.site & kLineSite) n.at = line_site_location(raw.site);
    else profile_sites.push_back(raw.site);
    result.tensor_edges.push_back(n);
  }
  result.tensor_edges_truncated = report->tensor_edges_truncated != 0;
  attach_source_lines(result.findings, pcs, other_pcs, plan.kernel->source);
  if (!profile_sites.empty()) {
    auto lines = source_lines(profile_sites, plan.kernel->source);
    for (AccessProfile& p : result.profile)
      if (lines.count(p.site)) p.at = lines[p.site];
    for (TensorCopyProfile& p : result.tensor_copies)
      if (lines.count(p.site)) p.at = lines[p.site];
    for (WarpgroupMmaProfile& p : result.warpgroup_mma)
      if (lines.count(p.site)) p.at = lines[p.site];
    for (TensorEdgeNote& n : result.tensor_edges)
      if (lines.count(n.site)) n.at = lines[n.site];
  }

  result.stats.loads_counted = plan.kernel->instrumented;
  result.stats.total_global_loads = report->total_loads.load();
  result.stats.max_global_loads = report->max_loads;
  result.stats.max_loads_thread = translate.coord(report->max_loads_block, report->max_loads_thread);
  result.stats.threads_run = report->threads_run.load();
  result.stats.barrier_waits = report->barrier_waits.load();
  result.stats.intervals_settled = report->intervals_settled.load();
  return result;
}

}  // namespace engine::cpu

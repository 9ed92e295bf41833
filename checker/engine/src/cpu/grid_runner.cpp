#include "grid_runner.h"

#include <sched.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "cluster_run.h"
#include "worker.h"

namespace engine::cpu {
namespace {

LaunchReport* crash_report = nullptr;

// The address of the faulting instruction, from the signal's saved registers.
std::uint64_t faulting_pc(const ucontext_t* context) {
#if defined(__x86_64__)
  return static_cast<std::uint64_t>(context->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<std::uint64_t>(context->uc_mcontext.pc);
#else
#error "faulting_pc: the CPU backend knows the program counter of x86-64 and aarch64 only"
#endif
}

// Async-signal-safe: plain stores into the shared report, then _exit.
void on_crash(int signal, siginfo_t* info, void* context) {
  LaunchReport* r = crash_report;
  int expected = 0;
  if (r && r->crash_signal.compare_exchange_strong(expected, signal)) {
    auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    r->crash_address = address;
    r->crash_pc = faulting_pc(static_cast<const ucontext_t*>(context));
    Worker* w = current_worker;
    if (w && current_thread) {
      r->crash_in_kernel = 1;
      r->crash_block = w->current_block();
      r->crash_thread = current_thread->linear;
      r->crash_stack_overflow = w->in_stack_guard(address) ? 1 : 0;
    }
  }
  _exit(kCrashExitStatus);
}

void install_crash_handlers(LaunchReport* report) {
  crash_report = report;
  struct sigaction sa {};
  sa.sa_sigaction = on_crash;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) sigaction(s, &sa, nullptr);
}

// The handler must not run on a fiber's small stack, which may be what overflowed.
struct AlternateSignalStack {
  std::vector<char> memory = std::vector<char>(64 * 1024);
  AlternateSignalStack() {
    stack_t ss{};
    ss.ss_sp = memory.data();
    ss.ss_size = memory.size();
    sigaltstack(&ss, nullptr);
  }
  ~AlternateSignalStack() {
    stack_t ss{};
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, nullptr);
  }
};

}  // namespace

namespace {

// Each worker takes the next block until none are left.
void run_blocks(const GridPlan& plan, std::uint64_t workers, std::atomic<std::uint64_t>& next_block,
                std::vector<std::thread>& threads) {
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&plan, &next_block, w] {
      AlternateSignalStack alt;
      Worker worker(plan, w);
      worker.run(next_block);
    });
}

// Clusters: a group of workers, one per CTA rank, takes the next cluster until none are left.
void run_clusters(const GridPlan& plan, std::uint64_t groups, std::atomic<std::uint64_t>& next_cluster,
                  std::vector<std::unique_ptr<ClusterRun>>& runs, std::vector<std::thread>& threads) {
  const unsigned size = static_cast<unsigned>(plan.config.cluster.count());
  for (unsigned g = 0; g < groups; ++g) {
    runs.push_back(std::make_unique<ClusterRun>(plan, next_cluster));
    ClusterRun* run = runs.back().get();
    for (unsigned rank = 0; rank < size; ++rank)
      threads.emplace_back([&plan, run, g, rank, size] {
        AlternateSignalStack alt;
        Worker worker(plan, g * size + rank);
        run->run_member(worker, rank);
        worker.fold_statistics();
      });
  }
}

}  // namespace

// One worker per core this process may run on (taskset, a container's cpuset), not per core of
// the machine: more workers than that only take turns. With one, blocks run one after another,
// in order, and findings come in the same order every run.
unsigned usable_cores() {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
    int count = CPU_COUNT(&allowed);
    if (count > 0) return static_cast<unsigned>(count);
  }
  unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : cores;
}

int run_grid(const GridPlan& plan) {
  install_crash_handlers(plan.report);
  std::uint64_t workers = usable_cores();
  const std::uint64_t cluster_size = plan.config.cluster.count();
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  std::vector<std::unique_ptr<ClusterRun>> runs;
  std::atomic<std::uint64_t> next{0};  // the next block, or cluster
  if (cluster_size > 1) {
    // The CTAs of a cluster take turns: one group of workers per core keeps every core busy.
    std::uint64_t groups = workers;
    const std::uint64_t clusters = plan.blocks / cluster_size;
    if (groups > clusters) groups = clusters;
    if (groups * cluster_size > kMaxWorkers) groups = kMaxWorkers / cluster_size;
    plan.report->workers = static_cast<unsigned>(groups * cluster_size);
    run_clusters(plan, groups, next, runs, threads);
  } else {
    if (workers > plan.blocks) workers = plan.blocks;
    if (workers > kMaxWorkers) workers = kMaxWorkers;
    plan.report->workers = static_cast<unsigned>(workers);
    run_blocks(plan, workers, next, threads);
  }
  for (auto& t : threads) t.join();
  plan.report->grid_milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return 0;
}

}  // namespace engine::cpu

#include "grid_runner.h"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "worker.h"

namespace engine::cpu {
namespace {

LaunchReport* crash_report = nullptr;

// Async-signal-safe: plain stores into the shared report, then _exit.
void on_crash(int signal, siginfo_t* info, void* context) {
  LaunchReport* r = crash_report;
  int expected = 0;
  if (r && r->crash_signal.compare_exchange_strong(expected, signal)) {
    auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    r->crash_address = address;
    r->crash_pc = static_cast<std::uint64_t>(
        static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
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

int run_grid(const GridPlan& plan) {
  install_crash_handlers(plan.report);
  unsigned cores = std::thread::hardware_concurrency();
  std::uint64_t workers = cores == 0 ? 1 : cores;
  if (workers > plan.blocks) workers = plan.blocks;
  if (workers > kMaxWorkers) workers = kMaxWorkers;
  plan.report->workers = static_cast<unsigned>(workers);

  auto start = std::chrono::steady_clock::now();
  std::atomic<std::uint64_t> next_block{0};
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&plan, &next_block, w] {
      AlternateSignalStack alt;
      Worker worker(plan, w);
      worker.run(next_block);
    });
  for (auto& t : threads) t.join();
  plan.report->grid_milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return 0;
}

}  // namespace engine::cpu

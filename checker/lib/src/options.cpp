#include "checker/options.h"

#include <cstdlib>

namespace checker {
namespace {

bool take_value(const std::string& arg, const std::string& flag, std::string& value) {
  if (arg.rfind(flag + "=", 0) != 0) return false;
  value = arg.substr(flag.size() + 1);
  return true;
}

long long parse_integer(const std::string& flag, const std::string& value, long long lo, long long hi) {
  char* end = nullptr;
  long long v = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < lo || v > hi)
    throw engine::Error(flag + " wants a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                        ", not '" + value + "'");
  return v;
}

}  // namespace

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    o.original_args.push_back(arg);
    // Accept "--flag value" as well as "--flag=value".
    if ((arg == "--backend" || arg == "--seed" || arg == "--size" || arg == "--timeout" || arg == "--bench-csv") &&
        i + 1 < argc) {
      arg += "=" + std::string(argv[++i]);
      o.original_args.back() = arg;
    }
    std::string v;
    if (arg == "--help" || arg == "-h") {
      o.help = true;
    } else if (take_value(arg, "--backend", v)) {
      o.backend = engine::parse_backend_choice(v);
    } else if (take_value(arg, "--seed", v)) {
      o.seed = static_cast<std::uint64_t>(parse_integer("--seed", v, 0, 1ll << 62));
    } else if (take_value(arg, "--size", v)) {
      // "33" or "33x65x17" (m x n x k)
      std::size_t start = 0;
      for (;;) {
        std::size_t x = v.find('x', start);
        o.size.push_back(static_cast<long>(parse_integer("--size", v.substr(start, x - start), 1, 16384)));
        if (x == std::string::npos) break;
        start = x + 1;
      }
      if (o.size.size() != 1 && o.size.size() != 3)
        throw engine::Error("--size wants N, or M x N x K written as MxNxK, not '" + v + "'");
    } else if (take_value(arg, "--timeout", v)) {
      char* end = nullptr;
      double seconds = std::strtod(v.c_str(), &end);
      o.timeout_seconds = seconds;
      if (v.empty() || *end != '\0' || !(seconds > 0) || seconds > 3600)
        throw engine::Error("--timeout wants seconds, more than 0 and at most 3600, not '" + v + "'");
    } else if (arg == "--all-orders") {
      o.all_orders = true;
    } else if (arg == "--sanitize") {
      o.sanitize = true;
    } else if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--no-canaries") {
      o.no_canaries = true;
    } else if (arg == "--bench") {
      o.bench = true;
    } else if (arg == "--json") {
      o.json = true;
    } else if (take_value(arg, "--json", v)) {
      if (v.empty()) throw engine::Error("--json=FILE wants a file name: --json=report.json");
      o.json = true;
      o.json_file = v;
    } else if (arg == "--profile") {
      o.profile = true;
    } else if (arg == "--explain") {
      o.explain = true;
    } else if (arg == "--bench-csv" || take_value(arg, "--bench-csv", v)) {
      if (v.empty()) throw engine::Error("--bench-csv wants a file name: --bench-csv=results.csv");
      o.bench_csv = v;
      o.bench = true;  // rows to append mean there is something to time
    } else {
      throw engine::Error("unknown option '" + arg + "'");
    }
  }
  if (o.profile && o.sanitize)
    throw engine::Error("--profile and --sanitize cannot be combined: run them one after the other");
  if (o.bench && o.sanitize)
    throw engine::Error("--bench and --sanitize cannot be combined: compute-sanitizer slows every kernel down");
  return o;
}

std::string usage(const std::string& program) {
  return "Usage: " + program + " [options]\n"
         "Runs your kernel on a worked example and on random matrices, and says what is wrong.\n"
         "\n"
         "  --backend=auto|gpu|cpu  where to run the kernel (default auto: with a GPU, every case on\n"
         "                          the GPU and the small ones again under the CPU backend's checks)\n"
         "  --seed=N                seed for the random matrices (default 2024)\n"
         "  --size=N | MxNxK        run the worked example and then only this size\n"
         "  --timeout=SECONDS       stop a kernel that runs longer than this (default 5, more for\n"
         "                          large sizes on the CPU backend)\n"
         "  --all-orders            CPU backend: run every case with threads in forward, reverse\n"
         "                          and shuffled order (a correct kernel passes in all)\n"
         "  --sanitize              GPU backend: also run under NVIDIA's compute-sanitizer\n"
         "                          (memcheck, racecheck, synccheck) and summarise what it finds\n"
         "  --quick                 only the worked example and the two smallest sizes\n"
         "  --bench                 GPU backend: once every case passes, time the kernel against\n"
         "                          cuBLAS at the puzzle's benchmark sizes (median of 25 launches)\n"
         "  --bench-csv=FILE        with --bench: also append the timings to FILE as CSV rows\n"
         "  --profile               after the cases: bank conflicts and sectors per request, per\n"
         "                          source line, and TMA bytes and wgmma counts (CPU backend);\n"
         "                          Nsight Compute's counters (GPU)\n"
         "  --explain               CPU backend: after each case, also say what the kernel did\n"
         "                          that is legal but worth knowing (TMA boxes over the edges)\n"
         "  --json                  print the results as one JSON document for tools (the text\n"
         "                          for people goes to stderr; docs/dev/report-json.md)\n"
         "  --json=FILE             write that document to FILE instead; the text stays on stdout\n"
         "  --help                  this text\n"
         "\n"
         "Exit status: 0 every case passed, 1 a case failed, 2 a usage or environment problem.\n"
         "Set NO_COLOR=1 for output without colour.\n";
}

}  // namespace checker

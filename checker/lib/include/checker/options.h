// The command line that every checker shares.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/backend.h"

namespace checker {

struct Options {
  engine::BackendChoice backend = engine::BackendChoice::automatic;
  std::uint64_t seed = 2024;
  // Run only this size after the worked example: {n} or {m, n, k}; empty: the spec's cases.
  std::vector<long> size;
  // Per launch. Unset: 5 s, plus 10 ns per multiply-add on the CPU backend, so that large
  // correct cases never hit it while an endless loop is still stopped quickly.
  std::optional<double> timeout_seconds;
  bool all_orders = false;  // run every case in every thread order (CPU backend)
  bool sanitize = false;    // re-run under compute-sanitizer (GPU backend)
  bool quick = false;       // the worked example and the two smallest sizes (for --sanitize)
  bool no_canaries = false; // GPU: no canary zones (set by --sanitize for its inner runs)
  bool bench = false;       // after the cases pass, time the kernel against cuBLAS (GPU backend)
  bool profile = false;     // after the cases, the memory profile per source line (and ncu's counters)
  bool explain = false;     // after each case, notes on legal but notable behaviour (CPU backend)
  std::string bench_csv;    // --bench-csv: append machine-readable rows to this file
  // --json: one JSON document on stdout (docs/dev/report-json.md); the text for people goes
  // to stderr instead. --json=FILE: the document goes to FILE, the text stays on stdout.
  bool json = false;
  std::string json_file;
  bool help = false;
  std::vector<std::string> original_args;  // without the program name
};

// Throws engine::Error with a one-line message for anything it does not understand.
Options parse_options(int argc, char** argv);
std::string usage(const std::string& program);

}  // namespace checker

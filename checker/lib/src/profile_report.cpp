#include "profile_report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <tuple>

#include "checker/explain.h"
#include "checker/output.h"
#include "engine/backend.h"
#include "engine/ncu_csv.h"

namespace checker {
namespace {

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// What --profile asks Nsight Compute for: the counters behind the CPU table's columns.
const char* const kSharedLoadRequests = "smsp__sass_inst_executed_op_shared_ld.sum";
const char* const kSharedLoadWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
const char* const kSharedStoreRequests = "smsp__sass_inst_executed_op_shared_st.sum";
const char* const kSharedStoreWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
const char* const kGlobalLoadRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const char* const kGlobalLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char* const kGlobalStoreRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
const char* const kGlobalStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
const char* const kDramRead = "dram__bytes_read.sum";
const char* const kDramWritten = "dram__bytes_write.sum";
const char* const kDuration = "gpu__time_duration.sum";

// "shared loads   1,024 requests, 8,192 wavefronts: 8.0 per request"
void print_counter_row(const char* what, double requests, double cost, const char* unit) {
  if (requests < 0 || cost < 0) {
    std::printf("  %-14s not reported\n", what);
    return;
  }
  if (requests == 0) {
    std::printf("  %-14s none\n", what);
    return;
  }
  std::printf("  %-14s %s requests, %s %s: %s per request\n", what, count_words(requests).c_str(),
              count_words(cost).c_str(), unit, format_tenths(cost / requests).c_str());
}

// The launches of `kernel` in the report; the last one is the case at --size (the first is the
// worked example).
const engine::NcuLaunch* last_launch_of(const std::vector<engine::NcuLaunch>& launches, const std::string& kernel) {
  const engine::NcuLaunch* found = nullptr;
  for (const engine::NcuLaunch& l : launches)
    if (l.function() == kernel) found = &l;
  return found;
}

std::string first_error_line(const std::string& text) {
  auto at = text.find("==ERROR==");
  if (at == std::string::npos) return "";
  auto end = text.find('\n', at);
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::string access_words(const ProfileRow& r) {
  std::string s = r.write ? "store" : "load";
  if (r.access_size == 16) s += " x16";
  else if (r.access_size == 8) s += " x8";
  else if (r.access_size && r.access_size < 4) s += " x" + std::to_string(r.access_size);
  return s;
}

}  // namespace

std::string source_line(const std::vector<std::string>& lines, int line) {
  if (line < 1 || line > static_cast<int>(lines.size())) return "";
  std::string text = lines[line - 1];
  auto start = text.find_first_not_of(" \t");
  text = start == std::string::npos ? "" : text.substr(start);
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

std::string count_words(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  std::string digits = buf, out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::vector<ProfileRow> profile_rows(const engine::LaunchResult& profiled) {
  // The engine reports per code address; an unrolled line has several: merge them.
  std::map<std::tuple<int, bool, bool>, engine::AccessProfile> merged;
  std::map<std::tuple<int, bool, bool>, bool> approximate;
  for (const engine::AccessProfile& a : profiled.profile) {
    auto key = std::make_tuple(a.at.line, a.shared, a.write);
    engine::AccessProfile& m = merged[key];
    approximate[key] = approximate[key] || a.at.approximate;
    m.shared = a.shared;
    m.write = a.write;
    m.access_size = std::max(m.access_size, a.access_size);
    m.requests += a.requests;
    m.accesses += a.accesses;
    m.wavefronts += a.wavefronts;
    m.ideal_wavefronts += a.ideal_wavefronts;
    m.ways_sum += a.ways_sum;
    m.worst_ways = std::max(m.worst_ways, a.worst_ways);
    m.sectors += a.sectors;
    m.ideal_sectors += a.ideal_sectors;
  }
  std::vector<ProfileRow> rows;
  for (const auto& [key, m] : merged) {
    ProfileRow r;
    r.line = std::get<0>(key);
    r.approximate = approximate[key];
    r.shared = m.shared;
    r.write = m.write;
    r.access_size = m.access_size;
    r.requests = m.requests;
    if (m.requests == 0) continue;
    if (m.shared) {
      r.average_ways = static_cast<double>(m.ways_sum) / static_cast<double>(m.requests);
      r.worst_ways = m.worst_ways;
      r.wavefront_ratio = m.ideal_wavefronts ? static_cast<double>(m.wavefronts) / m.ideal_wavefronts : 1.0;
      r.excess = m.wavefronts - m.ideal_wavefronts;
    } else {
      r.sectors_per_request = static_cast<double>(m.sectors) / static_cast<double>(m.requests);
      r.ideal_sectors_per_request = static_cast<double>(m.ideal_sectors) / static_cast<double>(m.requests);
      r.excess = m.sectors - m.ideal_sectors;
    }
    rows.push_back(r);
  }
  // Costliest first; among lines that cost nothing extra, the busiest first.
  std::stable_sort(rows.begin(), rows.end(), [](const ProfileRow& a, const ProfileRow& b) {
    return a.excess != b.excess ? a.excess > b.excess : a.requests > b.requests;
  });
  return rows;
}

void print_memory_profile(const std::string& kernel, const CpuMeasure& measure, const std::string& source,
                          const PuzzleSpec& spec, const Style& st) {
  std::string heading = "Memory profile" + (kernel.empty() ? "" : " of " + kernel) + " (CPU backend, every warp " +
                        "request of one launch at " + spec.size_words(measure.dims) + ")";
  std::printf("%s\n", st.bold(heading).c_str());
  if (!measure.profiled) {
    std::printf("  Not measured: this build's kernels are not instrumented (build with clang++, the default preset).\n\n");
    return;
  }
  std::vector<ProfileRow> rows = profile_rows(measure.profile_run);
  if (rows.empty()) {
    std::printf("  The kernel made no access to device memory.\n\n");
    return;
  }
  std::vector<std::string> lines = read_lines(source);
  std::printf("  %5s  %-6s %-9s %9s  %-17s  %s\n", "line", "memory", "access", "requests", "cost", "code");
  for (const ProfileRow& r : rows) {
    std::string cost = r.shared ? format_tenths(r.average_ways) + "-way (worst " + std::to_string(r.worst_ways) + ")"
                                : format_tenths(r.sectors_per_request) + " sectors/req";
    bool bad = r.shared ? r.worst_ways > 1 : r.sectors_per_request > r.ideal_sectors_per_request + 0.05;
    char row[256];
    std::snprintf(row, sizeof row, "  %4d%s  %-6s %-9s %9llu  %-17s  ", r.line, r.approximate ? "~" : " ",
                  r.shared ? "shared" : "global", access_words(r).c_str(), static_cast<unsigned long long>(r.requests),
                  cost.c_str());
    std::string text = row + source_line(lines, r.line);
    std::printf("%s\n", bad ? st.yellow(text).c_str() : text.c_str());
  }
  const ProfileRow& worst = rows.front();
  engine::SourceLocation worst_at;
  worst_at.file = source;
  worst_at.line = worst.line;
  worst_at.approximate = worst.approximate;
  std::string where = where_in_source(worst_at);
  if (worst.excess == 0) {
    std::printf("  Every request takes the fewest wavefronts or sectors it can: no bank conflicts, no scattered "
                "loads.\n");
  } else if (worst.shared) {
    std::printf("  The costliest: the shared-memory %ss at %s take %s times the wavefronts they need (up to "
                "%u-way bank conflicts): the lanes of a warp hit the same bank at different addresses.\n",
                worst.write ? "store" : "load", where.c_str(), format_tenths(worst.wavefront_ratio).c_str(), worst.worst_ways);
  } else {
    std::printf("  The costliest: the global %ss at %s touch %s sectors of 32 bytes per warp request, where their "
                "bytes fit in %s: neighbouring lanes should access neighbouring addresses.\n",
                worst.write ? "store" : "load", where.c_str(), format_tenths(worst.sectors_per_request).c_str(),
                format_tenths(worst.ideal_sectors_per_request).c_str());
  }
  bool approximate = std::any_of(rows.begin(), rows.end(), [](const ProfileRow& r) { return r.approximate; });
  std::printf("  (%sCost: the average of each request's worst n-way bank conflict, or the 32-byte sectors per "
              "request, as Nsight Compute counts them.)\n\n",
              approximate ? "~: the compiler moved this code; the line is the nearest one. " : "");
}

void print_gpu_profile(const PuzzleSpec& spec, const Dims& dims, const std::string& program,
                       const std::vector<std::string>& args, const Style& st) {
  std::printf("%s\n", st.bold("Nsight Compute's counters (GPU, the launch at " + spec.size_words(dims) + ")").c_str());
  std::string ncu = engine::cuda_tool_path("ncu");
  if (ncu.empty()) {
    std::printf("  Not measured: Nsight Compute (ncu) is not installed here. It comes with the CUDA toolkit.\n\n");
    return;
  }
  std::string names;
  for (const std::string& k : spec.kernels) names += (names.empty() ? "" : "|") + PuzzleSpec::kernel_name(k);
  std::string metrics;
  for (const char* m : {kSharedLoadRequests, kSharedLoadWavefronts, kSharedStoreRequests, kSharedStoreWavefronts,
                        kGlobalLoadRequests, kGlobalLoadSectors, kGlobalStoreRequests, kGlobalStoreSectors, kDramRead,
                        kDramWritten, kDuration})
    metrics += (metrics.empty() ? "" : ",") + std::string(m);
  // The checker runs again under ncu, on the GPU alone, with the worked example and this size;
  // its own output is not needed, only ncu's report.
  std::string cmd = "NO_COLOR=1 " + shell_quoted(ncu) + " --csv --metrics " + metrics +
                    " --kernel-name " + shell_quoted("regex:^(" + names + ")$") + " " + shell_quoted(program);
  for (const std::string& a : args) cmd += " " + shell_quoted(a);
  cmd += " 2>&1";
  std::fflush(stdout);
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) {
    std::printf("  Not measured: ncu could not be started.\n\n");
    return;
  }
  std::string text;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) text += buf;
  pclose(pipe);
  if (text.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    std::printf("  Not measured: this machine lets only administrators read the GPU's performance counters\n"
                "  (ERR_NVGPUCTRPERM). The CPU backend's table above counts the same things.\n\n");
    return;
  }
  std::vector<engine::NcuLaunch> launches = engine::read_ncu_csv(text);
  std::string error = first_error_line(text);
  if (launches.empty()) {
    std::printf("  Not measured: ncu reported no launch%s\n\n", error.empty() ? "." : (": " + error).c_str());
    return;
  }
  for (const std::string& k : spec.kernels) {
    std::string name = PuzzleSpec::kernel_name(k);
    const engine::NcuLaunch* l = last_launch_of(launches, name);
    if (spec.kernels.size() > 1) std::printf("  %s\n", st.bold(name).c_str());
    if (!l) {
      std::printf("  ncu reported no launch of %s.\n", name.c_str());
      continue;
    }
    print_counter_row("shared loads", l->value(kSharedLoadRequests), l->value(kSharedLoadWavefronts), "wavefronts");
    print_counter_row("shared stores", l->value(kSharedStoreRequests), l->value(kSharedStoreWavefronts), "wavefronts");
    print_counter_row("global loads", l->value(kGlobalLoadRequests), l->value(kGlobalLoadSectors), "sectors");
    print_counter_row("global stores", l->value(kGlobalStoreRequests), l->value(kGlobalStoreSectors), "sectors");
    double ns = l->value(kDuration), read = l->value(kDramRead), written = l->value(kDramWritten);
    if (ns > 0 && read >= 0 && written >= 0)
      std::printf("  %-14s %s us under ncu, %s MB read from DRAM, %s MB written\n", "time", format_tenths(ns / 1e3).c_str(),
                  format_tenths(read / 1e6).c_str(), format_tenths(written / 1e6).c_str());
  }
  std::printf("  (A shared request costs at least one wavefront per 128 bytes it moves; more means bank conflicts.\n"
              "  A global request of 4-byte loads by 32 lanes needs 4 sectors of 32 bytes when they are neighbours.)\n\n");
}

}  // namespace checker

// --sanitize: runs the checker again on the GPU under NVIDIA's compute-sanitizer, once per
// tool, and says what each tool found in the checker's own words.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "checker/output.h"

#ifndef PUZZLES_CUDA_BIN_DIR
#define PUZZLES_CUDA_BIN_DIR ""
#endif

namespace checker {
namespace {

std::string find_sanitizer() {
  std::vector<std::string> dirs;
  if (const char* home = std::getenv("CUDA_HOME")) dirs.push_back(std::string(home) + "/bin");
  if (*PUZZLES_CUDA_BIN_DIR) dirs.push_back(PUZZLES_CUDA_BIN_DIR);
  dirs.push_back("/usr/local/cuda/bin");
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string d;
    while (std::getline(ss, d, ':'))
      if (!d.empty()) dirs.push_back(d);
  }
  for (const std::string& d : dirs) {
    std::string candidate = d + "/compute-sanitizer";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct ToolReport {
  int exit_status = 0;
  int errors = -1;  // from "ERROR SUMMARY: N errors"; -1 if the tool printed none
  std::vector<std::string> firsts;
  std::string verdict;  // the checker's own "Result:" line
};

std::string basename_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Reads compute-sanitizer's report: the first few errors, with the thread and the line.
// memcheck names a thread per error; racecheck names two accesses ("between Write access
// at ... file.cu:15" then "and Read access at ... file.cu:16 [128 hazards]").
ToolReport read_report(const std::string& text) {
  ToolReport r;
  std::istringstream in(text);
  std::string line, current;
  static const std::regex summary(R"(ERROR SUMMARY: (\d+) error)");
  static const std::regex hazards(R"(RACECHECK SUMMARY: (\d+) hazard)");
  static const std::regex thread(R"(by thread \((\d+),(\d+),(\d+)\) in block \((\d+),(\d+),(\d+)\))");
  static const std::regex location(R"(in (\S+\.cu):(\d+))");
  static const std::regex race_start(R"((Error|Warning): Race reported between (\w+) access at .* in (\S+\.cu):(\d+))");
  static const std::regex race_other(R"(^\s*and (\w+) access at .* in (\S+\.cu):(\d+)(?: \[(\d+) hazards?\])?)");
  std::smatch m;
  std::string race_second;  // "reads at line 16"
  long race_hazards = 0;
  auto finish = [&] {
    if (!race_second.empty()) current += " and " + race_second + " (" + std::to_string(race_hazards) + " hazards)";
    if (!current.empty() && r.firsts.size() < 3) r.firsts.push_back(current);
    current.clear();
    race_second.clear();
    race_hazards = 0;
  };
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, summary)) r.errors = std::stoi(m[1]);
    if (std::regex_search(line, m, hazards) && r.errors < 0) r.errors = std::stoi(m[1]);
    if (line.rfind("Result:", 0) == 0) r.verdict = line;
    if (line.rfind("========= ", 0) != 0) continue;
    std::string body = line.substr(10);
    if (std::regex_search(body, m, race_start)) {
      finish();
      std::string kind = m[2].str() == "Write" ? "a write" : "a read";
      current = std::string(m[1].str() == "Error" ? "race" : "possible race") + " between " + kind + " at line " +
                m[4].str() + " of " + basename_of(m[3].str());
      continue;
    }
    if (std::regex_search(body, m, race_other) && !current.empty()) {
      std::string what = (m[1].str() == "Write" ? "writes" : "reads") + std::string(" at line ") + m[3].str();
      if (race_second.find(what) == std::string::npos) race_second += (race_second.empty() ? "" : ", ") + what;
      if (m[4].matched) race_hazards += std::stol(m[4].str());
      continue;
    }
    bool starts_error = body.rfind("Invalid ", 0) == 0 || body.rfind("Barrier error", 0) == 0 ||
                        body.rfind("Program hit", 0) == 0;
    if (starts_error) {
      finish();
      current = body;
      auto at = current.find(" at ");
      if (at != std::string::npos) current.erase(at);
      continue;
    }
    if (current.empty()) continue;
    if (std::regex_search(body, m, thread))
      current += ", thread (" + m[1].str() + "," + m[2].str() + "," + m[3].str() + ") of block (" + m[4].str() + "," +
                 m[5].str() + "," + m[6].str() + ")";
    if (std::regex_search(body, m, location) && current.find(".cu") == std::string::npos)
      current += ", at line " + m[2].str() + " of " + basename_of(m[1].str());
  }
  finish();
  return r;
}

}  // namespace

int run_under_sanitizer(const PuzzleSpec& spec, const Options& options, const std::string& program) {
  Style st = Style::for_stdout();
  std::string why = engine::gpu_unavailable_reason();
  if (!why.empty()) {
    std::fprintf(stderr,
                 "%s: --sanitize needs the GPU backend, and %s.\n"
                 "On the CPU backend (--backend=cpu) every check already runs without it.\n",
                 spec.id.c_str(), why.c_str());
    return 2;
  }
  std::string sanitizer = find_sanitizer();
  if (sanitizer.empty()) {
    std::fprintf(stderr,
                 "%s: compute-sanitizer is not installed here. It comes with the CUDA toolkit "
                 "(CUDA_HOME/bin/compute-sanitizer).\nWithout it, the GPU backend still checks for "
                 "out-of-bounds writes, and --backend=cpu finds the exact thread of any mistake.\n",
                 spec.id.c_str());
    return 2;
  }
  std::string args;
  for (const std::string& a : options.original_args)
    if (a != "--sanitize" && a.rfind("--backend", 0) != 0 && a != "--quick" && a != "--no-canaries" &&
        a.rfind("--json", 0) != 0)
      args += " " + shell_quoted(a);
  std::printf("%s\n", st.bold("Puzzle " + std::to_string(spec.number) + ": " + spec.title +
                              " under compute-sanitizer (" + sanitizer + ")").c_str());
  std::printf("Each tool re-runs this checker on the GPU with --quick, which takes a while.\n\n");
  bool problems = false;
  const char* tools[][2] = {{"memcheck", "out-of-bounds and misaligned accesses"},
                            {"racecheck", "shared-memory races"},
                            {"synccheck", "barriers that not every thread reaches"}};
  for (auto& tool : tools) {
    std::string cmd = shell_quoted(sanitizer) + " --tool " + tool[0] + " --print-limit 20 " + shell_quoted(program) +
                      " --backend=gpu --quick --no-canaries" + args + " 2>&1";
    std::fflush(stdout);
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) {
      std::fprintf(stderr, "%s: cannot run compute-sanitizer\n", spec.id.c_str());
      return 2;
    }
    std::string text;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, pipe)) text += buf;
    int status = pclose(pipe);
    ToolReport r = read_report(text);
    std::printf("%s (%s): ", st.bold(tool[0]).c_str(), tool[1]);
    if (r.errors < 0) {
      std::printf("%s\n", st.red("did not produce a report").c_str());
      std::printf("%s\n", text.substr(text.size() > 2000 ? text.size() - 2000 : 0).c_str());
      problems = true;
      continue;
    }
    if (r.errors == 0) {
      std::printf("%s\n", st.green("no errors").c_str());
    } else {
      problems = true;
      std::printf("%s\n", st.red(std::to_string(r.errors) + (r.errors == 1 ? " error" : " errors")).c_str());
      for (const std::string& f : r.firsts) std::printf("  - %s\n", f.c_str());
    }
    if (!r.verdict.empty()) std::printf("  checker: %s\n", r.verdict.c_str());
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) problems = true;
  }
  std::printf("\nResult: %s\n", problems ? st.red(st.bold("FAIL")).c_str() : st.green(st.bold("PASS")).c_str());
  return problems ? 1 : 0;
}

}  // namespace checker

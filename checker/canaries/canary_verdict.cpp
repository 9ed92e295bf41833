#include "canary_verdict.h"

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace canaries {
namespace {

// The clang majors the course is proven with (the clang matrix, docs/dev/runs/2026-11-29-clangs),
// where each comes from, and whether it is that release's own clang, the one a refusal suggests.
struct Supported {
  int major;
  const char* distribution;
  bool release_default;
};
const Supported kSupported[] = {{14, "Debian 12", true},  {15, "Debian 12", false}, {16, "Debian 12", false},
                                {17, "Debian 13", false}, {18, "Debian 13", false}, {19, "Debian 13", true}};

// What each canary's check catches, in a student's words.
const std::map<std::string, const char*> kCheckWords = {
    {"global_read_past_end", "reads past the end of a global buffer"},
    {"global_write_past_end", "naming the thread and line of a write past the end of a global buffer"},
    {"dynamic_shared_past_end", "accesses past the dynamic shared memory a launch asked for"},
    {"shared_race", "shared-memory races (a missing __syncthreads())"},
    {"unwritten_shared", "reads of shared memory that no thread wrote"},
    {"misaligned_float4", "misaligned float4 (16-byte) accesses"},
    {"async_copy_read_before_wait", "reading a cp.async destination before its wait"},
    {"tensor_copy_read_before_wait", "reading a tensor copy's (TMA) destination before its mbarrier wait"},
    {"wgmma_accumulator_read_before_wait", "using a wgmma's accumulators before wgmma.wait_group"},
    {"wgmma_operand_overwritten", "overwriting shared memory that a wgmma still reads"},
    {"tensor_store_without_proxy_fence", "tensor copies reading shared memory written without fence.proxy.async"},
    {"cluster_read_before_barrier", "using another CTA's shared memory before a cluster barrier"},
    {"bank_conflict", "shared-memory bank conflicts (the limits on n-way conflicts)"},
    {"global_loads", "counting global loads (the limits on loads per thread)"},
};

std::string words_for(const std::string& name) {
  auto it = kCheckWords.find(name);
  return it != kCheckWords.end() ? it->second : name;
}

int major_of(const std::string& version) {
  try {
    return std::stoi(version);
  } catch (...) {
    return 0;
  }
}

}  // namespace

bool all_found(const std::vector<Result>& results) {
  for (const Result& r : results)
    if (!r.found()) return false;
  return true;
}

std::string to_json(const Build& build, const std::vector<Result>& results) {
  nlohmann::json list = nlohmann::json::array(), lost = nlohmann::json::array();
  for (const Result& r : results) {
    nlohmann::json each = {{"canary", r.name},
                           {"measures", r.measures},
                           {"instrumented", r.instrumented},
                           {"expected_at_least", r.expected_at_least},
                           {"observed", r.observed},
                           {"found", r.found()}};
    if (!r.kind.empty()) each["expected_kind"] = r.kind;
    if (!r.error.empty()) each["error"] = r.error;
    list.push_back(each);
    if (!r.found()) lost.push_back(r.name);
  }
  nlohmann::json document = {
      {"compiler", {{"id", build.compiler.id}, {"version", build.compiler.version}, {"path", build.compiler.path}}},
      {"kernel_flags", build.kernel_flags},
      {"passed", lost.empty()},
      {"lost", lost},
      {"canaries", list}};
  return document.dump(2) + "\n";
}

std::string refusal(const Build& build, const std::vector<Result>& results, const std::string& json_file) {
  const Compiler& c = build.compiler;
  const int major = major_of(c.version);
  bool supported = false;
  for (const Supported& s : kSupported) supported = supported || (c.id == "Clang" && s.major == major);

  std::ostringstream out;
  out << "The course will not check kernels built by this compiler: " << c.id << " " << c.version << " (" << c.path
      << ").\n"
      << "Built by it, the course's canary kernels (checker/canaries) show that these checks no longer work:\n";
  for (const Result& r : results)
    if (!r.found()) out << "  - " << words_for(r.name) << (r.error.empty() ? "" : " (the canary could not run: " + r.error + ")") << "\n";
  out << "A kernel with these mistakes could PASS here and still be wrong on a GPU.\n";
  if (supported)
    out << "Clang " << major << " is a version the course supports: first check that this build's kernel flags are the "
        << "course's (checker/cmake/KernelTargets.cmake, unchanged), since they are what make these checks work.\n";
  // The preset's name when the build tree is build/<preset>, as checker/run makes them.
  const std::string prefix = "build/";
  std::string configure;
  if (build.directory.rfind(prefix, 0) == 0 && build.directory.find('/', prefix.size()) == std::string::npos)
    configure = "cmake --preset " + build.directory.substr(prefix.size());
  else
    configure = "cmake -S . -B " + build.directory;
  out << "What to do: install a clang the course supports";
  const char* sep = ": ";
  for (const Supported& s : kSupported) {
    if (!s.release_default) continue;
    out << sep << "clang " << s.major << " (" << s.distribution << ": sudo apt-get install clang-" << s.major << ")";
    sep = " or ";
  }
  const Supported& newest = kSupported[sizeof kSupported / sizeof kSupported[0] - 1];
  out << ", and build with it, for example:\n"
      << "    rm -rf " << build.directory << "\n"
      << "    " << configure << " -DCMAKE_CXX_COMPILER=clang++-" << newest.major << "\n"
      << "then run checker/run again.\n";
  out << "(What each canary found: " << json_file << ")\n";
  return out.str();
}

}  // namespace canaries

// course_canaries: runs the canary kernels (canary_kernels.cu) on the CPU backend and refuses the
// compiler when a check they exercise is lost (docs/dev/canaries.md).
//
//   course_canaries --json FILE [--refusal FILE]
//
// Writes the results to the --json file. Exit status 0: every canary gave its finding or its
// number; 1: some did not, and the message saying what is lost and what to do is printed (and
// written to the --refusal file, which checker/run shows); 2: a usage or environment problem.
// The build's facts (compiler, kernel flags, folders) come from build_facts.h.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "build_facts.h"
#include "canaries.h"
#include "canary_verdict.h"
#include "engine/backend.h"

namespace {

// The flags, given space-separated (none has a space of its own).
std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::istringstream in(list);
  for (std::string item; in >> item;) items.push_back(item);
  return items;
}

// A path as the student names it: relative to the course's folder when inside it.
std::string shown(const std::string& path) {
  const std::string root = std::string(canaries::this_build.source_dir) + "/";
  return path.rfind(root, 0) == 0 ? path.substr(root.size()) : path;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  std::string json_file, refusal_file;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--json" || a == "--refusal") && i + 1 < argc) {
      (a == "--json" ? json_file : refusal_file) = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s --json FILE [--refusal FILE]\n", argv[0]);
      return 2;
    }
  }
  if (json_file.empty()) {
    std::fprintf(stderr, "usage: %s --json FILE [--refusal FILE]\n", argv[0]);
    return 2;
  }
  const canaries::BuildFacts& facts = canaries::this_build;
  canaries::Build build{{facts.compiler_id, facts.compiler_version, facts.compiler_path},
                        split(facts.kernel_flags),
                        shown(facts.build_dir)};
  std::vector<canaries::Result> results;
  try {
    results = canaries::run_canaries();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "The canary kernels could not run on the CPU backend: %s\n", e.what());
    return 2;
  }
  if (!refusal_file.empty()) std::filesystem::remove(refusal_file);
  if (!write_file(json_file, canaries::to_json(build, results))) {
    std::fprintf(stderr, "Could not write %s\n", json_file.c_str());
    return 2;
  }
  if (canaries::all_found(results)) return 0;
  const std::string message = canaries::refusal(build, results, shown(json_file));
  std::fputs(message.c_str(), stderr);
  if (!refusal_file.empty() && !write_file(refusal_file, message)) {
    std::fprintf(stderr, "Could not write %s\n", refusal_file.c_str());
    return 2;
  }
  return 1;
}

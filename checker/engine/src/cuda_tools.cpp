// Where NVIDIA's command-line tools are: compute-sanitizer and Nsight Compute (ncu) come
// with the CUDA toolkit, but not always on PATH.
#include <glob.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <vector>

#include "engine/backend.h"

#ifndef PUZZLES_CUDA_BIN_DIR
#define PUZZLES_CUDA_BIN_DIR ""
#endif

namespace engine {

std::string cuda_tool_path(const std::string& name) {
  std::vector<std::string> dirs;
  if (const char* home = std::getenv("CUDA_HOME")) dirs.push_back(std::string(home) + "/bin");
  if (*PUZZLES_CUDA_BIN_DIR) dirs.push_back(PUZZLES_CUDA_BIN_DIR);
  dirs.push_back("/usr/local/cuda/bin");
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    for (std::string d; std::getline(ss, d, ':');)
      if (!d.empty()) dirs.push_back(d);
  }
  for (const std::string& d : dirs) {
    std::string candidate = d + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  // Nsight Compute also installs itself under /opt/nvidia/nsight-compute/<version>/.
  glob_t found{};
  std::string pattern = "/opt/nvidia/nsight-compute/*/" + name;
  std::string result;
  if (glob(pattern.c_str(), 0, nullptr, &found) == 0 && found.gl_pathc > 0)
    result = found.gl_pathv[found.gl_pathc - 1];  // the newest version sorts last
  globfree(&found);
  return result;
}

}  // namespace engine

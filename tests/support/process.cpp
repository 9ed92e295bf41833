#include "process.h"

#include <sys/wait.h>

#include <cstdio>

namespace test_support {

ProcessResult run_program(const std::string& path, const std::vector<std::string>& args) {
  std::string cmd = "NO_COLOR=1 '" + path + "'";  // path may be a command on PATH
  for (const std::string& a : args) cmd += " '" + a + "'";
  cmd += " 2>&1";
  ProcessResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) r.output += buf;
  int status = pclose(pipe);
  r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace test_support

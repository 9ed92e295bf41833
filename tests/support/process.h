// Runs a program and captures what it prints and how it exits.
#pragma once

#include <string>
#include <vector>

namespace test_support {

struct ProcessResult {
  int exit_status = -1;  // -1 when killed by a signal
  std::string output;    // stdout and stderr together
};

ProcessResult run_program(const std::string& path, const std::vector<std::string>& args);

}  // namespace test_support

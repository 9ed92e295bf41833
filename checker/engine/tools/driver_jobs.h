// What a compiler driver would run, read from its `-###` output (clang's form: every job on a
// line of its own, each word in double quotes, with \ before a quote, a backslash or a $).
#ifndef CUDA_CPU_TOOLS_DRIVER_JOBS_H_
#define CUDA_CPU_TOOLS_DRIVER_JOBS_H_

#include <optional>
#include <string>
#include <vector>

namespace driver_jobs {

using Command = std::vector<std::string>;

// The jobs of a `-###` output, in order; nullopt where a job line does not read as quoted words.
std::optional<std::vector<Command>> parse(const std::string& output);

// Runs argv (argv[0] a path or a name on PATH) with stdin closed; what it wrote to stdout and
// stderr together, and its exit status (-1 where it could not run).
int capture(const Command& argv, std::string& output);

}  // namespace driver_jobs

#endif  // CUDA_CPU_TOOLS_DRIVER_JOBS_H_

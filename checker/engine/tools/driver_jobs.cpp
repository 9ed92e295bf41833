#include "driver_jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sstream>

namespace driver_jobs {
namespace {

// One job line: ` "word" "word" ...`.
std::optional<Command> parse_line(const std::string& line) {
  Command words;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ' ') {
      ++i;
      continue;
    }
    if (line[i] != '"') return std::nullopt;
    std::string word;
    for (++i;; ++i) {
      if (i >= line.size()) return std::nullopt;  // an unclosed quote
      if (line[i] == '"') break;
      if (line[i] == '\\') {
        if (++i >= line.size()) return std::nullopt;
      }
      word += line[i];
    }
    ++i;
    words.push_back(std::move(word));
  }
  if (words.empty()) return std::nullopt;
  return words;
}

}  // namespace

std::optional<std::vector<Command>> parse(const std::string& output) {
  std::vector<Command> jobs;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    // The driver's other lines (its version, target, thread model, installed directory and any
    // diagnostics) never start with a space and a quote.
    if (line.rfind(" \"", 0) != 0) continue;
    std::optional<Command> job = parse_line(line);
    if (!job) return std::nullopt;
    jobs.push_back(std::move(*job));
  }
  return jobs;
}

int capture(const Command& argv, std::string& output) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return -1;
  pid_t pid = fork();
  if (pid < 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return -1;
  }
  if (pid == 0) {
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, 0);
    dup2(pipe_fds[1], 1);
    dup2(pipe_fds[1], 2);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    std::vector<char*> args;
    for (const std::string& word : argv) args.push_back(const_cast<char*>(word.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  char buffer[4096];
  ssize_t n;
  while ((n = read(pipe_fds[0], buffer, sizeof buffer)) > 0) output.append(buffer, static_cast<std::size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace driver_jobs

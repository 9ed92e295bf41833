#include "checker/diagnostic_lines.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace checker {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::string working_directory() {
  std::error_code ec;
  std::filesystem::path here = std::filesystem::current_path(ec);
  return ec ? std::string(".") : here.string();
}

}  // namespace

DiagnosticLines::DiagnosticLines(std::string base, bool github, std::string github_base)
    : base_(std::move(base)), github_(github), github_base_(std::move(github_base)) {}

DiagnosticLines DiagnosticLines::from_environment() {
  std::string base = env_or("CHECKER_RUN_CWD", working_directory());
  const char* actions = std::getenv("GITHUB_ACTIONS");
  bool github = actions && std::string(actions) == "true";
  return DiagnosticLines(base, github, env_or("GITHUB_WORKSPACE", base));
}

std::string relative_path(const std::string& file, const std::string& base) {
  namespace fs = std::filesystem;
  fs::path f(file), b(base);
  if (!f.is_absolute() || !b.is_absolute()) return file;
  // Both resolved, so that a folder reached through a symbolic link still gives a short path.
  std::error_code ec;
  fs::path cf = fs::weakly_canonical(f, ec);
  if (ec) cf = f.lexically_normal();
  fs::path cb = fs::weakly_canonical(b, ec);
  if (ec) cb = b.lexically_normal();
  fs::path r = cf.lexically_relative(cb);
  return r.empty() ? file : r.string();
}

std::string gcc_line(const std::string& path, int line, const std::string& severity, const std::string& message) {
  std::string one_line = message;
  for (char& c : one_line)
    if (c == '\n' || c == '\r') c = ' ';
  return path + ":" + std::to_string(line) + ": " + severity + ": " + one_line;
}

std::string github_escape_data(const std::string& text) {
  std::string s;
  for (char c : text) {
    if (c == '%') s += "%25";
    else if (c == '\r') s += "%0D";
    else if (c == '\n') s += "%0A";
    else s += c;
  }
  return s;
}

std::string github_escape_property(const std::string& text) {
  std::string s;
  for (char c : github_escape_data(text)) {
    if (c == ':') s += "%3A";
    else if (c == ',') s += "%2C";
    else s += c;
  }
  return s;
}

std::string github_error(const std::string& path, int line, const std::string& title, const std::string& message) {
  return "::error file=" + github_escape_property(path) + ",line=" + std::to_string(line) +
         ",title=" + github_escape_property(title) + "::" + github_escape_data(message);
}

std::vector<std::string> DiagnosticLines::lines(const Diagnostic& d) {
  std::vector<std::string> out;
  const std::string path = relative_path(d.at.file, base_);
  out.push_back(gcc_line(path, d.at.line, "error", d.summary + " [" + d.kind + "]"));
  for (const DiagnosticNote& n : d.notes)
    out.push_back(gcc_line(relative_path(n.at.file, base_), n.at.line, "note", n.message));
  if (!github_) return out;
  const std::string repo_path = relative_path(d.at.file, github_base_);
  if (!marked_.insert(repo_path + ":" + std::to_string(d.at.line) + ":" + d.kind).second) return out;
  // The notes go into the annotation's message, each on a line of its own.
  std::string message = d.summary;
  for (const DiagnosticNote& n : d.notes) {
    std::string file = n.at.file == d.at.file ? "" : relative_path(n.at.file, github_base_) + " ";
    message += "\n" + file + "line " + std::to_string(n.at.line) + ": " + n.message;
  }
  out.push_back(github_error(repo_path, d.at.line, d.title, message));
  return out;
}

}  // namespace checker

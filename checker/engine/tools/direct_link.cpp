// Links a checker by running the linker the compiler driver would run, without the driver.
//
//   direct_link TEMPLATE_DIR -- COMPILER ARGS...      (a link command, as CMake writes it)
//
// Starting clang costs about a tenth of a second before it does anything (it loads LLVM's
// shared libraries): half of a checker's link, which every edit of a kernel file and every
// graded submission pays. The driver's part of a link is fixed by its flags: it adds the C
// runtime's start and end files, its library directories and the standard libraries around the
// inputs, which it passes on in order. So the first link with a set of flags asks the driver
// (-###) what it would run for a probe input, and keeps that as a template in TEMPLATE_DIR;
// later links with the same flags fill in their inputs and run the linker directly.
//
// A template is kept only once it has proved itself: the first link's own command, as the
// driver gives it, must equal the template filled in with that link's inputs. Where it does
// not, or anything here is unsure (a response file, an input that does not exist, a file the
// template names gone), the driver runs as it would have.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "driver_jobs.h"

namespace {

using driver_jobs::Command;

constexpr const char* kHeader = "direct_link template 1";
constexpr const char* kUnusable = "direct_link unusable 1";
// Placeholders in a template: no argument can hold a control character and a newline.
const std::string kOutput = "\x01output";
const std::string kInputs = "\x01inputs";
const std::string kUserDirs = "\x01user-library-dirs";

// A link command taken apart as the driver takes it.
struct LinkCommand {
  std::string compiler;
  Command flags;      // the driver's own options: they choose the template
  Command inputs;     // objects, archives, shared libraries, -l, and -Wl, words, in order
  Command user_dirs;  // -L: the driver puts them before its own library directories
  Command files;      // the inputs named as files, not through -l or -Wl,
  std::string output;
};

// Driver options followed by a value in the next word.
bool takes_value(const std::string& word) {
  static const char* const options[] = {"-target", "-Xclang", "-mllvm", "--sysroot", "-isysroot", "-u",
                                        "-T",      "-z",      "-arch",  "-Xassembler", "-include"};
  for (const char* option : options)
    if (word == option) return true;
  return false;
}

bool split(int argc, char** argv, LinkCommand& link) {
  link.compiler = argv[0];
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    for (char c : word)
      if (static_cast<unsigned char>(c) < 0x20) return false;  // a newline or a control character
    if (word.empty() || word[0] == '@' || word == "-x" || word == "-" || word == "-l" || word == "-L") return false;
    if (word == "-o") {
      if (i + 1 >= argc) return false;
      link.output = argv[++i];
    } else if (word == "-Xlinker") {
      if (i + 1 >= argc) return false;
      link.inputs.push_back(argv[++i]);
    } else if (word.rfind("-Wl,", 0) == 0) {
      std::stringstream parts(word.substr(4));
      std::string part;
      while (std::getline(parts, part, ',')) link.inputs.push_back(part);
    } else if (word.rfind("-l", 0) == 0) {
      link.inputs.push_back(word);
    } else if (word.rfind("-L", 0) == 0) {
      link.user_dirs.push_back(word);
    } else if (word[0] == '-') {
      link.flags.push_back(word);
      if (takes_value(word)) {
        if (i + 1 >= argc) return false;
        link.flags.push_back(argv[++i]);
      }
    } else {
      link.inputs.push_back(word);
      link.files.push_back(word);
    }
  }
  return !link.output.empty() && !link.files.empty();
}

bool exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// What the driver hands to the linker as it is: objects, archives and shared libraries. A
// source file or anything else would be a job of its own, which no template holds.
bool linker_file(const std::string& path) {
  return ends_with(path, ".o") || ends_with(path, ".a") || ends_with(path, ".so") ||
         path.find(".so.") != std::string::npos;
}

// Everything the driver's answer depends on besides the inputs, on one line: the compiler
// (which binary, as installed now), its flags, and the environment it searches.
std::string template_key(const LinkCommand& link) {
  const char separator = '\x1f';  // no argument holds a control character (split() refuses them)
  std::string key = link.compiler;
  struct stat st {};
  if (stat(link.compiler.c_str(), &st) == 0)
    key += separator + std::to_string(st.st_size) + " " + std::to_string(st.st_mtime);
  for (const std::string& flag : link.flags) key += separator + flag;
  for (const char* variable : {"PATH", "LIBRARY_PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX", "CCC_OVERRIDE_OPTIONS"}) {
    const char* value = std::getenv(variable);
    key += separator + std::string(variable) + "=" + (value ? value : "");
  }
  return key;
}

// The template's file: a hash of the key names it, and its second line holds the key itself.
std::string template_name(const std::string& key) {
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : key) hash = (hash ^ c) * 1099511628211ull;
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.link", static_cast<unsigned long long>(hash));
  return name;
}

Command fill(const Command& pattern, const LinkCommand& link) {
  Command out;
  for (const std::string& word : pattern) {
    if (word == kOutput) out.push_back(link.output);
    else if (word == kInputs) out.insert(out.end(), link.inputs.begin(), link.inputs.end());
    else if (word == kUserDirs) out.insert(out.end(), link.user_dirs.begin(), link.user_dirs.end());
    else out.push_back(word);
  }
  return out;
}

// The one job the driver would run for argv, or an empty command.
Command driver_job(const Command& argv) {
  std::string output;
  Command query = argv;
  query.push_back("-###");
  if (driver_jobs::capture(query, output) != 0) return {};
  std::optional<std::vector<Command>> jobs = driver_jobs::parse(output);
  if (!jobs || jobs->size() != 1 || (*jobs)[0].empty() || (*jobs)[0][0].empty() || (*jobs)[0][0][0] != '/') return {};
  // Anything else the driver says (a warning) would be lost by running its job directly.
  if (output.find("warning:") != std::string::npos || output.find("error:") != std::string::npos) return {};
  return (*jobs)[0];
}

// The driver's command for a probe input, with the placeholders put in.
Command make_template(const LinkCommand& link, const std::string& dir) {
  std::string probe_input = dir + "/probe.o", probe_output = dir + "/probe.out";
  if (!exists(probe_input)) std::ofstream(probe_input).flush();
  Command argv{link.compiler};
  argv.insert(argv.end(), link.flags.begin(), link.flags.end());
  argv.insert(argv.end(), {probe_input, "-o", probe_output});
  Command job = driver_job(argv);
  Command pattern;
  int inputs = 0, outputs = 0;
  bool dirs_placed = false;
  for (std::size_t i = 0; i < job.size(); ++i) {
    const std::string& word = job[i];
    if (word == probe_output && i > 0 && job[i - 1] == "-o") {
      pattern.push_back(kOutput);
      ++outputs;
    } else if (word == probe_input) {
      if (!dirs_placed) pattern.push_back(kUserDirs);
      dirs_placed = true;
      pattern.push_back(kInputs);
      ++inputs;
    } else {
      if (!dirs_placed && word.rfind("-L", 0) == 0) {
        pattern.push_back(kUserDirs);
        dirs_placed = true;
      }
      pattern.push_back(word);
    }
  }
  if (inputs != 1 || outputs != 1) return {};
  return pattern;
}

// A kept template, or an empty command; *unusable where the driver must run for these flags.
Command read_template(const std::string& path, const std::string& key, bool* unusable) {
  std::ifstream in(path, std::ios::binary);
  std::string line, kept_key;
  if (!std::getline(in, line) || !std::getline(in, kept_key) || kept_key != key) return {};
  if (line == kUnusable) *unusable = true;
  if (line != kHeader) return {};
  Command pattern;
  while (std::getline(in, line)) {
    // A file the template names (a runtime start file, the linker) gone: the compiler's
    // installation changed, so ask the driver again.
    if (!line.empty() && line[0] == '/' && !exists(line)) return {};
    pattern.push_back(line);
  }
  return pattern;
}

// Written under another name and renamed, so that a link running beside this one never reads
// half a template; a folder that cannot be written keeps nothing.
void keep(const std::string& path, const std::string& text) {
  std::string temporary = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    if (!out) {
      std::remove(temporary.c_str());
      return;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) std::remove(temporary.c_str());
}

std::string template_text(const std::string& key, const Command& pattern) {
  std::string text = std::string(kHeader) + "\n" + key + "\n";
  for (const std::string& word : pattern) text += word + "\n";
  return text;
}

[[noreturn]] void run(const Command& argv) {
  std::vector<char*> args;
  for (const std::string& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  std::cerr << "direct_link: cannot run " << argv[0] << ": " << std::strerror(errno) << "\n";
  std::exit(127);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || std::strcmp(argv[2], "--") != 0) {
    std::cerr << "usage: direct_link TEMPLATE_DIR -- COMPILER ARGS...\n";
    return 2;
  }
  const std::string dir = argv[1];
  const Command original(argv + 3, argv + argc);
  LinkCommand link;
  if (!split(argc - 3, argv + 3, link)) run(original);
  for (const std::string& file : link.files)
    if (!linker_file(file) || !exists(file)) run(original);  // the driver says what is wrong

  const std::string key = template_key(link);
  const std::string path = dir + "/" + template_name(key);
  bool unusable = false;
  Command pattern = read_template(path, key, &unusable);
  if (unusable) run(original);
  if (!pattern.empty()) run(fill(pattern, link));

  // The first link with these flags: a template, proved on this link's own command.
  mkdir(dir.c_str(), 0777);
  pattern = make_template(link, dir);
  Command job = driver_job(original);
  if (job.empty()) run(original);
  if (pattern.empty() || fill(pattern, link) != job) {
    keep(path, std::string(kUnusable) + "\n" + key + "\n");
    run(original);
  }
  keep(path, template_text(key, pattern));
  run(job);
}

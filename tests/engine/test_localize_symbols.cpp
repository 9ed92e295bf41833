// ptx_rewrite --localize-symbols, the kernel build's compile step (tools/localize_symbols.cpp):
// two objects that define the same names, as two kernel files or the CPU and GPU builds of one
// do, link into one program once each is compiled through it, and each keeps its own copy of
// what they share: its functions, its inline functions and their local statics.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "kernel_target_flags.h"
#include "process.h"

namespace {

using test_support::kernel_target_flags;

std::string path(const std::string& name) { return std::string(TEST_PROGRAM_DIR) + "/localize_" + name; }

// A "kernel library" whose helper returns `value`, with an inline function and a local static
// that every library defines alike, and an export of its own (kernels::<name>).
std::string library(const std::string& name, int value) {
  return "int helper() { return " + std::to_string(value) + "; }\n"
         "inline int counted() { static int count = 10; return ++count; }\n"
         "namespace kernels { int " + name + "() { return helper() * 100 + counted(); } }\n";
}

test_support::ProcessResult compile_localized(const std::string& name, const std::string& suffix,
                                              const std::string& source) {
  std::ofstream(path(name + ".cpp")) << source;
  std::vector<std::string> args = {"--localize-symbols", suffix, "--", KERNEL_CXX};
  for (const std::string& f : kernel_target_flags()) args.push_back(f);
  for (const char* a : {"-std=c++17", "-O0", "-c"}) args.push_back(a);
  args.push_back(path(name + ".cpp"));
  args.push_back("-o");
  args.push_back(path(name + ".o"));
  return test_support::run_program(PTX_REWRITE_PATH, args);
}

bool exists(const std::string& file) { return std::ifstream(file).good(); }

}  // namespace

TEST_CASE("localize-symbols: two objects defining the same names link, each keeping its own functions and statics") {
  REQUIRE(compile_localized("first", "cpu_first", library("first", 1)).exit_status == 0);
  REQUIRE(compile_localized("second", "gpu_first", library("second", 2)).exit_status == 0);
  std::ofstream(path("main.cpp")) << "#include <cstdio>\n"
                                     "namespace kernels { int first(); int second(); }\n"
                                     "int main() { std::printf(\"%d %d\\n\", kernels::first(), kernels::second()); }\n";
  std::vector<std::string> link = kernel_target_flags();
  for (const std::string& a : {path("main.cpp"), path("first.o"), path("second.o"), std::string("-o"), path("program")})
    link.push_back(a);
  test_support::ProcessResult linked = test_support::run_program(KERNEL_CXX, link);
  INFO(linked.output);
  REQUIRE(linked.exit_status == 0);
  if (!kernel_target_flags().empty()) return;  // a cross build: the program is not this machine's
  test_support::ProcessResult ran = test_support::run_program(path("program"), {});
  // Each library calls its own helper, and counts with its own static: renamed apart, the
  // inline function's copies (one COMDAT group each) are not merged into one.
  CHECK(ran.output == "111 211\n");

  // Without the renaming the same two files do not link: the test above depends on it.
  std::vector<std::string> plain = kernel_target_flags();
  for (const std::string& a : {std::string("-std=c++17"), path("first.cpp"), path("second.cpp"), path("main.cpp"),
                               std::string("-o"), path("plain")})
    plain.push_back(a);
  test_support::ProcessResult clash = test_support::run_program(KERNEL_CXX, plain);
  CHECK(clash.exit_status != 0);
  CHECK(clash.output.find("helper") != std::string::npos);
}

TEST_CASE("localize-symbols: a failed compile keeps its status and messages, and an object that is not ELF is refused") {
  test_support::ProcessResult failed = compile_localized("broken", "cpu_broken", "int x = ;\n");
  CHECK(failed.exit_status == 1);
  CHECK(failed.output.find("error") != std::string::npos);

  // A "compiler" that writes something that is not an object: refused, and the file removed,
  // so that no build takes it for done.
  std::string junk = path("junk.o");
  test_support::ProcessResult refused = test_support::run_program(
      PTX_REWRITE_PATH, {"--localize-symbols", "x", "--", "/bin/sh", "-c", "echo junk > \"$2\"", "sh", "-o", junk});
  CHECK(refused.exit_status == 1);
  CHECK(refused.output.find("not an ELF object") != std::string::npos);
  CHECK(!exists(junk));

  test_support::ProcessResult no_object =
      test_support::run_program(PTX_REWRITE_PATH, {"--localize-symbols", "x", "--", "/bin/true"});
  CHECK(no_object.exit_status == 2);
  CHECK(no_object.output.find("names no object (-o)") != std::string::npos);
}

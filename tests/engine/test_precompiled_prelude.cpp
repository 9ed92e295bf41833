// ptx_rewrite --prelude (tools/precompiled_prelude.h): a kernel file that begins with the
// precompiled kernel shim's text leaves it out and goes on at its own next line; a file whose
// text differs from the header's stops the build, since compiled against the header it would
// declare things twice or not at all.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "process.h"

namespace {

struct Rewritten {
  int exit_status = 0;
  std::string output;  // ptx_rewrite's messages
  std::string text;    // the rewritten file
};

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

Rewritten rewrite_with_prelude(const std::string& name, const std::string& prelude, const std::string& kernel) {
  const std::string base = std::string(TEST_PROGRAM_DIR) + "/" + name;
  write(base + ".prelude.h", prelude);
  write(base + ".ii", kernel);
  test_support::ProcessResult r =
      test_support::run_program(PTX_REWRITE_PATH, {"--prelude", base + ".prelude.h", base + ".ii", base + ".cpp"});
  Rewritten out{r.exit_status, r.output, ""};
  std::ifstream in(base + ".cpp", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  out.text = text.str();
  return out;
}

// The shim's text as the preprocessor writes it, and two files that include it first: the
// prelude (what the build precompiles) and a kernel file.
const std::string shim =
    "# 1 \"/engine/cuda_cpu/kernel_shim.h\" 1\n"
    "# 1 \"/usr/include/c++/cmath\" 1 3\n"
    "namespace std { float sqrt(float); }\n"
    "# 2 \"/engine/cuda_cpu/kernel_shim.h\" 2\n"
    "struct dim3 { unsigned x, y, z; };\n";

const std::string prelude =
    "# 1 \"prelude.cpp\"\n"
    "# 1 \"<built-in>\" 1\n"
    "# 1 \"<built-in>\" 3\n"
    "# 1 \"<command line>\" 1\n"
    "# 1 \"<built-in>\" 2\n"
    "# 1 \"prelude.cpp\" 2\n" +
    shim + "# 2 \"prelude.cpp\" 2\n\n";

std::string kernel_file(const std::string& included) {
  return "# 1 \"/gen/cpu.cpp\"\n"
         "# 1 \"<built-in>\" 1\n"
         "# 1 \"<built-in>\" 3\n"
         "# 1 \"<command line>\" 1\n"
         "# 1 \"<built-in>\" 2\n"
         "# 1 \"/gen/cpu.cpp\" 2\n"
         "\n\n" +
         included +
         "# 4 \"/gen/cpu.cpp\" 2\n"
         "__global__ void k(dim3 d) {}\n";
}

}  // namespace

TEST_CASE("cpu: a kernel file that begins with the precompiled shim's text leaves it out and goes on at its own line") {
  Rewritten r = rewrite_with_prelude("prelude_same", prelude, kernel_file(shim));
  INFO(r.output);
  REQUIRE(r.exit_status == 0);
  CHECK(r.text.find("struct dim3") == std::string::npos);
  CHECK(r.text.find("namespace std") == std::string::npos);
  // The file's own lines follow at line 4 of cpu.cpp, with no include left to return from.
  CHECK(r.text.find("\n\n# 4 \"/gen/cpu.cpp\"\n") != std::string::npos);
  CHECK(r.text.find("\"/gen/cpu.cpp\" 2\n__global__") == std::string::npos);
  CHECK(r.text.find("void k(dim3 d) {}") != std::string::npos);
}

TEST_CASE("cpu: a kernel file whose shim text differs from the precompiled one stops the build with exit status 2") {
  std::string changed = shim;
  changed.replace(changed.find("unsigned x"), 10, "int x");
  Rewritten r = rewrite_with_prelude("prelude_differs", prelude, kernel_file(changed));
  CHECK(r.exit_status == 2);
  CHECK(r.output.find("does not begin with the precompiled prelude's text (/engine/cuda_cpu/kernel_shim.h)") !=
        std::string::npos);
  CHECK(r.output.find("out of step with this kernel file's flags") != std::string::npos);

  // The same text, but the kernel file stays inside the shim after it.
  Rewritten longer = rewrite_with_prelude("prelude_longer", prelude, kernel_file(shim + "int more;\n"));
  CHECK(longer.exit_status == 2);
  CHECK(longer.output.find("goes on inside /engine/cuda_cpu/kernel_shim.h") != std::string::npos);
}

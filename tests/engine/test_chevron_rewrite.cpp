// <<<...>>> launches in host code, as the CPU build rewrites them (tools/chevron_launch.h):
// every launch form becomes a call of the engine with the kernel, configuration and arguments
// as written and the line count kept, text that only looks like a launch stays, a launch that
// cannot be read stops the build at its line, and a kernel file whose host code launches
// compiles.
#include <doctest/doctest.h>

#include <algorithm>
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

Rewritten rewrite(const std::string& name, const std::string& preprocessed) {
  const std::string base = std::string(TEST_PROGRAM_DIR) + "/" + name;
  std::ofstream(base + ".ii") << preprocessed;
  test_support::ProcessResult r = test_support::run_program(PTX_REWRITE_PATH, {base + ".ii", base + ".cpp"});
  Rewritten out{r.exit_status, r.output, ""};
  std::ifstream in(base + ".cpp");
  std::stringstream text;
  text << in.rdbuf();
  out.text = text.str();
  return out;
}

long lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

}  // namespace

TEST_CASE("programs: every <<<...>>> form is rewritten into a launch, keeping lines and leaving look-alikes") {
  const std::string input =
      "# 1 \"app.cu\"\n"
      "void host(float* p, int n) {\n"
      "  k<<<g, b>>>(p, n);\n"
      "  ns::template k2<T, (N > 2 ? 4 : 8)><<<dim3(n / 32, 1), 32, 0, s>>>(f(p, n), g<1, 2>(n));\n"
      "  ::k3<<<1,\n"
      "        1>>>();\n"
      "  (table[i])<<<2, 64, bytes>>>(p);\n"
      "  const char* text = \"k<<<1, 1>>>(p)\";\n"
      "  std::cout << x;\n"
      "}\n"
      "template <class T> ostream& operator<<<T>(ostream&, const V<T>&);\n";
  Rewritten r = rewrite("chevron_forms", input);
  INFO(r.output);
  INFO(r.text);
  REQUIRE(r.exit_status == 0);
  CHECK(lines(r.text) == lines(input));
  CHECK(r.text.find("::cuda_cpu::ChevronSite{\"k\", \"app.cu\", 2, nullptr, 0}, "
                    "::cuda_cpu::chevron_config(g, b), k, p, n)") != std::string::npos);
  CHECK(r.text.find("ChevronSite{\"ns::template k2<T, (N > 2 ? 4 : 8)>\", \"app.cu\", 3, nullptr, 0}, "
                    "::cuda_cpu::chevron_config(dim3(n / 32, 1), 32, 0, s), ns::template k2<T, (N > 2 ? 4 : 8)>, "
                    "f(p, n), g<1, 2>(n))") != std::string::npos);
  CHECK(r.text.find("ChevronSite{\"::k3\", \"app.cu\", 4, nullptr, 0}, ::cuda_cpu::chevron_config(1,\n        1), ::k3)") !=
        std::string::npos);
  CHECK(r.text.find("ChevronSite{\"(table[i])\", \"app.cu\", 6, nullptr, 0}, "
                    "::cuda_cpu::chevron_config(2, 64, bytes), (table[i]), p)") != std::string::npos);
  CHECK(r.text.find("\"k<<<1, 1>>>(p)\"") != std::string::npos);
  CHECK(r.text.find("std::cout << x;") != std::string::npos);
  CHECK(r.text.find("operator<<<T>(ostream&") != std::string::npos);
}

TEST_CASE("programs: a <<<...>>> launch that cannot be read stops the build at its line") {
  Rewritten r = rewrite("chevron_unclosed", "# 1 \"app.cu\"\nvoid f() {\n  k<<<1, 1(p);\n}\n");
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("app.cu:2:1: error: this <<<...>>> launch has no closing >>>") != std::string::npos);
  r = rewrite("chevron_no_arguments", "# 1 \"app.cu\"\nvoid f() {\n  k<<<1, 1>>>;\n}\n");
  CHECK(r.exit_status == 1);
  CHECK(r.output.find("app.cu:2:1: error: a <<<...>>> launch needs its argument list") != std::string::npos);
}

TEST_CASE("programs: a kernel file whose host code launches with <<<...>>> compiles for the CPU backend") {
  const std::string base = std::string(TEST_PROGRAM_DIR) + "/chevron_kernel_file";
  std::ofstream(base + ".cu") << R"(
template <typename T, int N>
__global__ void fill(T* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = T(N);
}
template <typename T>
__global__ void copy(const T* in, T* out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = in[i];
}
inline cudaError_t both(float* a, float* b, int n, cudaStream_t s) {
  fill<float, 3><<<(n + 255) / 256, 256, 0, s>>>(a, n);
  copy<<<1, dim3(128)>>>(a, b, n);  // T deduced, its input a pointer to const
  return cudaGetLastError();
}
)";
  const std::vector<std::string> flags = {"-std=c++17", "-x", "c++", "-I" ENGINE_INCLUDE_DIR "/cuda_cpu/compat",
                                          "-I" ENGINE_INCLUDE_DIR, "-include", "cuda_cpu/kernel_shim.h"};
  std::vector<std::string> args = flags;
  args.insert(args.end(), {"-E", KERNEL_PREPROCESS_FLAGS, base + ".cu", "-o", base + ".ii"});
  test_support::ProcessResult r = test_support::run_program(KERNEL_CXX, args);
  REQUIRE(r.exit_status == 0);
  r = test_support::run_program(PTX_REWRITE_PATH, {base + ".ii", base + ".rewritten.cpp"});
  INFO(r.output);
  REQUIRE(r.exit_status == 0);
  r = test_support::run_program(KERNEL_CXX, {"-std=c++17", "-fsyntax-only", "-x", "c++", "-I" ENGINE_INCLUDE_DIR,
                                             base + ".rewritten.cpp"});
  INFO(r.output);
  CHECK(r.exit_status == 0);
}

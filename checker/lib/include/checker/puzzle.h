// What a puzzle is, as data. Each puzzle is declared once, in checker/specs/<id>.json (see
// docs/dev/spec.md); CMake, the checkers, the tests, the command line and the docs all read
// that file. This is its C++ form, checked when it is loaded.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/expression.h"
#include "engine/backend.h"

namespace checker {

enum class ElementType { f32, f16 };
const char* to_string(ElementType type);  // "float", "__half"
std::size_t size_of(ElementType type);

// A problem size: c (m × n) from a (m × k) and b (k × n). A square puzzle has one size
// parameter and m = n = k.
struct Dims {
  long m = 0, n = 0, k = 0;
  std::uint64_t multiply_adds() const { return std::uint64_t(m) * std::uint64_t(n) * std::uint64_t(k); }
  bool operator==(const Dims& o) const { return m == o.m && n == o.n && k == o.k; }
};

// What a kernel parameter stands for; told by its name in the spec's signature.
enum class ParamRole { a, b, c, size, m, n, k, alpha, beta, a_map, b_map, c_map };

struct KernelParam {
  std::string type;  // "const float*", "int"
  std::string name;  // "a", "size"
  ParamRole role;
};

enum class Epilogue {
  none,        // c = a · b
  relu,        // c = max(0, a · b)
  alpha_beta,  // c = alpha · (a · b) + beta · c
};

struct Limit {
  std::string max;  // a formula of the problem size and the constants
  std::string why;  // how the reference solution arrives at it, for students
};

struct PuzzleSpec {
  int number = 0;
  std::string id;        // "p04_tiled": file names, executable, doc page
  std::string title;     // "Tiled matrix multiplication"
  std::string learn;     // what the student learns, in a few words
  std::string computes;  // "c = relu(a · b)"
  std::string signature;  // "void(const float* a, const float* b, float* c, int n)"
  std::vector<KernelParam> params;
  // Each kernel the puzzle asks for, as the build names it: "matmul_tiled", or a template
  // instantiation "matmul_warp_tiled<BM, BN, BK>" whose arguments the kernel file defines.
  std::vector<std::string> kernels;

  // The oldest GPU its kernels build for, from "requires_gpu": "sm_80" -> 80, "sm_90a" -> 90
  // with `architecture_specific` (only that architecture runs it); 0: any.
  unsigned requires_gpu = 0;
  bool requires_gpu_specific = false;
  // True when a GPU of this compute capability (major * 10 + minor) runs its kernels.
  bool runs_on_gpu(unsigned capability) const {
    return requires_gpu == 0 || (requires_gpu_specific ? capability == requires_gpu : capability >= requires_gpu);
  }

  bool square = true;       // one size parameter (m = n = k)
  std::string size_name;    // square: the size parameter's name ("n", "size")
  std::string output_name;  // the output's parameter name ("c", "out")
  ElementType a_type = ElementType::f32, b_type = ElementType::f32, c_type = ElementType::f32;
  bool b_is_transpose_of_a = false;
  Epilogue epilogue = Epilogue::none;

  std::map<std::string, long long> constants;  // as the kernel file defines them

  // A TMA tensor map the kernel takes (a const __grid_constant__ CUtensorMap parameter),
  // which the checker encodes with cuTensorMapEncodeTiled for the case's matrix: a row-major
  // matrix as a 2-D tensor {columns, rows}, boxes of box[0] columns x box[1] rows (formulas),
  // with a 0, 32, 64 or 128-byte swizzle; zeros outside the matrix (for c, the output of floats:
  // tensor stores write only inside it).
  struct TensorMapParam {
    std::string param;               // "a_map"
    char matrix = 'a';               // 'a', 'b' or 'c'
    std::vector<std::string> box;    // columns, rows
    unsigned swizzle_bytes = 128;
  };
  std::vector<TensorMapParam> tensor_maps;
  // The driver's rule for the maps: every row of a mapped matrix a multiple of 16 bytes. Empty when the
  // case has no tensor maps or meets it; otherwise what is wrong, in the size's words.
  std::string tensor_map_problem(const Dims& d) const;

  struct Launch {
    std::vector<std::string> block, grid;  // formulas, x first
    std::string dynamic_shared_bytes;      // formula; empty: none
    // Thread block clusters (sm_90 or newer): one to three formulas, x first; empty: none.
    std::vector<std::string> cluster;
  } launch;
  std::vector<std::string> output_tile;  // rows and columns of c that one block computes

  struct Cases {
    Dims worked;                // small integers, printed in full
    std::vector<Dims> cpu, gpu;  // random matrices, per backend
    long max = 0;               // square: the largest n the kernel supports; 0: none
  } cases;

  struct Limits {
    std::optional<Limit> global_loads_per_thread;
    std::optional<int> bank_conflict_ways;  // worst n-way conflict allowed on shared accesses
    std::string bank_conflict_why;
    std::optional<double> sectors_per_request;  // worst average allowed on a global load line
    std::string sectors_why;
  } limits;

  struct Bench {
    std::vector<Dims> shapes;
    std::string baseline;                  // "sgemm" or "hgemm" (fp16 in, fp32 accumulate)
    std::optional<double> target_percent;  // of the baseline, on the reference solution
    std::optional<Dims> target_at;         // the shape the target is for (one of shapes); none: the largest
    bool target_everywhere = false;        // "target_at": "every": the target holds at every timed shape
  } bench;

  std::string guard_hint;  // the fix for an out-of-bounds access, in this puzzle's names
  // How to give a kernel more time: a checker's option, or a program's environment variable.
  std::string timeout_hint = "change the limit with --timeout";
  // A shared-memory race only ever between lanes of one warp also names __syncwarp(): code
  // written for GPUs before Volta counted on lockstep. Whole programs; the puzzles teach
  // __syncthreads(), and a small case's races may all fall in one warp.
  bool warp_race_hint = false;
  std::vector<std::string> hints;

  // "matmul_warp_tiled" for "matmul_warp_tiled<BM, BN, BK>".
  static std::string kernel_name(const std::string& kernel);

  // The constants and the problem size (m, n, k and the size parameter's own name).
  Variables variables(const Dims& d) const;
  // The launch on a device: its formulas may also use SMS, the device's multiprocessors.
  engine::LaunchConfig launch_for(const Dims& d, const engine::DeviceLimits& device) const;
  // "blocks of 16 × 16 threads, a grid of ceil(n / 16) × ceil(n / 16) blocks", and
  // ", cluster (2,1)" when the spec asks for clusters.
  std::string launch_words() const;
  // Global loads one thread may make; 0 when the puzzle sets no budget.
  std::uint64_t load_budget(const Dims& d) const;
  // The block's output tile, for maps of c: rows and columns.
  std::pair<long, long> tile_for(const Dims& d) const;
  // "n = 33" or "m = 33, n = 65, k = 17".
  std::string size_words(const Dims& d) const;
  // A formula with the constants written out: "2 * ceil(n / TILE)" -> "2 * ceil(n / 16)".
  std::string formula_words(const std::string& formula) const;
};

// Every puzzle of the course, in order of number.
const std::vector<PuzzleSpec>& puzzle_table();
// The spec with this id; throws engine::Error if there is none.
const PuzzleSpec& find_puzzle(const std::string& id);
// Before the table is first read: the puzzle's constants take these values instead of its spec's
// (a checker built for a tuning variant, whose kernel file defines them so: checker/run tune), so
// that the launch formulas, the budgets and the words use them. "" or what is wrong.
std::string override_constants(const std::string& id, const std::map<std::string, long long>& values);
// Parses one spec file's text; throws engine::Error naming the file and the field.
PuzzleSpec parse_spec(const std::string& json_text, const std::string& file_name);

}  // namespace checker

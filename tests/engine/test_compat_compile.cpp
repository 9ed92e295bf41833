// The CPU backend's compat headers at compile time: what they do not support stops the
// build with a message naming it, and what they support compiles. Each snippet is compiled
// as the CPU build compiles a kernel file: with the engine's kernel shim first and the compat
// folder standing in for CUDA's headers.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kernel_target_flags.h"
#include "process.h"

namespace {

using test_support::kernel_target_flags;

test_support::ProcessResult compile(const std::string& name, const std::string& source,
                                    const std::string& compiler = KERNEL_CXX,
                                    std::vector<std::string> extra = {}) {
  const std::string path = std::string(TEST_PROGRAM_DIR) + "/" + name + ".cu";
  std::ofstream(path) << source;
  std::vector<std::string> args = {"-std=c++17", "-fsyntax-only", "-x", "c++",
                                   "-I" ENGINE_INCLUDE_DIR "/cuda_cpu/compat", "-I" ENGINE_INCLUDE_DIR,
                                   "-include", "cuda_cpu/kernel_shim.h"};
  if (compiler == KERNEL_CXX) {
    const std::vector<std::string> target = kernel_target_flags();
    args.insert(args.end(), target.begin(), target.end());
  }
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(path);
  return test_support::run_program(compiler, args);
}

// Compiles `source` (each line one use of something unsupported), expects it to fail, and
// each message to be among the errors.
void check_refused(const std::string& name, const std::string& source, const std::vector<std::string>& messages) {
  const test_support::ProcessResult r = compile(name, source, KERNEL_CXX, {"-ferror-limit=0"});
  INFO(r.output);
  CHECK(r.exit_status != 0);
  for (const std::string& message : messages) {
    CAPTURE(message);
    CHECK(r.output.find(message) != std::string::npos);
  }
}

// Compiles `source` as the CPU build compiles a kernel file with inline PTX: preprocessed, its
// asm statements rewritten into calls of the engine (ptx_rewrite), then compiled. The headers
// whose bindings are inline PTX (cuda/ptx, cuda/barrier) are only valid C++ after that step.
// With `object`, compiled to <name>.o rather than only checked.
test_support::ProcessResult compile_rewritten(const std::string& name, const std::string& source,
                                              const std::string& compiler = KERNEL_CXX,
                                              const std::vector<std::string>& warnings = {}, bool object = false) {
  const std::string base = std::string(TEST_PROGRAM_DIR) + "/" + name;
  std::ofstream(base + ".cu") << source;
  // The cross target is clang's (--target=...); g++ checks the forms for this machine.
  const std::vector<std::string> target = compiler == KERNEL_CXX ? kernel_target_flags() : std::vector<std::string>{};
  std::vector<std::string> args = {"-std=c++17", "-x", "c++", "-I" ENGINE_INCLUDE_DIR "/cuda_cpu/compat",
                                   "-I" ENGINE_INCLUDE_DIR, "-include", "cuda_cpu/kernel_shim.h"};
  args.insert(args.end(), target.begin(), target.end());
  args.insert(args.end(), {"-E", KERNEL_PREPROCESS_FLAGS, base + ".cu", "-o", base + ".ii"});
  test_support::ProcessResult r = test_support::run_program(compiler, args);
  if (r.exit_status != 0) return r;
  r = test_support::run_program(PTX_REWRITE_PATH, {base + ".ii", base + ".rewritten.cpp"});
  if (r.exit_status != 0) return r;
  std::vector<std::string> compile = {"-std=c++17", "-x", "c++", "-I" ENGINE_INCLUDE_DIR};
  if (object)
    compile.insert(compile.end(), {"-c", "-o", base + ".o"});
  else
    compile.push_back("-fsyntax-only");
  if (compiler.find("clang") != std::string::npos) compile.insert(compile.begin(), "-ferror-limit=0");
  compile.insert(compile.end(), target.begin(), target.end());
  compile.insert(compile.end(), warnings.begin(), warnings.end());
  compile.push_back(base + ".rewritten.cpp");
  return test_support::run_program(compiler, compile);
}

// The storage that the generated kernel file defines behind extern __shared__ arrays
// (checker/cmake/kernel_cpu.cpp.in), for snippets that declare one.
const char kDynamicSharedStorage[] =
    "extern \"C\" { alignas(1024) thread_local unsigned char cuda_cpu_dynamic_shared_snippet[4096]; }\n";

}  // namespace

TEST_CASE("compat: kernels using cuda/ptx and cuda/barrier as supported compile through the PTX rewriting") {
  const test_support::ProcessResult r = compile_rewritten("compat_cccl_supported", R"(
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <utility>
namespace ptx = cuda::ptx;
__global__ void k(const __grid_constant__ CUtensorMap map, unsigned* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  auto& bar = *reinterpret_cast<cuda::barrier<cuda::thread_scope_block>*>(smem + 16384);
  uint64_t* mb = reinterpret_cast<uint64_t*>(smem + 16392);
  init(&bar, blockDim.x);
  ptx::mbarrier_init(mb, 1);
  ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  ptx::fence_proxy_async();
  const int32_t c2[2] = {0, 0};
  const int32_t c3[3] = {0, 0, 0};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, smem, &map, c2, mb);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, smem, &map, c3, mb, uint16_t(3));
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_cluster, mb, 16u);
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster, mb, 16u);
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster, mb);
  uint64_t state = ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, mb, 2u);
  out[0] = ptx::mbarrier_try_wait(ptx::sem_acquire, ptx::scope_cta, mb, state);
  out[1] = ptx::mbarrier_test_wait_parity(ptx::sem_acquire, ptx::scope_cluster, mb, 0u);
  ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map, c3, smem);
  ptx::cp_async_bulk_commit_group();
  ptx::cp_async_bulk_wait_group(ptx::n32_t<1>());
  auto token = cuda::device::barrier_arrive_tx(bar, 2, 128);
  cuda::device::barrier_expect_tx(bar, 64);
  bar.wait(std::move(token));
  bar.arrive_and_wait();
  ptx::barrier_cluster_arrive();
  ptx::barrier_cluster_wait();
  out[2] = ptx::get_sreg_cluster_ctarank() + ptx::get_sreg_cluster_nctarank();
  out[3] = *cuda::device::barrier_native_handle(bar) != 0;
}
)");
  INFO(r.output);
  CHECK(r.exit_status == 0);
}

// CUDA's __noinline__ once was a macro of the shim's, which broke every standard header that
// spells GCC's attribute __noinline__ (libstdc++ 12's <memory>, 14's <string>): a kernel file
// must compile whatever it includes, and keep the keyword's meaning.
TEST_CASE("compat: a kernel file may use __noinline__ and include <memory> and <string> after the shim") {
  const test_support::ProcessResult r = compile_rewritten("compat_noinline", R"(
#include <memory>
#include <string>
static __noinline__ __device__ float twice(float x) { return 2 * x; }
__attribute__((__noinline__, __cold__)) static float thrice(float x) { return 3 * x; }
[[gnu::__noinline__]] static float four(float x) { return 4 * x; }
__global__ void k(float* out) {
  std::string s("0");
  auto p = std::make_shared<float>(1.0f);
  out[0] = twice(out[0]) + thrice(*p) + four(float(s.size()));
}
)");
  INFO(r.output);
  CHECK(r.exit_status == 0);
  std::ifstream rewritten(std::string(TEST_PROGRAM_DIR) + "/compat_noinline.rewritten.cpp");
  const std::string text((std::istreambuf_iterator<char>(rewritten)), std::istreambuf_iterator<char>());
  // The keyword as a specifier became the attribute; the attribute lists kept their spelling.
  CHECK(text.find("static __attribute__((noinline)) float twice") != std::string::npos);
  CHECK(text.find("__attribute__((__noinline__, __cold__)) static float thrice") != std::string::npos);
  CHECK(text.find("[[gnu::__noinline__]] static float four") != std::string::npos);
}

TEST_CASE("compat: what cuda/barrier does not support fails to compile, naming itself") {
  const test_support::ProcessResult r = compile_rewritten("compat_barrier_unsupported", R"(
#include <cuda/barrier>
struct on_completion {
  void operator()() noexcept {}
};
__global__ void k(float* out, const float* in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cuda::barrier<cuda::thread_scope_device>* device_scope = nullptr;
  (void)sizeof(*device_scope);
  cuda::barrier<cuda::thread_scope_block, on_completion>* completion = nullptr;
  (void)sizeof(*completion);
  bar.arrive_and_drop();
  bar.try_wait_for(bar.arrive(), 1);
  bar.try_wait_until(bar.arrive(), 1);
  cuda::memcpy_async(out, in, sizeof(float), bar);
}
)");
  INFO(r.output);
  CHECK(r.exit_status != 0);
  for (const char* message :
       {"supports cuda::barrier<cuda::thread_scope_block> only", "cuda::barrier with a completion function",
        "cuda::barrier::arrive_and_drop", "cuda::barrier::try_wait_for", "cuda::barrier::try_wait_until",
        "cuda::memcpy_async(dst, src, size, barrier)"}) {
    CAPTURE(message);
    CHECK(r.output.find(message) != std::string::npos);
  }
}

// The Programming Guide's TMA functions, and __shared__ with alignas / __align__ in every order
// and scope, through the PTX rewriting, with clang and with g++ (the gcc preset's compiler).
const char kGuideForms[] = R"(
#include <cuda.h>
#include <cuda/barrier>
#include <utility>
namespace cde = cuda::device::experimental;
__shared__ alignas(128) float file_after[32];
alignas(128) __shared__ float file_before[32];
__shared__ __align__(16) float file_align_after[4];
__align__(16) __shared__ float file_align_before[4];
extern __shared__ alignas(1024) uint8_t dynamic_after[];
namespace helpers {
alignas(1024) extern __shared__ uint8_t dynamic_before[];
__device__ inline uint8_t* staged() {
  extern __shared__ __align__(16) uint8_t dynamic_in_function[];
  return dynamic_in_function;
}
// In a template: g++ once took the storage's alignment there for its type's (1).
template <int Stage>
__device__ uint8_t* staged_in_template() {
  extern __shared__ __align__(1024) uint8_t dynamic_in_template[];
  return dynamic_in_template + Stage;
}
}  // namespace helpers
__global__ void k(const __grid_constant__ CUtensorMap map, const CUtensorMap* global_map, unsigned* out) {
  __shared__ alignas(128) float tile[8][32];
  alignas(128) __shared__ float tile2[64];
  __shared__ __align__(128) float tile3[64];
  __align__(128) __shared__ float tile4[64];
  __shared__ alignas(1024) alignas(128) volatile int both[4];
  __shared__ struct alignas(64) Pair { float a, b; } pairs[2];
  static_assert(alignof(Pair) == 64, "an alignas of a struct defined with the variable stays the struct's");
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  init(&bar, blockDim.x);
  cde::fence_proxy_async_shared_cta();
  cde::cp_async_bulk_tensor_1d_global_to_shared(tile2, &map, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(&tile, &map, 0, 1, bar);
  cde::cp_async_bulk_tensor_3d_global_to_shared(tile3, global_map, 0, 1, 2, bar);
  cde::cp_async_bulk_tensor_4d_global_to_shared(tile4, &map, 0, 1, 2, 3, bar);
  cde::cp_async_bulk_tensor_5d_global_to_shared(file_after, global_map, 0, 1, 2, 3, 4, bar);
  auto token = cuda::device::barrier_arrive_tx(bar, 1, 1024);
  bar.wait(std::move(token));
  cde::cp_async_bulk_tensor_1d_shared_to_global(&map, 0, tile2);
  cde::cp_async_bulk_tensor_2d_shared_to_global(global_map, 0, 1, &tile);
  cde::cp_async_bulk_tensor_3d_shared_to_global(&map, 0, 1, 2, tile3);
  cde::cp_async_bulk_tensor_4d_shared_to_global(&map, 0, 1, 2, 3, tile4);
  cde::cp_async_bulk_tensor_5d_shared_to_global(global_map, 0, 1, 2, 3, 4, file_before);
  cde::cp_async_bulk_commit_group();
  cde::cp_async_bulk_wait_group_read<0>();
  cde::cp_async_bulk_wait_group_read<3>();
  out[0] = file_align_after[0] + file_align_before[0] + both[0] + dynamic_after[0] + helpers::dynamic_before[0] +
           helpers::staged()[0] + helpers::staged_in_template<1>()[0] + pairs[1].b;
}
)";

TEST_CASE("compat: cuda::device::experimental's TMA functions and aligned __shared__ in any order compile (clang)") {
  const test_support::ProcessResult r =
      compile_rewritten("compat_guide_forms", std::string(kDynamicSharedStorage) + kGuideForms);
  INFO(r.output);
  CHECK(r.exit_status == 0);
}

TEST_CASE("compat: cuda::device::experimental's TMA functions and aligned __shared__ in any order compile (g++)") {
  if (std::string(GXX_FOR_TESTS).empty() || std::string(GXX_FOR_TESTS).find("NOTFOUND") != std::string::npos) {
    MESSAGE("g++ was not found at configure time: nothing to check");
    return;
  }
  const test_support::ProcessResult r =
      compile_rewritten("compat_guide_forms_gxx", std::string(kDynamicSharedStorage) + kGuideForms, GXX_FOR_TESTS);
  INFO(r.output);
  CHECK(r.exit_status == 0);
}

// g++ once ignored the assembler label that bound a block-scope extern __shared__ array inside
// a template to the storage, and the object asked for an undefined `staging::staged_in_template`
// at link time (the gcc preset's engine tests did not link).
TEST_CASE("compat: extern __shared__ arrays in templates, functions and at file scope all name the storage") {
  for (const char* compiler : {KERNEL_CXX, GXX_FOR_TESTS}) {
    if (std::string(compiler).empty() || std::string(compiler).find("NOTFOUND") != std::string::npos) continue;
    CAPTURE(compiler);
    const test_support::ProcessResult r = compile_rewritten("compat_storage_bound", std::string(kDynamicSharedStorage) + R"(
namespace staging {
template <class T, int Stage>
__device__ T* stage(int i) {
  extern __shared__ __align__(16) T staged_in_template[];
  return staged_in_template + Stage * i;
}
template <int Rows>
__device__ volatile float (&rows())[][Rows] {
  extern __shared__ volatile float staged_rows[][Rows];
  return staged_rows;
}
__device__ inline float* plain() {
  extern __shared__ float staged_in_function[];
  return staged_in_function;
}
}  // namespace staging
extern __shared__ float staged_at_file_scope[];
__global__ void k(float* out) {
  out[0] = staging::stage<float, 2>(1)[0] + staging::rows<4>()[1][2] + staging::plain()[0] + staged_at_file_scope[0];
}
)", compiler, {}, true);
    INFO(r.output);
    REQUIRE(r.exit_status == 0);
    const test_support::ProcessResult undefined =
        test_support::run_program("nm", {"-u", std::string(TEST_PROGRAM_DIR) + "/compat_storage_bound.o"});
    INFO(undefined.output);
    CHECK(undefined.exit_status == 0);
    CHECK(undefined.output.find("staged") == std::string::npos);
  }
}

TEST_CASE("compat: the storage's alignment constant is written only for an extern __shared__ array that asks for one") {
  // Unused, it would be a warning under -Wall in a program built with -Xcompiler -Wall.
  const std::vector<std::string> unused = {"-Wunused-const-variable", "-Werror=unused-const-variable"};
  for (const char* compiler : {KERNEL_CXX, GXX_FOR_TESTS}) {
    if (std::string(compiler).empty() || std::string(compiler).find("NOTFOUND") != std::string::npos) continue;
    CAPTURE(compiler);
    const test_support::ProcessResult plain = compile_rewritten("compat_storage_unaligned", std::string(kDynamicSharedStorage) + R"(
__global__ void k(float* out) {
  extern __shared__ float staged[];
  staged[threadIdx.x] = 1.0f;
  out[threadIdx.x] = staged[threadIdx.x];
}
)", compiler, unused);
    INFO(plain.output);
    CHECK(plain.exit_status == 0);
    const test_support::ProcessResult aligned = compile_rewritten("compat_storage_aligned", std::string(kDynamicSharedStorage) + R"(
__global__ void k(float* out) {
  extern __shared__ __align__(16) float staged[];
  out[threadIdx.x] = staged[threadIdx.x];
}
)", compiler, unused);
    INFO(aligned.output);
    CHECK(aligned.exit_status == 0);
  }
  std::ifstream plain_file(std::string(TEST_PROGRAM_DIR) + "/compat_storage_unaligned.rewritten.cpp");
  std::ifstream aligned_file(std::string(TEST_PROGRAM_DIR) + "/compat_storage_aligned.rewritten.cpp");
  const std::string plain_text((std::istreambuf_iterator<char>(plain_file)), std::istreambuf_iterator<char>());
  const std::string aligned_text((std::istreambuf_iterator<char>(aligned_file)), std::istreambuf_iterator<char>());
  CHECK(plain_text.find("cuda_cpu_dynamic_shared_snippet_alignment") == std::string::npos);
  CHECK(aligned_text.find("cuda_cpu_dynamic_shared_snippet_alignment") != std::string::npos);
}

TEST_CASE("compat: what cuda::device::experimental does not run, and an over-aligned extern __shared__, fail to compile") {
  const test_support::ProcessResult r = compile_rewritten("compat_guide_unsupported", std::string(kDynamicSharedStorage) + R"(
#include <cuda/barrier>
extern __shared__ alignas(2048) unsigned char too_aligned[];
template <int N>
__device__ float over_aligned_in_a_template() {
  extern __shared__ __align__(2048) float too_aligned_in_a_template[];
  return too_aligned_in_a_template[N];
}
__global__ void k(float* out, const float* in) {
  extern __shared__ __align__(4096) float too_aligned_too[];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cuda::device::experimental::cp_async_bulk_global_to_shared(out, in, 16u, bar);
  cuda::device::experimental::cp_async_bulk_shared_to_global(out, in, 16u);
  cuda::device::experimental::cp_async_bulk_wait_group_read<64>();
  out[0] = too_aligned[0] + too_aligned_too[0] + over_aligned_in_a_template<0>();
}
)");
  INFO(r.output);
  CHECK(r.exit_status != 0);
  for (const char* message :
       {"cuda::device::experimental::cp_async_bulk_global_to_shared (cp.async.bulk without a tensor map) is not "
        "supported on the CPU backend",
        "cuda::device::experimental::cp_async_bulk_shared_to_global (cp.async.bulk without a tensor map) is not "
        "supported on the CPU backend",
        "cp_async_bulk_wait_group_read<N>: N must be 0 to 63"}) {
    CAPTURE(message);
    CHECK(r.output.find(message) != std::string::npos);
  }
  // The three over-aligned arrays (one in a template), each named at its line.
  const std::string alignment = "an extern __shared__ array cannot ask for a larger alignment";
  std::size_t found = 0;  // the compiler's error lines (it also echoes the source lines)
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);)
    if (line.find(": error: ") != std::string::npos && line.find(alignment) != std::string::npos) ++found;
  CHECK(found == 3);
}

TEST_CASE("compat: kernels using cooperative_groups.h, cuda/pipeline and cuda_bf16.h as supported compile cleanly") {
  const test_support::ProcessResult r = compile("compat_supported", R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/pipeline>
#include <cuda_bf16.h>
#include <mma.h>
namespace cg = cooperative_groups;
__global__ void k(const float* in, float* out) {
  __shared__ __align__(16) float s[128];
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  auto quarter = cg::tiled_partition<4>(tile);
  cg::thread_group g = cg::tiled_partition(block, 8);
  auto pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(block, s, in, cuda::aligned_size_t<16>(sizeof s), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  block.sync();
  __nv_bfloat16 b = __float2bfloat16(s[block.thread_rank()]);
  b = tile.shfl_down(b, 1) + quarter.shfl_xor(b, 1);
  cg::coalesced_group active = cg::coalesced_threads();
  cg::coalesced_group odd = cg::binary_partition(active, threadIdx.x % 2 == 1);
  const float biggest = cg::reduce(cg::labeled_partition(tile, threadIdx.x % 3), s[0], cg::greater<float>());
  const long long running = cg::inclusive_scan(odd, 1ll) + cg::exclusive_scan(quarter, 2ll, cg::bit_or<long long>());
  out[cg::this_grid().thread_rank()] = biggest + static_cast<float>(running + active.shfl(1, 0));
  g.sync();
  cg::sync(tile);
  out[block.thread_rank()] = __bfloat162float(b) + tile.ballot(1) + cg::this_thread().size();
  pipe.consumer_release();
}
)",
                                                KERNEL_CXX, {"-Wall", "-Wextra", "-Werror"});
  INFO(r.output);
  CHECK(r.exit_status == 0);
}

TEST_CASE("compat: every part of cooperative groups the CPU backend lacks fails to compile, naming itself") {
  check_refused("compat_cg_unsupported", R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  cg::this_multi_grid();
  cg::this_cluster();
  cg::memcpy_async(block, out, out + 1, 4);
  cg::wait(block);
  cg::wait_prior<1>(block);
  cg::invoke_one(tile, [] {});
  out[3] = tile.match_any(1);
  int predicate = 0;
  out[4] = tile.match_all(1, predicate);
  auto big = cg::tiled_partition<64>(block);
  block.barrier_arrive();
}
)",
                {"this_multi_grid", "this_cluster", "cooperative_groups::memcpy_async", "cooperative_groups::wait (",
                 "cooperative_groups::wait_prior", "invoke_one is", "match_any", "match_all",
                 "tiles of 1, 2, 4, 8, 16 or 32 threads", "barrier_arrive"});
  check_refused("compat_cg_types", R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
void uses(cg::multi_grid_group& b, cg::cluster_group& c) {
  cg::multi_grid_group y = b;
  cg::cluster_group z = c;
}
)",
                {"multi_grid_group (this_multi_grid)", "cluster_group (this_cluster)"});
}

TEST_CASE("compat: cooperative_groups::reduce and the scans need their own headers, as in CUDA") {
  // A kernel that compiled here with <cooperative_groups.h> alone would not compile with nvcc.
  check_refused("compat_cg_reduce_header", R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[0] = cg::reduce(tile, 1, cg::plus<int>());
  out[1] = cg::inclusive_scan(tile, 1);
  out[2] = cg::exclusive_scan(tile, 1);
}
)",
                // clang: "no member named 'reduce' in namespace ..."; GCC: "'reduce' is not a member of ...".
                {"'reduce'", "'plus'", "'inclusive_scan'", "'exclusive_scan'"});
}

TEST_CASE("compat: block-scoped pipelines and the barrier forms of cuda/pipeline fail to compile, naming themselves") {
  check_refused("compat_pipeline_unsupported", R"(
#include <cooperative_groups.h>
#include <cuda/pipeline>
__global__ void k(float* out) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  __shared__ int stand_in;  // for the state, so that make_pipeline is seen on its own
  auto block = cooperative_groups::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &stand_in);
  cuda::pipeline<cuda::thread_scope_block>* p = nullptr;
  (void)sizeof(*p);
  auto mine = cuda::make_pipeline();
  mine.consumer_wait_for(1);
  mine.consumer_wait_until(1);
  cuda::pipeline_producer_commit(mine, out);
}
)",
                {"cuda::pipeline_shared_state (a block-scoped cuda::pipeline)",
                 "cuda::make_pipeline(group, shared_state)", "thread-scoped pipelines (cuda::make_pipeline()) only",
                 "consumer_wait_for", "consumer_wait_until", "pipeline_producer_commit(pipeline, barrier)"});
}

TEST_CASE("compat: shuffles of classes with member initializers compile without -Wclass-memaccess warnings (g++)") {
  if (std::string(GXX_FOR_TESTS).empty() || std::string(GXX_FOR_TESTS).find("NOTFOUND") != std::string::npos) {
    MESSAGE("g++ was not found at configure time: nothing to check");
    return;
  }
  const test_support::ProcessResult r = compile("compat_class_memaccess", R"(
#include <cooperative_groups.h>
struct Pair { int a = 1; float b = 2.0f; };
__global__ void k(Pair* out) {
  auto tile = cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block());
  out[threadIdx.x] = __shfl_sync(0xFFFFFFFFu, Pair{}, 0);
  out[threadIdx.x + 32] = tile.shfl(Pair{}, 1);
}
)",
                                                GXX_FOR_TESTS, {"-Wall", "-Wextra", "-Werror=class-memaccess"});
  INFO(r.output);
  CHECK(r.exit_status == 0);
  CHECK(r.output.find("class-memaccess") == std::string::npos);
}

// What CUDA's runtime headers define and helper headers test, by CUDA's names and numbers: the
// include guards (a helper that defines its error-checking macro only under
// __DRIVER_TYPES_H__, as NVIDIA's sample helpers do), the version macros, __CUDACC__ without
// __CUDA_ARCH__ (nvcc's host pass), the enums and fields CUDA 12 has, the make_ functions
// and the deprecated names.
TEST_CASE("compat: the runtime headers define CUDA's guards, macros, enums, fields and functions") {
  const test_support::ProcessResult r = compile("compat_runtime_headers", R"(
#include <cuda_runtime.h>
#if !defined(__CUDA_RUNTIME_H__) || !defined(__CUDA_RUNTIME_API_H__) || !defined(__DRIVER_TYPES_H__) || \
    !defined(__VECTOR_TYPES_H__) || !defined(__DEVICE_LAUNCH_PARAMETERS_H__) || !defined(__HOST_DEFINES_H__)
#error "a guard of CUDA's runtime headers is missing"
#endif
#if !defined(__CUDACC__) || !defined(__NVCC__) || __CUDACC_VER_MAJOR__ < 12 || CUDART_VERSION < 12000
#error "the version macros are missing"
#endif
#ifdef __CUDA_ARCH__
#error "__CUDA_ARCH__ is for device passes"
#endif
#ifdef __DRIVER_TYPES_H__
#define CHECKED(call) checked((call), #call)
inline bool checked(cudaError_t e, const char* call) { return e == cudaSuccess || !cudaGetErrorName(e) || !call; }
#endif
static_assert(cudaErrorInvalidDevice == 101 && cudaErrorNoDevice == 100 && cudaErrorAssert == 710, "errors");
static_assert(cudaErrorLaunchOutOfResources == 701 && cudaErrorUnknown == 999, "errors");
static_assert(cudaDevAttrComputeMode == 20 && cudaDevAttrMaxPitch == 11 && cudaDevAttrClockRate == 13, "attributes");
static_assert(cudaDevAttrMemoryPoolsSupported == 115 && cudaDevAttrGpuOverlap == 15, "attributes");
static_assert(cudaComputeModeDefault == 0 && cudaComputeModeProhibited == 2, "compute modes");
static_assert(sizeof(cudaUUID_t) == 16 && sizeof(cudaIpcMemHandle_t) == 64, "handles");
static_assert(cudaHostAllocMapped == 2 && cudaStreamNonBlocking == 1 && cudaEventDisableTiming == 2, "flags");
int uses(cudaStream_t s) {
  cudaDeviceProp p;
  int sum = p.computeMode + p.clockRate + p.deviceOverlap + p.maxTexture2D[1] + p.kernelExecTimeoutEnabled +
            p.memoryClockRate + p.ECCEnabled + p.tccDriver + p.unifiedFunctionPointers + p.luid[0] +
            static_cast<int>(p.texturePitchAlignment + p.surfaceAlignment);
  float3 f = make_float3(1, 2, 3);
  uchar4 u = make_uchar4(1, 2, 3, 4);
  double2 d = make_double2(1, 2);
  cudaExtent e = make_cudaExtent(1, 2, 3);
  cudaPitchedPtr pp = make_cudaPitchedPtr(nullptr, 0, 0, 0);
  cudaChannelFormatDesc c = cudaCreateChannelDesc<float4>();
  cudaStreamAttrValue v;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  cudaTextureDesc t = {};
  t.addressMode[0] = cudaAddressModeWrap;
  cudaGraphNodeParams g = {};
  g.kernel.gridDim = dim3(2);
  CHECKED(cudaThreadSynchronize());
  CHECKED(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  CHECKED(cudaLaunchHostFunc(s, [](void*) {}, nullptr));
  return sum + static_cast<int>(f.z + u.w + d.y + e.depth + c.w) + (pp.ptr == nullptr) + t.normalizedCoords;
}
)",
                                                KERNEL_CXX, {"-Wall", "-Werror", "-Wno-uninitialized"});
  INFO(r.output);
  CHECK(r.exit_status == 0);
}

// What kernels and host code of public programs use beyond the puzzles: atomics on every type
// and scope, clock64, directed rounding, cooperative groups' shuffles of 16-byte vector types,
// the 64-bit vector types, NVTX ranges, CUDA's cudaEventCreate overload and the group headers.
TEST_CASE("compat: scoped atomics, clock64, directed rounding, vector shuffles and NVTX compile") {
  const test_support::ProcessResult r = compile("compat_program_extras", R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <nvtx3/nvToolsExt.h>
namespace cg = cooperative_groups;
__global__ void k(int* i, unsigned* u, unsigned long long* q, long long* l, float* f, double* d, uint4* v) {
  atomicAdd_system(i, 1);
  atomicAnd_block(i, 3);
  atomicOr(u, 1u);
  atomicXor(q, 1ull);
  atomicInc(u, 10u);
  atomicDec_system(u, 4u);
  atomicMax(l, 3ll);
  atomicMin(q, 2ull);
  atomicExch(q, 5ull);
  atomicCAS_block(i, 1, 2);
  atomicAdd_block(f, 1.0f);
  long long start = clock64();
  f[1] = __fadd_rd(f[0], 1.0f) + __fmul_ru(f[0], 3.0f) + __fsqrt_rz(f[0]) + __frcp_rd(f[0]);
  d[1] = __dadd_ru(d[0], 1.0) + __ddiv_rd(d[0], 3.0) + __dsqrt_ru(d[0]);
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  v[threadIdx.x] = tile.shfl_down(v[threadIdx.x], 1);
  double4 d4 = make_double4(1, 2, 3, 4);
  ulong2 u2 = make_ulong2(1, 2);
  longlong4 l4 = make_longlong4(1, 2, 3, 4);
  l[1] = static_cast<long long>(d4.w + u2.y + l4.z) + (clock64() - start);
}
int host() {
  nvtxRangePushA("copy");
  cudaEvent_t e;
  cudaError_t made = cudaEventCreate(&e, cudaEventDisableTiming);
  nvtxRangePop();
  return made == cudaSuccess;
}
)",
                                                KERNEL_CXX, {"-Wall", "-Werror"});
  INFO(r.output);
  CHECK(r.exit_status == 0);
}

#!/usr/bin/env python3
"""Whole CUDA programs through `checker/run <program.cu>` (docs/programs.md): each program here
is built and run as a student would run it, and what it printed, its exit status and the
--json document are checked. tests/programs/CMakeLists.txt registers one CTest test per method:

    PROGRAM_BUILD_DIR=build/cpu-only python3 tests/programs/test_programs.py <method>

PROGRAM_BUILD_DIR is a configured, built build of the course whose engine the programs link.
The GPU methods exit 77 with a "SKIPPED: ..." line where no GPU and nvcc are found.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
RUN = ROOT / "checker" / "run"


def run(*args, cwd=HERE):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([str(RUN), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def gpu_present():
    if not shutil.which("nvcc") and not Path("/usr/local/cuda/bin/nvcc").exists():
        return "no nvcc"
    if not shutil.which("nvidia-smi"):
        return "no nvidia-smi"
    listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
    return None if "GPU " in listed else "nvidia-smi lists no GPU"


def export_settings():
    """How the build compiles programs (checker/cmake/ProgramExport.cmake's settings.cmake), or
    None where it has not written them yet (then the tests assume a clang build with the pass)."""
    settings = Path(os.environ.get("PROGRAM_BUILD_DIR", ROOT / "build" / "default")) / "program-export" / "settings.cmake"
    try:
        return settings.read_text(encoding="utf-8")
    except OSError:
        return None


def instrumented():
    """Whether the build's kernels are instrumented (clang): loads and stores name their thread."""
    text = export_settings()
    return text is None or "set(PROGRAM_EXPORT_PUZZLES_INSTRUMENTED [==[ON]==])" in text


def block_loop_pass():
    """Whether the build compiles kernels with the block-loop pass, which keeps a warp's lanes in
    step at volatile accesses (cuda_cpu/volatile_step.h)."""
    text = export_settings()
    return text is None or "set(PROGRAM_EXPORT_PUZZLES_BLOCK_LOOP_PASS [==[]==])" not in text


# Methods that need the block-loop pass.
NEEDS_PASS = {"test_warp_synchronous_code_through_volatile_gets_what_lockstep_lanes_get"}

# Methods that need instrumented kernels (with g++, PRESET=gcc, a write past the end is only a canary).
NEEDS_INSTRUMENTATION = {"test_an_out_of_bounds_write_is_printed_and_in_the_json_document",
                         "test_a_race_only_between_lanes_of_one_warp_names_syncwarp"}


class Programs(unittest.TestCase):
    def test_a_program_with_streams_events_and_constant_memory_checks_its_own_result(self):
        done = run("histogram_streams.cu")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("weighed 3000 values into 16 bins in some ms; 0 wrong", done.stdout)
        self.assertIn("the histogram kernel set its __device__ flag", done.stdout)
        self.assertIn("3 launches, no findings.", done.stderr)
        self.assertIn("The program exited with status 0.", done.stderr)

    def test_launch_forms_headers_and_runtime_queries(self):
        done = run("launch_forms.cu", "-I", "include", "--json")
        doc = json.loads(done.stdout)
        self.assertIn("0 failed expectations", doc["stdout"])
        self.assertIn("hello from block 1", doc["stdout"])
        self.assertEqual(doc["exit_status"], 0)
        launches = doc["launches"]
        self.assertEqual([l["kernel"] for l in launches],
                         ["fill", "fill", "helpers::add", "scale<int, 3>", "reverse_block", "sum_pair", "say_hello",
                          "fill", "fill", "checks_its_input"])
        self.assertEqual(launches[1]["grid"], [2, 1, 1])
        self.assertEqual(launches[4]["dynamic_shared_bytes"], 512)
        launched_ex = launches[7]  # cudaLaunchKernelEx: no line, clusters of two
        self.assertEqual((launched_ex["at"], launched_ex["cluster"], launched_ex["cuda_error"]),
                         (None, [2, 1, 1], "cudaSuccess"))
        refused = launches[8]
        self.assertFalse(refused["ran"])
        self.assertEqual(refused["refused"]["code"], "too_many_threads")
        self.assertEqual(refused["cuda_error"], "cudaErrorInvalidValue")
        failed = launches[9]
        self.assertEqual(failed["cuda_error"], "cudaErrorAssert")
        self.assertEqual([f["kind"] for f in failed["findings"]], ["assertion"])
        self.assertEqual(failed["findings"][0]["at"]["line"], 33)
        self.assertTrue(all(not l["findings"] for l in launches[:9]))
        # Findings and refusals make checker/run fail although the program itself returned 0.
        self.assertEqual(doc["status"], 1)
        self.assertEqual(done.returncode, 1)
        # The file tests __CUDA_ARCH__ (at its end): its device pass, for sm_90, passes the guard.
        self.assertNotIn("#error", done.stderr)

    def test_code_kept_for_the_device_pass_runs_in_kernels(self):
        done = run("device_pass.cu")
        self.assertIn("device pass: 0 failed expectations", done.stdout, done.stderr)
        self.assertIn("4 launches, no findings.", done.stderr)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        # The file is compiled as nvcc's two passes only where it tests __CUDA_ARCH__: a copy that
        # tests it nowhere is one host pass, whose kernels keep nothing of the device pass's code.
        with tempfile.TemporaryDirectory() as folder:
            host_only = Path(folder) / "device_pass.cu"
            shutil.copytree(HERE / "include", Path(folder) / "include")
            host_only.write_text((HERE / "device_pass.cu").read_text().replace("__CUDA_ARCH__", "HOST_ONLY_ARCH"))
            done = run(str(host_only))
        self.assertIn("device pass: 4 failed expectations", done.stdout, done.stderr)
        self.assertEqual(done.returncode, 1)
        # A header found through -I with #include <...>, which only the compiler's list of what it
        # read names, is a file of the program's too: its kernel runs the device pass's code.
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "inc").mkdir()
            (Path(folder) / "inc" / "arch.cuh").write_text(
                "#pragma once\n__global__ void set_arch(int* out) {\n#ifdef __CUDA_ARCH__\n  *out = __CUDA_ARCH__;\n#endif\n}\n")
            (Path(folder) / "angled.cu").write_text(
                "#include <cstdio>\n#include <arch.cuh>\nint main() { int* out; cudaMallocManaged(&out, sizeof *out); *out = 0;\n"
                "  set_arch<<<1, 1>>>(out); cudaDeviceSynchronize(); std::printf(\"arch %d\\n\", *out); }\n")
            done = run(str(Path(folder) / "angled.cu"), "-I", str(Path(folder) / "inc"))
        self.assertIn("arch 900", done.stdout, done.stderr)

    def test_default_arguments_are_passed_where_a_launch_leaves_them_out(self):
        done = run("default_arguments.cu", "--json")
        doc = json.loads(done.stdout)
        self.assertIn("default arguments: 0 failed expectations", doc["stdout"])
        self.assertEqual(doc["exit_status"], 0)
        self.assertEqual(len(doc["launches"]), 8)
        # A default that names a template parameter is not filled in: the launch says what to pass.
        with tempfile.TemporaryDirectory() as work:
            program = Path(work) / "template_default.cu"
            program.write_text("template <typename T>\n"
                               "__global__ void set_all(T* out, T value = T(3)) { *out = value; }\n"
                               "int main() {\n"
                               "  float* x;\n"
                               "  cudaMalloc(&x, sizeof(float));\n"
                               "  set_all<float><<<1, 1>>>(x);\n"
                               "  return cudaDeviceSynchronize() != cudaSuccess;\n"
                               "}\n", encoding="utf-8")
            done = run(str(program), cwd=work)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("a default that names a template parameter is not filled in: pass that argument", done.stderr)
        self.assertIn("template_default.cu did not compile.", done.stderr)

    def test_the_device_heap_outlives_a_launch(self):
        done = run("device_heap.cu")
        self.assertIn("device heap: 0 failed expectations", done.stdout, done.stderr)
        self.assertIn("10 launches, no findings.", done.stderr)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def test_a_buffer_per_row_and_the_limits_of_the_cpu_backends_buffers(self):
        with tempfile.TemporaryDirectory() as work:
            done = run(str(HERE / "many_buffers.cu"), "--json=report.json", cwd=work)
            doc = json.loads((Path(work) / "report.json").read_text())
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("1025 rows of 12: 0 wrong", done.stdout)
        self.assertIn("many buffers: 0 failed expectations", done.stdout)
        # Beyond the buffers it holds at once, and past a buffer's size, cudaMalloc returns
        # cudaErrorMemoryAllocation, and the report says which limit, once each.
        self.assertIn("more buffers: ", done.stdout)
        self.assertIn(", cudaErrorMemoryAllocation\n", done.stdout)
        self.assertIn("a 3 GiB buffer: cudaErrorMemoryAllocation", done.stdout)
        self.assertEqual(done.stderr.count("Note: the CPU backend holds at most 4096 buffers at once, so the "
                                           "allocation returns cudaErrorMemoryAllocation"), 1, done.stderr)
        self.assertEqual(done.stderr.count("Note: a buffer of 3221225472 bytes is more than the CPU backend gives "
                                           "one buffer"), 1, done.stderr)
        self.assertEqual(doc["exit_status"], 0)

    def test_a_class_passed_by_value_is_copied_bitwise_and_never_destroyed_on_the_device(self):
        done = run("class_parameters.cu")
        self.assertIn("class parameters: 0 failed expectations", done.stdout, done.stderr)
        self.assertIn("1 launch, no findings.", done.stderr)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def test_a_race_only_between_lanes_of_one_warp_names_syncwarp(self):
        done = run("warp_synchronous.cu")
        self.assertIn("with __syncwarp(): 64", done.stdout, done.stderr)
        self.assertIn("3 launches; findings or errors in launches 1, 3 (above).", done.stderr)
        warp_sentence = ("Every such race here is between lanes of one warp, and a warp's lanes do not run in lockstep "
                         "(not since Volta): where only a warp shares the data, a __syncwarp() between the two "
                         "accesses orders them.")
        launch1 = done.stderr.split("Launch 1: ", 1)[1].split("Launch 3: ", 1)[0]
        launch3 = done.stderr.split("Launch 3: ", 1)[1]
        self.assertIn("Shared-memory race: in block (0,0), partial[", launch1)
        self.assertIn(warp_sentence, launch1)
        # Threads 31 and 32 are in different warps: __syncthreads() alone is the fix.
        self.assertIn("Shared-memory race: in block (0,0), values[", launch3)
        self.assertNotIn(warp_sentence, launch3)

    def test_warp_synchronous_code_through_volatile_gets_what_lockstep_lanes_get(self):
        done = run("volatile_lockstep.cu")
        # The program's own status is 0; checker/run's is 1, for the findings.
        self.assertIn("The program exited with status 0.", done.stderr)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("shared memory: 48 of 48 sums right", done.stdout)
        self.assertIn("global memory: 48 of 48 sums right", done.stdout)
        self.assertIn("neighbours' words seen after the write: 32 of 32", done.stdout)
        # In shared memory the lanes still race (no __syncwarp()): the backend says so.
        self.assertIn("3 launches; findings or errors in launch 1 (above).", done.stderr)
        self.assertIn("Shared-memory race: in block (0,0), partial[", done.stderr)

    def test_an_out_of_bounds_write_is_printed_and_in_the_json_document(self):
        done = run("off_by_one.cu")
        self.assertEqual(done.returncode, 1)
        self.assertIn("square: no error", done.stdout)
        self.assertIn("Out-of-bounds write: thread (100,0) of block (0,0) wrote out[100] at line 7 of off_by_one.cu",
                      done.stderr)
        with tempfile.TemporaryDirectory() as work:
            done = run(str(HERE / "off_by_one.cu"), "--json=report.json", cwd=work)
            doc = json.loads((Path(work) / "report.json").read_text())
        self.assertIsNone(doc["stdout"])  # with --json=FILE the program's output stays on stdout
        self.assertIn("square: no error", done.stdout)
        (launch,) = doc["launches"]
        self.assertEqual((launch["kernel"], launch["grid"], launch["block"]), ("square", [1, 1, 1], [128, 1, 1]))
        self.assertEqual(launch["at"]["line"], 16)
        (finding,) = launch["findings"]
        self.assertEqual((finding["kind"], finding["buffer"], finding["index"], finding["is_write"]),
                         ("out_of_bounds", "out", 100, True))
        self.assertEqual(finding["thread"], [100, 0, 0])
        self.assertEqual(finding["at"]["line"], 7)
        self.assertEqual(launch["finding_totals"], {"out_of_bounds": 1})
        self.assertEqual((doc["exit_status"], doc["status"]), (0, 1))

    def test_runtime_calls_beyond_launches_and_copies_answer_as_cuda_does(self):
        done = run("runtime_calls.cu")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("0 failed expectations", done.stdout)
        self.assertIn("7 launches, no findings.", done.stderr)

    def test_libcu_headers_cuda_std_and_cuda_atomic_answer_as_on_a_gpu(self):
        done = run("libcu_headers.cu")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("counted 256, largest 2147483644: 0 wrong", done.stdout)
        self.assertIn("1 launch, no findings.", done.stderr)

    def test_an_unmodelled_call_stops_the_program_and_names_itself(self):
        done = run("unmodelled.cu", "--json")
        doc = json.loads(done.stdout)
        self.assertEqual(done.returncode, 125)
        self.assertEqual(doc["not_modelled"], "cudaGraphCreate")
        self.assertIn("before the call", doc["stdout"])
        self.assertNotIn("after the call", doc["stdout"])
        self.assertIn("cudaGraphCreate is not modelled by the CPU backend", done.stderr)

    def test_a_launch_from_device_code_stops_the_program_and_names_itself(self):
        done = run("device_launch.cu", "--json")
        doc = json.loads(done.stdout)
        self.assertEqual(done.returncode, 125, done.stderr)
        self.assertEqual(doc["not_modelled"], "a kernel launch from device code (dynamic parallelism)")
        self.assertIn("before the launch", doc["stdout"])
        self.assertNotIn("after the launch", doc["stdout"])
        self.assertIn("dynamic parallelism) is not modelled by the CPU backend", done.stderr)

    def test_bad_flags_missing_files_and_compile_errors(self):
        done = run("histogram_streams.cu", "--frobnicate")
        self.assertEqual(done.returncode, 2)
        self.assertIn("unknown option --frobnicate", done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        done = run("no_such_program.cu")
        self.assertEqual(done.returncode, 2)
        self.assertIn("no_such_program.cu: no such file", done.stderr)
        done = run("launch_forms.cu", "-I", "no_such_folder")
        self.assertEqual(done.returncode, 2)
        self.assertIn("no such folder", done.stderr)
        # Without -I include, its header is missing: the compiler's own line, and exit 1.
        done = run("launch_forms.cu")
        self.assertEqual(done.returncode, 1)
        self.assertIn("launch_forms.cu:13:10: fatal error: 'launch_helpers.cuh' file not found", done.stderr)
        self.assertIn("launch_forms.cu did not compile.", done.stderr)


class OnTheGpu(unittest.TestCase):
    def test_the_same_programs_run_natively_with_backend_gpu(self):
        done = run("histogram_streams.cu", "--backend=gpu")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("0 wrong", done.stdout)
        self.assertIn("the histogram kernel set its __device__ flag", done.stdout)
        done = run("launch_forms.cu", "-I", "include", "--backend=gpu")
        self.assertIn("0 failed expectations", done.stdout, done.stderr)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        done = run("default_arguments.cu", "--backend=gpu")
        self.assertIn("default arguments: 0 failed expectations", done.stdout, done.stderr)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        done = run("device_heap.cu", "--backend=gpu")
        self.assertIn("device heap: 0 failed expectations", done.stdout, done.stderr)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        done = run("device_pass.cu", "--backend=gpu")
        self.assertIn("device pass: 0 failed expectations", done.stdout, done.stderr)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        done = run("class_parameters.cu", "--backend=gpu")
        self.assertIn("class parameters: 0 failed expectations", done.stdout, done.stderr)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        done = run("many_buffers.cu", "--backend=gpu")
        self.assertIn("1025 rows of 12: 0 wrong", done.stdout, done.stderr)
        self.assertIn("5000 more buffers: 5000 given, cudaSuccess", done.stdout, done.stderr)
        self.assertIn("a 3 GiB buffer: cudaSuccess", done.stdout, done.stderr)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        # The sums only: its third kernel reads a neighbour's word without volatile and with no
        # __syncwarp(), which nvcc may move before the volatile write.
        done = run("volatile_lockstep.cu", "--backend=gpu")
        self.assertIn("shared memory: 48 of 48 sums right", done.stdout, done.stderr)
        self.assertIn("global memory: 48 of 48 sums right", done.stdout, done.stderr)
        done = run("libcu_headers.cu", "--backend=gpu")
        self.assertIn("counted 256, largest 2147483644: 0 wrong", done.stdout, done.stderr)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    name = sys.argv[1]
    suite = unittest.TestSuite()
    for case in (Programs, OnTheGpu):
        if hasattr(case, name):
            why = gpu_present() if case is OnTheGpu else None
            if why:
                print(f"SKIPPED: --backend=gpu needs a GPU and nvcc ({why})")
                sys.exit(77)
            if name in NEEDS_PASS and not block_loop_pass():
                print("SKIPPED: this build has no block-loop pass (Debian package llvm-dev: the LLVM of the build's "
                      "clang; a g++ build has none), so a warp's lanes do not keep in step at volatile accesses")
                sys.exit(77)
            if name in NEEDS_INSTRUMENTATION and not instrumented():
                print("SKIPPED: this build's kernels are not instrumented (g++), so a finding names no thread")
                sys.exit(77)
            suite.addTest(case(name))
    if not suite.countTestCases():
        print(f"no test called {name}", file=sys.stderr)
        sys.exit(2)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)

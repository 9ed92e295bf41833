#!/usr/bin/env python3
"""The CPU backend's two execution models (docs/dev/engine.md, "Block loops"): kernels that the
block-loop pass compiled as loops must print, for a student, exactly what they print on fibers.
tests/models/CMakeLists.txt registers one CTest test per method:

    MODEL_BUILD_DIR=build/cpu-only python3 tests/models/test_execution_models.py <method>

Methods exit 77 with a "SKIPPED: ..." line where the build has no block-loop pass (a g++ build, or
clang without its LLVM's development package).
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "support"))
import compare_execution_models as models  # noqa: E402
from run_one_test import run_tests  # noqa: E402

BUILD = Path(os.environ.get("MODEL_BUILD_DIR", ROOT / "build" / "cpu-only"))
BIN = BUILD / "test-bin"
CORPUS = ROOT / "tests" / "broken"
# The puzzles whose kernels wait only at __syncthreads(), and those that wait at warp
# collectives, tensor-core instructions, mbarriers or cluster barriers (fibers).
AS_LOOPS = ["p01_naive", "p02_single_row_shared", "p03_row_col_shared", "p04_tiled", "p05_single_block_aat",
            "p06_register_tiling", "p07_bank_conflicts", "p08_async_copy", "p10_warp_tiling"]
ON_FIBERS = ["p09_tensor_cores", "p11_mma_sync", "p12_tma_wgmma", "p13_warp_specialization"]


def functions_naming(object_file, symbol):
    """The functions of an object file whose code refers to `symbol`."""
    listed = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", str(object_file)], capture_output=True,
                            text=True, check=True).stdout
    found, function = set(), None
    for line in listed.splitlines():
        header = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if header:
            function = header.group(1)
        elif function and symbol in line:
            found.add(function)
    return found


def kernel_object(library):
    """The object of a kernel file's CPU build (KernelTargets.cmake: an object library, linked as
    it is), where CMake puts it in the tests' folder."""
    found = BUILD / "tests" / "CMakeFiles" / f"{library}_cpu.dir" / "kernels" / library / "cpu_ptx.cpp.o"
    if not found.is_file():
        raise AssertionError(f"{found}: no object for the kernel library {library}; build the tests first")
    return found


def functions_with_inline_checks(object_file):
    """The functions whose code reads the engine's FastPath block, as the checks the pass puts
    inline do (cpu/fast_path.h names the block's symbol)."""
    return functions_naming(object_file, "engine_cpu_fast_path")


def require_pass():
    """Skips the test where the build has no block-loop pass (run_tests then exits 77: a SystemExit
    raised inside a test would be an error, and the test a failure)."""
    if not list((BUILD / "lib").glob("block_loop_pass.*")):
        raise unittest.SkipTest("this build has no block-loop pass (Debian package llvm-dev: the LLVM of the "
                                "build's clang; a g++ build has none)")


class ExecutionModels(unittest.TestCase):
    def test_the_puzzles_that_wait_only_at_barriers_run_as_loops(self):
        require_pass()
        for puzzle in AS_LOOPS:
            self.assertTrue(models.has_loop_invoker(str(BIN / f"{puzzle}_solution")), puzzle)
        for puzzle in ON_FIBERS:
            self.assertFalse(models.has_loop_invoker(str(BIN / f"{puzzle}_solution")), puzzle)

    def test_the_code_that_runs_as_loops_has_the_inline_checks_and_the_fiber_copy_the_callbacks(self):
        """A kernel with a barrier is inlined into its loop invoker, which gets the inline checks;
        the kernel itself runs only on fibers and keeps the callbacks. A kernel with no barrier is
        called by its loop invoker for each thread: the kernel itself gets them (once it kept the
        callbacks, and every access of puzzle 1's kernel called the engine)."""
        require_pass()
        tiled = functions_with_inline_checks(kernel_object("p04_tiled_solution_kernel"))
        self.assertTrue(any(f.startswith("_ZN6engine16invoke_with_args") and ".block_loop" in f for f in tiled), tiled)
        self.assertFalse(any(f.startswith("_Z12matmul_tiled") for f in tiled), tiled)
        naive = functions_with_inline_checks(kernel_object("p01_naive_solution_kernel"))
        self.assertTrue(any(f.startswith("_Z12matmul_naive") for f in naive), naive)

    def test_the_inner_loops_of_the_first_puzzles_check_their_reads_ahead(self):
        """Puzzles 1, 2, 3 and 5 read a row and a column in their inner loop, a fixed stride apart:
        the pass checks those reads once before the loop (checker/engine/passes/reads_ahead.h). The
        tiled kernel's inner loop is unrolled whole (no loop is left), and puzzle 8's copies
        stores in its loops: they have none. What the checkers print with it is compared with the
        callbacks alone in the test below."""
        require_pass()
        for puzzle in ["p01_naive", "p02_single_row_shared", "p03_row_col_shared", "p05_single_block_aat"]:
            ahead = functions_naming(kernel_object(f"{puzzle}_solution_kernel"),
                                     "engine_cpu_reads_checked_ahead")
            self.assertTrue(ahead, puzzle)
        for puzzle in ["p04_tiled", "p08_async_copy"]:
            ahead = functions_naming(kernel_object(f"{puzzle}_solution_kernel"),
                                     "engine_cpu_reads_checked_ahead")
            self.assertEqual(ahead, set(), puzzle)

    def test_every_checker_compiled_as_loops_prints_what_it_prints_on_fibers(self):
        """Every broken kernel with its corpus options, every stub and every solution, on their
        quick cases (the worked example and the two smallest sizes; the solutions in every thread
        order): the same status and output, byte for byte, on both models. Every size and every
        order: the models-full test (-DPUZZLES_MODEL_TESTS=ON)."""
        require_pass()
        names = sorted(n for n in os.listdir(BIN) if models.has_loop_invoker(str(BIN / n)))
        self.assertGreaterEqual(len(names), 2 * len(AS_LOOPS))
        cores = sorted(os.sched_getaffinity(0))
        differences = []
        import concurrent.futures
        with concurrent.futures.ThreadPoolExecutor(len(cores)) as pool:
            jobs = {}
            for i, name in enumerate(names):
                arguments = models.corpus_arguments(str(CORPUS), name) + ["--quick"]
                if name.endswith("_solution"):
                    arguments.append("--all-orders")
                jobs[name] = pool.submit(models.compare, str(BIN / name),
                                         models.with_limit(arguments, ["--timeout=600"]), cores[i % len(cores)])
            for name, job in jobs.items():
                same, fibers, loops, _, _ = job.result()
                # A verdict, not a refusal of the options: solutions pass, stubs fail; a broken
                # kernel may pass the quick cases (some mistakes show only at larger sizes).
                expected = {0} if name.endswith("_solution") else {1} if name.endswith("_stub") else {0, 1}
                if fibers[0] not in expected:
                    differences.append(f"{name}: exit {fibers[0]} on fibers, expected one of {sorted(expected)}")
                if not same:
                    differences.append(f"{name}: " + (f"exit {fibers[0]} on fibers, {loops[0]} as loops"
                                                      if fibers[0] != loops[0]
                                                      else models.first_difference(fibers[1], loops[1])))
        self.assertEqual(differences, [], "\n".join(differences))

    def test_every_checker_prints_the_same_with_its_checks_inline_as_with_the_callbacks_alone(self):
        """The pass also puts the common cases of the access checks inline in kernels
        (checker/engine/passes/inline_checks.h); with PUZZLES_CPU_INLINE_CHECKS=off they call the
        engine for every access, as a build without the pass does. Every broken kernel with its
        corpus options, every stub and every solution, on their quick cases, on either model:
        the same status and output, byte for byte."""
        require_pass()
        names = sorted(n for n in os.listdir(BIN) if n.startswith("broken_") or n.endswith(("_solution", "_stub")))
        self.assertGreaterEqual(len(names), 59 + 2 * (len(AS_LOOPS) + len(ON_FIBERS)))
        cores = sorted(os.sched_getaffinity(0))
        differences = []
        import concurrent.futures
        with concurrent.futures.ThreadPoolExecutor(len(cores)) as pool:
            jobs = {name: pool.submit(models.compare, str(BIN / name),
                                      models.with_limit(models.corpus_arguments(str(CORPUS), name) + ["--quick"],
                                                        ["--timeout=600"]),
                                      cores[i % len(cores)], models.CALLBACKS_ONLY, models.INLINE_CHECKS)
                    for i, name in enumerate(names)}
            for name, job in jobs.items():
                same, callbacks, inline, _, _ = job.result()
                if not same:
                    differences.append(f"{name}: " + (f"exit {callbacks[0]} with callbacks only, {inline[0]} inline"
                                                      if callbacks[0] != inline[0]
                                                      else models.first_difference(callbacks[1], inline[1],
                                                                                   ("callbacks only", "inline"))))
        self.assertEqual(differences, [], "\n".join(differences))

    def test_an_inline_checks_setting_the_engine_does_not_know_is_refused(self):
        done = subprocess.run([str(BIN / "p01_naive_solution"), "--backend=cpu", "--quick"], capture_output=True,
                              text=True, timeout=120, env=dict(os.environ, PUZZLES_CPU_INLINE_CHECKS="sometimes"))
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        self.assertIn('PUZZLES_CPU_INLINE_CHECKS=sometimes: expected "on" or "off"', done.stderr)

    def build_program(self, folder, source, *options):
        """A program of this folder built by checker/nvcc against the build, as a Makefile would."""
        binary = Path(folder) / Path(source).stem
        built = subprocess.run([str(ROOT / "checker" / "nvcc"), *options, "-o", str(binary), str(HERE / source)],
                               env=dict(os.environ, PUZZLES_NVCC_BUILD=str(BUILD)), capture_output=True, text=True,
                               timeout=600)
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        return binary

    def test_a_whole_programs_kernels_run_as_loops_and_print_what_they_print_on_fibers(self):
        """A program launches its kernels through their addresses (checker/nvcc, as a Makefile
        builds it): two kernels of one type, a template taking a structure by value, a
        cudaLaunchKernel, a forgotten barrier. Each gets a loop invoker of its own, and both
        models print the same results and the same race."""
        require_pass()
        with tempfile.TemporaryDirectory() as folder:
            binary = self.build_program(folder, "program_launches.cu", "-O2")
            symbols = subprocess.run(["nm", str(binary)], capture_output=True, text=True).stdout
            for kernel in ["block_sum", "block_max", "reverse_window", "rotate_without_barrier"]:
                self.assertRegex(symbols, rf"\.block_loop\.\S*{kernel}", kernel)
            # The kernel with no barrier, which its loop invoker calls, has the inline checks.
            compiled = subprocess.run([str(ROOT / "checker" / "nvcc"), "-O2", "-c", "-o", str(Path(folder) / "launches.o"),
                                       str(HERE / "program_launches.cu")], env=dict(os.environ, PUZZLES_NVCC_BUILD=str(BUILD)),
                                      capture_output=True, text=True, timeout=600)
            self.assertEqual(compiled.returncode, 0, compiled.stdout + compiled.stderr)
            checked = functions_with_inline_checks(Path(folder) / "launches.o")
            self.assertTrue(any(re.match(r"_Z\d+rotate_without_barrier", f) for f in checked), checked)
            core = sorted(os.sched_getaffinity(0))[0]
            printed = {}
            for model in ["fibers", "loops"]:
                done = subprocess.run([str(binary)], env=dict(os.environ, PUZZLES_CPU_EXECUTION_MODEL=model),
                                      capture_output=True, text=True, timeout=600,
                                      preexec_fn=lambda: os.sched_setaffinity(0, {core}))
                printed[model] = (done.returncode, done.stdout + done.stderr)
        self.assertEqual(printed["fibers"], printed["loops"])
        status, output = printed["loops"]
        self.assertEqual(status, 1, output)  # the race
        self.assertIn("block 2: sum 3289, max 100", output)
        self.assertIn("0 wrong", output)
        self.assertIn("Shared-memory race: in block (0,0), staged[1] was read by thread (0,0) at line 62 of "
                      "program_launches.cu and written by thread (1,0) at line 61", output)

    def test_values_a_thread_computes_the_same_after_each_barrier_are_computed_again_not_kept(self):
        """A kernel keeps four pointers made from its arguments and indices, two shared addresses
        and two quotients of blockDim across its barriers: the pass computes them again after each
        barrier, so its frame holds only the sum and the step (one 64-byte line; kept, they made
        it 128), and both models give every sum right."""
        require_pass()
        with tempfile.TemporaryDirectory() as folder:
            binary = Path(folder) / "thread_invariants"
            built = subprocess.run([str(ROOT / "checker" / "nvcc"), "-O2", "-o", str(binary),
                                    str(HERE / "thread_invariants.cu")],
                                   env=dict(os.environ, PUZZLES_NVCC_BUILD=str(BUILD), CUDA_CPU_LOOP_REPORT="1"),
                                   capture_output=True, text=True, timeout=600)
            self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
            frames = re.findall(r"block loops: \S*transposed_sums\S* \(launched through its address\): loops "
                                r"\(2 barriers, (\d+)-byte frame\)", built.stderr)
            self.assertTrue(frames, built.stderr)
            self.assertTrue(all(int(bytes_) <= 64 for bytes_ in frames), frames)
            for model in ["fibers", "loops"]:
                done = subprocess.run([str(binary)], env=dict(os.environ, PUZZLES_CPU_EXECUTION_MODEL=model),
                                      capture_output=True, text=True, timeout=600)
                self.assertEqual((done.returncode, done.stdout), (0, "0 of 4096 sums wrong\n"),
                                 model + ": " + done.stderr)

    def test_warp_synchronous_code_through_volatile_stays_on_fibers_and_keeps_lanes_in_step(self):
        """Kernels whose lanes sum through a volatile pointer with no __syncwarp(): the pass puts
        the engine's steps around their volatile accesses, keeps them on fibers and says why, and
        the program gets the sums lanes in lockstep get (cuda_cpu/volatile_step.h)."""
        require_pass()
        source = ROOT / "tests" / "programs" / "volatile_lockstep.cu"
        with tempfile.TemporaryDirectory() as folder:
            binary = Path(folder) / "volatile_lockstep"
            built = subprocess.run([str(ROOT / "checker" / "nvcc"), "-O2", "-o", str(binary), str(source)],
                                   env=dict(os.environ, PUZZLES_NVCC_BUILD=str(BUILD), CUDA_CPU_LOOP_REPORT="1"),
                                   capture_output=True, text=True, timeout=600)
            self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
            for kernel in ["last_warp_sum_global", "last_warp_sum_shared", "neighbour_after_volatile_write"]:
                self.assertRegex(built.stderr, rf"block loops: \S*{kernel}\S* \(launched through its address\): fibers "
                                               r"\(volatile accesses, where the lanes of a warp keep in step\)")
            for model in ["fibers", "loops"]:
                done = subprocess.run([str(binary)], env=dict(os.environ, PUZZLES_CPU_EXECUTION_MODEL=model),
                                      capture_output=True, text=True, timeout=600)
                self.assertEqual(done.returncode, 1, model + ": " + done.stdout + done.stderr)  # the race
                self.assertEqual(done.stdout, "shared memory: 48 of 48 sums right\nglobal memory: 48 of 48 sums right\n"
                                              "neighbours' words seen after the write: 32 of 32\n", model)

    def test_a_program_whose_kernels_differ_between_nvccs_passes_runs_the_device_pass_on_both_models(self):
        """A kernel with a barrier and code under #ifdef __CUDA_ARCH__: the host pass's copy,
        made into loops, would run its own code (it once did: "arch -1")."""
        require_pass()
        with tempfile.TemporaryDirectory() as folder:
            binary = self.build_program(folder, "device_pass_barrier.cu", "-arch=sm_90")
            for model in ["fibers", "loops"]:
                done = subprocess.run([str(binary)], env=dict(os.environ, PUZZLES_CPU_EXECUTION_MODEL=model),
                                      capture_output=True, text=True, timeout=600)
                self.assertEqual((done.returncode, done.stdout), (0, "arch 900\n"), model + ": " + done.stderr)
        # checker/run builds it the same way (checker/program).
        done = subprocess.run([str(ROOT / "checker" / "run"), str(HERE / "device_pass_barrier.cu")],
                              env=dict(os.environ, PROGRAM_BUILD_DIR=str(BUILD), NO_COLOR="1"), capture_output=True,
                              text=True, timeout=600)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("arch 900", done.stdout)

    def test_a_model_the_engine_does_not_know_is_refused(self):
        require_pass()
        env = dict(os.environ, PUZZLES_CPU_EXECUTION_MODEL="threads")
        done = subprocess.run([str(BIN / "p04_tiled_solution"), "--backend=cpu", "--quick"], env=env,
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        self.assertIn('PUZZLES_CPU_EXECUTION_MODEL=threads: expected "loops" or "fibers"', done.stdout + done.stderr)


if __name__ == "__main__":
    run_tests([a if a.startswith("-") or "." in a else "ExecutionModels." + a for a in sys.argv[1:]], verbosity=2)

#!/usr/bin/env python3
"""checker/nvcc, nvcc's command line for the CPU backend (docs/programs.md): a project of several
files built by its own Makefile with NVCC=checker/nvcc and by its CMakeLists.txt with
`cmake -C checker/nvcc.cmake`, as its authors build it with nvcc, and the options nvcc's users pass. tests/programs/CMakeLists.txt registers one CTest test per method:

    PROGRAM_BUILD_DIR=build/cpu-only python3 tests/programs/test_nvcc_driver.py <method>

PROGRAM_BUILD_DIR is a configured, built build of the course whose engine the programs link.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
NVCC = ROOT / "checker" / "nvcc"
sys.path.insert(0, str(ROOT / "checker" / "cli"))

from course import device_pass, nvcc_args  # noqa: E402


def run(command, cwd, **env):
    return subprocess.run([str(w) for w in command], cwd=cwd, env=dict(os.environ, NO_COLOR="1", **env),
                          capture_output=True, text=True, timeout=600)


class Project(unittest.TestCase):
    """tests/programs/project: two .cu files compiled with -dc (one calls the other's __device__
    function), host code in main.cpp, dependency files, built by its Makefile."""

    def setUp(self):
        self.folder = Path(tempfile.mkdtemp(prefix="nvcc-project-"))
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)
        shutil.copytree(HERE / "project", self.folder / "project")
        self.project = self.folder / "project"

    def make(self, *args, **env):
        return run(["make", f"NVCC={NVCC}", *args], self.project, **env)

    def test_a_makefile_project_builds_runs_and_checks_every_launch(self):
        built = self.make()
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        app = run([self.project / "app"], self.project)
        self.assertEqual(app.returncode, 0, app.stdout + app.stderr)
        self.assertIn("saxpy and 10 integer intrinsics: 0 wrong", app.stdout)
        self.assertIn("2 launches, no findings.", app.stderr)
        # The dependency files name the objects as the Makefile does: a changed header is seen.
        self.assertEqual(self.make("-q").returncode, 0)
        self.touch("vector_ops.cuh")
        self.assertEqual(self.make("-q").returncode, 1, "make -q saw no change after the header changed")

        # A planted bug (saxpy.cu rebuilt with it): the program says 0 wrong (the stray read
        # changes nothing it checks) and would exit 0; the finding makes its status 1.
        self.touch("saxpy.cu")
        built = self.make("EXTRA=-DPLANT_BUG")
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        app = run([self.project / "app"], self.project)
        self.assertIn("0 wrong", app.stdout)
        self.assertEqual(app.returncode, 1, app.stderr)
        self.assertIn("Out-of-bounds read: thread (104,0) of block (7,0) read dx[1000] at line 7 of saxpy.cu", app.stderr)
        self.assertIn("2 launches; findings or errors in launch 1 (above).", app.stderr)

    def touch(self, name):
        later = time.time() + 2
        os.utime(self.project / name, (later, later))

    def test_a_makefile_that_runs_nvcc_from_path_or_cuda_home(self):
        # Makefiles that say `nvcc` or $(CUDA_HOME)/bin/nvcc: the course build has a folder laid
        # out as a CUDA toolkit, which checker/nvcc names.
        said = run([NVCC, "--print-toolkit-root"], self.folder)
        self.assertEqual(said.returncode, 0, said.stderr)
        cuda_home = Path(said.stdout.strip())
        self.assertTrue((cuda_home / "include" / "cuda_runtime.h").is_file(), cuda_home)
        built = run(["make", "NVCC=nvcc"], self.project, PATH=f"{cuda_home / 'bin'}:{os.environ['PATH']}")
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        self.assertEqual(run([self.project / "app"], self.project).returncode, 0)
        (self.project / "main.o").unlink()
        built = run(["make", f"NVCC={cuda_home / 'bin' / 'nvcc'}", "main.o"], self.project)
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        # A .cpp file compiled by g++ against the toolkit's headers, linked by g++ with -lcudart.
        compiled = run(["g++", "-std=c++17", f"-I{cuda_home / 'include'}", "-I.", "-c", "main.cpp", "-o", "main.o"],
                       self.project)
        self.assertEqual(compiled.returncode, 0, compiled.stderr)
        linked = run(["g++", "-o", "app_gxx", "main.o", "saxpy.o", "device_math.o", f"-L{cuda_home / 'lib64'}",
                      "-lcudart"], self.project)
        self.assertEqual(linked.returncode, 0, linked.stderr)
        app = run([self.project / "app_gxx"], self.project)
        self.assertEqual(app.returncode, 0, app.stdout + app.stderr)
        self.assertIn("2 launches, no findings.", app.stderr)

    def test_a_cmake_project_with_the_cuda_language_builds_with_one_option(self):
        # project(... CUDA), find_package(CUDAToolkit), CUDA::cudart, separable compilation (-dlink):
        # configured with `cmake -C checker/nvcc.cmake`, nothing in the project changed.
        build = self.folder / "build"
        configured = run(["cmake", "-C", ROOT / "checker" / "nvcc.cmake", "-S", self.project, "-B", build,
                          "-G", "Ninja"], self.folder)
        self.assertEqual(configured.returncode, 0, configured.stdout + configured.stderr)
        built = run(["cmake", "--build", build], self.folder)
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        for name in ("app", "app_mixed"):
            app = run([build / name], self.folder)
            self.assertEqual(app.returncode, 0, name + ": " + app.stdout + app.stderr)
            self.assertIn("saxpy and 10 integer intrinsics: 0 wrong", app.stdout)
            self.assertIn("2 launches, no findings.", app.stderr)
        # The planted bug, by reconfiguring the same build.
        configured = run(["cmake", "-DPLANT_BUG=ON", build], self.folder)
        self.assertEqual(configured.returncode, 0, configured.stdout + configured.stderr)
        built = run(["cmake", "--build", build], self.folder)
        self.assertEqual(built.returncode, 0, built.stdout + built.stderr)
        app = run([build / "app"], self.folder)
        self.assertEqual(app.returncode, 1, app.stdout + app.stderr)
        self.assertIn("read dx[1000] at line 7 of saxpy.cu", app.stderr)


class Commands(unittest.TestCase):
    """One command line each: what nvcc's options do here, and what the driver refuses."""

    def setUp(self):
        self.folder = Path(tempfile.mkdtemp(prefix="nvcc-commands-"))
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)
        for name in ("device_math.cu", "saxpy.cu", "main.cpp", "vector_ops.cuh"):
            shutil.copy(HERE / "project" / name, self.folder)

    def nvcc(self, *args):
        return run([NVCC, *args], self.folder)

    def test_compile_and_link_in_one_command_and_refusals(self):
        done = self.nvcc("-o", "bin/app", "-rdc=true", "-gencode", "arch=compute_90a,code=sm_90a",
                         "-Xcompiler", "-Wall,-Wextra", "device_math.cu", "saxpy.cu", "main.cpp")
        self.assertEqual(done.returncode, 0, done.stderr)
        app = run([self.folder / "bin" / "app"], self.folder)
        self.assertEqual(app.returncode, 0, app.stdout + app.stderr)
        self.assertIn("0 wrong", app.stdout)
        # A static library with -lib, linked with -L and -l.
        done = self.nvcc("-lib", "-o", "lib/libvectors.a", "device_math.cu", "saxpy.cu")
        self.assertEqual(done.returncode, 0, done.stderr)
        done = self.nvcc("-o", "app2", "main.cpp", "-Llib", "-lvectors")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(run([self.folder / "app2"], self.folder).returncode, 0)
        # -M alone: the dependencies on stdout, under the object's name, no object written.
        done = self.nvcc("-M", "saxpy.cu", "-I.")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(done.stdout.startswith("saxpy.o: "), done.stdout)
        self.assertIn("vector_ops.cuh", done.stdout)
        self.assertFalse((self.folder / "saxpy.o").exists())

        refusals = [
            (["--frobnicate", "saxpy.cu"], 2, "checker/nvcc: unknown option '--frobnicate'"),
            (["-ptx", "saxpy.cu"], 2, "-ptx asks for PTX output, which the CPU backend does not produce"),
            (["-shared", "-o", "libv.so", "saxpy.cu", "device_math.cu"], 2,
             "-shared asks for a shared library, which the CPU backend does not produce"),
            (["-c", "-o", "x.o", "saxpy.cu", "device_math.cu"], 2, "-o with -c names one object"),
            (["-o", "app3", "main.cpp", "saxpy.cu", "device_math.cu", "-lcufft"], 125,
             "checker/nvcc: not supported: -lcufft"),
            (["no_such_file.cu"], 2, "no_such_file.cu: no such file"),
            (["-c", "saxpy.cu", "-o", "/proc/no_such_folder/saxpy.o"], 2, "checker/nvcc: cannot write or read"),
            (["notes.txt"], 2, "checker/nvcc reads .cu, .cpp, .cc, .cxx, .c, .o and .a files"),
            ([], 2, "checker/nvcc: no input files"),
        ]
        for args, status, message in refusals:
            with self.subTest(args=args):
                done = self.nvcc(*args)
                self.assertEqual(done.returncode, status, done.stderr)
                self.assertIn(message, done.stderr)
                self.assertNotIn("Traceback", done.stderr)
        done = self.nvcc("--version")
        self.assertEqual(done.returncode, 0)
        self.assertIn("release 12.8", done.stdout)

    def test_a_file_that_tests_cuda_arch_is_compiled_as_both_passes_for_its_architecture(self):
        shutil.copy(HERE / "device_pass.cu", self.folder)
        shutil.copytree(HERE / "include", self.folder / "include")
        # The device pass is for the architecture the build names (Options: which one is chosen).
        done = self.nvcc("-arch=sm_80", "-DCUDA_ARCH_EXPECTED=800", "-o", "app", "device_pass.cu")
        self.assertEqual(done.returncode, 0, done.stderr)
        app = run([self.folder / "app"], self.folder)
        self.assertIn("device pass: 0 failed expectations", app.stdout, app.stderr)
        self.assertEqual(app.returncode, 0)
        # Two files with a static kernel of the same name, each kept for the device pass: each
        # file's launches run its own.
        for name, value in (("first", 1), ("second", 2)):
            (self.folder / f"{name}.cu").write_text(
                f"static __global__ void hidden(int* out) {{\n#ifdef __CUDA_ARCH__\n  *out = {value};\n#endif\n}}\n"
                f"void launch_{name}(int* out) {{ hidden<<<1, 1>>>(out); cudaDeviceSynchronize(); }}\n")
        (self.folder / "two.cpp").write_text(
            "#include <cstdio>\n#include <cuda_runtime.h>\n"
            "void launch_first(int*); void launch_second(int*);\n"
            "int main() { int* out; cudaMallocManaged(&out, sizeof *out); *out = 0; launch_first(out);\n"
            "  int first = *out; launch_second(out); std::printf(\"%d %d\\n\", first, *out); }\n")
        done = self.nvcc("-o", "two", "first.cu", "second.cu", "two.cpp")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("note:", done.stderr)
        app = run([self.folder / "two"], self.folder)
        self.assertEqual(app.stdout, "1 2\n", app.stderr)

    def test_warp_functions_without_sync_exist_for_the_architectures_cuda_declares_them_for(self):
        shutil.copy(HERE / "legacy_warp.cu", self.folder)
        shutil.copytree(HERE / "include", self.folder / "include")
        done = self.nvcc("-arch=sm_60", "-o", "app", "legacy_warp.cu")
        self.assertEqual(done.returncode, 0, done.stderr)
        app = run([self.folder / "app"], self.folder)
        self.assertIn("legacy warp functions: 0 failed expectations", app.stdout, app.stderr)
        self.assertEqual(app.returncode, 0)
        # For sm_70 and newer nvcc declares none of them: the compile stops, naming the replacement.
        done = self.nvcc("-arch=sm_70", "-c", "legacy_warp.cu")
        self.assertEqual(done.returncode, 1, done.stderr)
        for name, replacement in (("__shfl_xor", "__shfl_xor_sync(mask, var, laneMask)"),
                                  ("__ballot", "__ballot_sync(mask, predicate)")):
            self.assertIn(f"{name} has no _sync: CUDA removed it for sm_70 and newer", done.stderr)
            self.assertIn(f"Use {replacement}", done.stderr)
        self.assertIn("legacy_warp.cu:", done.stderr)  # the call's line, in the program's file

    def test_a_compile_error_is_the_compilers_line_and_exit_1(self):
        (self.folder / "broken.cu").write_text("__global__ void k(int* p) { p[0] = missing; }\n")
        done = self.nvcc("-c", "broken.cu")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("broken.cu:1:36: error: use of undeclared identifier 'missing'", done.stderr)


class Options(unittest.TestCase):
    """nvcc's spellings of each option, read into the same facts (no build)."""

    def parse(self, *words):
        return nvcc_args.parse(list(words), "/work")

    def test_nvccs_spellings_of_each_option(self):
        # The device pass's __CUDA_ARCH__: the newest architecture named that an sm_90 runs, the
        # oldest named where none is, nvcc's default (sm_52) where the build names none.
        for words, arch in ((["-arch=sm_80"], 800), (["-arch", "compute_75"], 750),
                            (["-gencode", "arch=compute_90,code=sm_90", "-gencode", "arch=compute_100,code=sm_100"], 900),
                            (["--generate-code=arch=compute_90a,code=[compute_90a,sm_90a]"], 900),
                            (["-arch=native"], 900), (["-arch=sm_100"], 1000), ([], 520)):
            noted = self.parse(*words, "a.cu").noted
            self.assertEqual(device_pass.architecture(noted, "52"), arch, words)

        for words in (["-I", "inc"], ["-Iinc"], ["--include-path", "inc"], ["--include-path=inc"]):
            self.assertEqual(self.parse(*words, "a.cu").includes, ["inc"], words)
        inv = self.parse("-DN=4", "-D", "FAST", "--define-macro=M", "-UDEBUG", "-isystem", "sys", "a.cu")
        self.assertEqual((inv.defines, inv.undefines, inv.system_includes), (["N=4", "FAST", "M"], ["DEBUG"], ["sys"]))
        inv = self.parse("-c", "-o", "a.o", "-O3", "-std=c++17", "-Xcompiler", "-fopenmp,-Wall", "a.cu")
        self.assertEqual((inv.phase, inv.output, inv.optimize, inv.std), ("compile", "a.o", "3", "c++17"))
        self.assertEqual(inv.host_options, ["-fopenmp", "-Wall"])
        inv = self.parse("-dc", "-x", "cu", "-arch=sm_80", "-gencode", "arch=compute_90a,code=sm_90a",
                         "--gpu-architecture=sm_70", "-Xptxas", "-v", "-lineinfo", "-G", "-Werror=all-warnings",
                         "--expt-relaxed-constexpr", "-Wno-deprecated-gpu-targets", "-rdc=true", "a.cpp")
        self.assertEqual(inv.phase, "compile")
        self.assertEqual(inv.inputs[0][1], nvcc_args.CU)  # -x cu: the .cpp file is CUDA
        self.assertEqual(len(inv.noted), 10, inv.noted)
        inv = self.parse("-o", "app", "a.o", "-lcudart", "-lcuda", "-lm", "-L", "lib", "-Xlinker", "-rpath,/x")
        self.assertEqual((inv.phase, inv.libraries, inv.library_paths), ("link", ["m"], ["lib"]))
        self.assertEqual(inv.linker_options, ["-rpath", "/x"])
        inv = self.parse("-c", "-MD", "-MF", "a.d", "-MT", "obj/a.o", "-MP", "a.cu")
        self.assertEqual((inv.phase, inv.deps, inv.deps_file, inv.deps_targets, inv.deps_phony),
                         ("compile", "M", "a.d", ["obj/a.o"], True))
        self.assertEqual(self.parse("-MM", "a.cu").phase, "deps")
        with self.assertRaises(nvcc_args.UsageError):
            self.parse("-I")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    name = sys.argv[1]
    suite = unittest.TestSuite()
    for case in (Project, Commands, Options):
        if hasattr(case, name):
            suite.addTest(case(name))
    if not suite.countTestCases():
        print(f"no test called {name}", file=sys.stderr)
        sys.exit(2)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)

"""The student's command line, used as a student uses it, on the fixture's copy of the course.

Each test starts from a handout's state: the stubs in puzzles/, no progress, no hints shown,
no backups. Run one with: python3 test_workflow.py <test name> (CTest does; see CMakeLists.txt).
CLI_WORK names the fixture's folder (fixture.py). A test that cannot run here exits 77.
"""
import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time
import unittest
from pathlib import Path

WORK = Path(os.environ.get("CLI_WORK", "")).resolve() if os.environ.get("CLI_WORK") else None
COPY = WORK / "src" if WORK else None
ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
SKIP = 77


def puzzle_ids():
    return sorted(p.stem for p in (COPY / "checker" / "specs").glob("p*.json"))


def plain(text):
    return ESCAPE.sub("", text).replace("\r\n", "\n")


def student_env(**extra):
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.update(PRESET="cpu-only", LC_ALL="C.UTF-8",
               # git must not find the repository the copy sits in: the copy is a handout
               GIT_CEILING_DIRECTORIES=str(WORK))
    env.update(extra)
    return env


def cli(*args, env=None, cwd=None):
    """checker/run in the copy, as a student types it; (exit status, stdout + stderr)."""
    root = Path(cwd) if cwd else COPY
    result = subprocess.run([str(root / "checker" / "run"), *args], cwd=root, env=env or student_env(),
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    return result.returncode, result.stdout + result.stderr


def kernel_body(text, name):
    """(start, end) offsets of a kernel's body: after its '{', before its matching '}'."""
    match = re.search(r"__global__[^;{]*?\b" + name + r"\s*\([^)]*\)[^{;]*\{", text)
    depth, i = 1, match.end()
    while depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return match.end(), i - 1


def solve(puzzle_id, kernel):
    """What a student does: copies the solution's kernel body into the stub, and saves the way
    many editors do (a new file renamed over the old one)."""
    stub_path = COPY / "puzzles" / f"{puzzle_id}.cu"
    stub = stub_path.read_text()
    solution = (COPY / "solutions" / f"{puzzle_id}.cu").read_text()
    s0, s1 = kernel_body(stub, kernel)
    r0, r1 = kernel_body(solution, kernel)
    temporary = stub_path.with_name(stub_path.name + ".swp")
    temporary.write_text(stub[:s0] + solution[r0:r1] + stub[s1:])
    os.replace(temporary, stub_path)


class Terminal:
    """A command in a pseudo-terminal, the way a student's terminal runs it."""

    def __init__(self, *args, env=None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(COPY)
            os.execve(str(COPY / "checker" / "run"), ["checker/run", *args], env or student_env())
        self.output = ""
        self.status = None

    def expect(self, pattern, timeout=60):
        """Reads until the output (from the start) matches; returns the match."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, plain(self.output))
            if found:
                return found
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(left):
                raise AssertionError(f"no {pattern!r} in the terminal:\n{plain(self.output)[-3000:]}")

    def _read(self, timeout):
        if not select.select([self.fd], [], [], min(timeout, 1.0))[0]:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            return False
        self.output += chunk.decode("utf-8", errors="replace")
        return bool(chunk)

    def type(self, keys):
        os.write(self.fd, keys.encode())

    def mark(self):
        """Forgets what was read so far: expect() then looks only at what comes next."""
        self.output = ""

    def wait(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                self.attributes = termios.tcgetattr(self.fd)
                while self._read(0.2):
                    pass
                return self.status
            self._read(0.2)
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError(f"still running after {timeout} s:\n{plain(self.output)[-2000:]}")

    def close(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


class StudentWorkflow(unittest.TestCase):
    def setUp(self):
        if COPY is None or not (COPY / "checker" / "run").exists():
            self.skipTest("CLI_WORK does not name the fixture's copy (run the tests through CTest)")
        if not (COPY / "solutions").exists() and not (COPY / "solutions.hidden").exists():
            self.skipTest("this copy of the course has no solutions/ (a student handout): the tests "
                          "solve puzzles with them")
        # A handout's state: the stubs, no state, no backups, no kept stubs.
        hidden = COPY / "solutions.hidden"
        if hidden.exists():
            hidden.rename(COPY / "solutions")
        for original in (WORK / "stubs").glob("*.cu"):  # fixture.py keeps them
            stub = COPY / "puzzles" / original.name
            if not stub.exists() or stub.read_bytes() != original.read_bytes():
                shutil.copyfile(original, stub)
        for path in ("backups", "build/pristine", "build/logs"):
            shutil.rmtree(COPY / path, ignore_errors=True)
        for path in ("build/course-state.json",):
            (COPY / path).unlink(missing_ok=True)
        self.terminals = []

    def tearDown(self):
        for terminal in self.terminals:
            terminal.close()
        hidden = COPY / "solutions.hidden"
        if hidden.exists():
            hidden.rename(COPY / "solutions")

    def terminal(self, *args, **kwargs):
        terminal = Terminal(*args, **kwargs)
        self.terminals.append(terminal)
        return terminal

    def state(self):
        path = COPY / "build" / "course-state.json"
        return json.loads(path.read_text())["puzzles"] if path.exists() else {}

    # --- watch mode ------------------------------------------------------------------------

    def test_watch_mode_passes_an_edited_puzzle_and_moves_on(self):
        terminal = self.terminal()  # checker/run with no command
        terminal.expect(r"Watching puzzles/p01_naive\.cu \(inotify|Watching puzzles/p01_naive\.cu \(polling")
        terminal.expect(r"Build: preset cpu-only")
        terminal.expect(r"Puzzle 1 is not solved yet\.[^\n]*\n[^\n]*q quit")
        terminal.mark()
        solve("p01_naive", "matmul_naive")
        terminal.expect(r"Result: 6 of 6 cases passed")
        terminal.expect(r"Puzzle 1 passes\.\nNext: puzzle 2, [^\n]*\(puzzles/p02_single_row_shared\.cu\)\. "
                        r"Press n to start it\.")
        terminal.mark()
        terminal.type("n")
        terminal.expect(r"Watching puzzles/p02_single_row_shared\.cu")
        terminal.expect(rf"Puzzle 2 is not solved yet\.[^\n]*\n\[[^\]]*\] 1/{len(puzzle_ids())} ")
        terminal.mark()
        terminal.type("h")
        terminal.expect(r"Puzzle 2: [^\n]* - hint 1 of \d")
        terminal.type("l")
        terminal.expect(r"1  \S passed\s+p01_naive")
        terminal.type("q")
        self.assertEqual(terminal.wait(), 0)
        self.assertEqual(self.state()["p01_naive"]["status"], "passed")
        self.assertEqual(self.state()["p02_single_row_shared"]["status"], "failing")

    def test_watch_mode_polls_without_inotify_and_leaves_cleanly_on_ctrl_c(self):
        terminal = self.terminal("watch", "3", "--poll", "--backend=cpu")
        terminal.expect(r"Watching puzzles/p03_row_col_shared\.cu \(polling every 0\.3 s\)")
        terminal.expect(r"Puzzle 3 is not solved yet\.[^\n]*\n[^\n]*q quit")
        terminal.mark()
        solve("p03_row_col_shared", "matmul_row_col_shared")
        terminal.expect(r"Puzzle 3 passes\.")
        terminal.expect(r"q quit")
        terminal.type("\x03")  # Ctrl-C
        self.assertEqual(terminal.wait(), 130)
        self.assertIn("Stopped watching.", plain(terminal.output))
        self.assertNotIn("Traceback", plain(terminal.output))
        lflag = terminal.attributes[3]
        self.assertTrue(lflag & termios.ICANON and lflag & termios.ECHO, "the terminal's mode was not restored")

    # --- compile errors ----------------------------------------------------------------------

    def test_a_compile_error_shows_only_the_compilers_messages_about_the_students_file(self):
        path = COPY / "puzzles" / "p04_tiled.cu"
        text = path.read_text().replace("  // FILL ME IN", "  c[0] = total;\n  // FILL ME IN", 1)
        path.write_text(text)
        line = text[:text.index("c[0] = total;")].count("\n") + 1
        status, output = cli("p04", "--backend=cpu")
        self.assertEqual(status, 1, output)
        output = plain(output)
        self.assertIn("puzzles/p04_tiled.cu does not compile:", output)
        self.assertIn(f"puzzles/p04_tiled.cu:{line}:10: error: use of undeclared identifier 'total'\n", output)
        # The line itself, then a caret under `total`, in whichever layout the compiler draws them
        # (clang 19 adds a gutter of line numbers; clang 21 underlines the rest of the name: ^~~~~).
        after = output.split(f"p04_tiled.cu:{line}:10: error:", 1)[1].splitlines()
        source, caret = after[1], after[2]
        self.assertTrue(source.endswith("  c[0] = total;"), after[:3])
        self.assertRegex(caret.rstrip(), r"\^~*$", after[:3])
        self.assertEqual(caret.index("^"), source.index("total"), after[:3])
        self.assertRegex(output, r"1 error\. The compiler's full output: build/logs/p04_tiled\.log")
        for noise in ("FAILED:", "ninja", "clang++", "-fsanitize", "errors generated", "In file included"):
            self.assertNotIn(noise, output)
        self.assertIn("FAILED:", (COPY / "build" / "logs" / "p04_tiled.log").read_text())
        self.assertEqual(self.state()["p04_tiled"]["status"], "compile-error")

    def test_a_changed_kernel_signature_is_reported_at_the_students_declaration(self):
        path = COPY / "puzzles" / "p04_tiled.cu"
        path.write_text(path.read_text().replace("float* c, int n)", "float* c, int n, int m)"))
        status, output = cli("p04", "--backend=cpu")
        self.assertEqual(status, 1, output)
        self.assertRegex(plain(output), r"puzzles/p04_tiled\.cu:\d+:17: error: matmul_tiled must keep its "
                                        r"parameters exactly as given: void\(const float\* a")

    # --- list, hint, state -------------------------------------------------------------------

    def test_a_run_records_its_verdict_in_the_build_tree_and_list_shows_progress(self):
        total = len(puzzle_ids())
        status, output = cli("p01", "--backend=cpu")
        self.assertEqual(status, 1, output)
        self.assertEqual(self.state()["p01_naive"]["status"], "failing")
        self.assertIn("Stuck? checker/run hint 1", output)
        solve("p05_single_block_aat", "single_block_matmul")
        status, output = cli("5", "--backend=cpu")
        self.assertEqual(status, 0, output)
        self.assertIn("checker/run solution 5 shows the reference solution", output)
        before = self.state()["p01_naive"]
        self.assertEqual(cli("p01", "--help")[0], 0)  # no run: no record
        self.assertEqual(self.state()["p01_naive"], before)
        status, output = cli("list", env=student_env(NO_COLOR="1"))
        self.assertEqual(status, 0)
        self.assertNotIn("\x1b[", output)
        self.assertRegex(output, rf"Progress \[[^\]]*\] 1/{total} puzzles passed")
        self.assertRegex(output, r"1  \S failing\s+p01_naive\s+Naive matrix multiplication")
        self.assertRegex(output, r"5  \S passed\s+p05_single_block_aat")
        self.assertRegex(output, r"3  \S not started\s+p03_row_col_shared")
        self.assertIn("Next: puzzle 1, puzzles/p01_naive.cu", output)
        # On a terminal, in colour; the student's files hold no state.
        terminal = self.terminal("list")
        terminal.wait()
        self.assertIn("\x1b[32m", terminal.output)
        self.assertFalse(list((COPY / "puzzles").glob("*.json")))

    def test_hint_gives_one_more_hint_each_time_and_the_last_points_to_the_walkthrough(self):
        hints = json.loads((COPY / "checker" / "specs" / "p04_tiled.json").read_text())["hints"]
        for asked in range(1, len(hints) + 2):
            status, output = cli("hint", "p04_tiled")
            self.assertEqual(status, 0, output)
            shown = min(asked, len(hints))
            self.assertIn(f"hint {shown} of {len(hints)}", output)
            self.assertIn(f"  {shown}.  ", output)
            self.assertNotIn(f"  {shown + 1}.  ", output)
        self.assertIn("docs/p04_tiled.md", output)
        self.assertIn("That was the last hint.", output)
        status, output = cli("hint")  # no puzzle named: the current one
        self.assertIn("Puzzle 1: ", output)
        self.assertIn("hint 1 of", output)

    # --- reset -------------------------------------------------------------------------------

    def test_reset_keeps_a_backup_and_restores_the_stub_outside_a_git_checkout(self):
        path = COPY / "puzzles" / "p02_single_row_shared.cu"
        stub = path.read_text()
        cli("list")  # the first command keeps a copy of the stubs
        work = stub.replace("// FILL ME IN", "int my_work = 42;  // FILL ME IN")
        path.write_text(work)
        status, output = cli("reset", "2")
        self.assertEqual(status, 0, output)
        backup = re.search(r"Saved your file as (backups/p02_single_row_shared\.[\d_-]+\.cu)", output)
        self.assertTrue(backup, output)
        self.assertEqual((COPY / backup.group(1)).read_text(), work)
        self.assertEqual(path.read_text(), stub)
        self.assertIn("build/pristine/p02_single_row_shared.cu", output)
        status, output = cli("reset", "p02")
        self.assertEqual(status, 0)
        self.assertIn("already the stub: nothing to reset", output)
        self.assertEqual(len(list((COPY / "backups").iterdir())), 1)

    def test_reset_restores_the_stub_from_git_in_a_git_checkout(self):
        if not shutil.which("git"):
            self.skipTest("git is not installed (Debian package git)")
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder) / "course"
            for part in ("checker/run", "checker/install-packages", "checker/cli", "checker/specs",
                         "checker/debian-packages.txt", "puzzles"):
                source = COPY / part
                (root / part).parent.mkdir(parents=True, exist_ok=True)
                (shutil.copytree if source.is_dir() else shutil.copy2)(source, root / part)
            git = ["git", "-c", "user.name=Student", "-c", "user.email=student@example.com"]
            for command in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "handout"]):
                subprocess.run(git + command, cwd=root, check=True, capture_output=True)
            path = root / "puzzles" / "p05_single_block_aat.cu"
            stub = path.read_text()
            path.write_text("my attempt\n")
            env = student_env(GIT_CEILING_DIRECTORIES=folder)
            status, output = cli("reset", "5", env=env, cwd=root)
            self.assertEqual(status, 0, output)
            self.assertIn("(from git's HEAD)", output)
            self.assertEqual(path.read_text(), stub)
            self.assertEqual([p.read_text() for p in (root / "backups").iterdir()], ["my attempt\n"])

    # --- solution ----------------------------------------------------------------------------

    def test_solution_refuses_before_a_pass_and_shows_the_diff_after(self):
        status, output = cli("solution", "1")
        self.assertEqual(status, 1)
        self.assertIn("opens once your kernel passes", output)
        self.assertIn("checker/run hint 1", output)
        self.assertNotIn("row * n", output)  # nothing of the solution leaks
        solve("p01_naive", "matmul_naive")
        self.assertEqual(cli("p01", "--backend=cpu")[0], 0)
        status, output = cli("solution", "p01_naive")
        self.assertEqual(status, 0, output)
        self.assertIn("Your kernel is the reference solution, line for line.", output)
        path = COPY / "puzzles" / "p01_naive.cu"
        path.write_text(path.read_text().replace("{\n", "{\n  // my own way\n", 1))
        status, output = cli("solution", "1")
        self.assertIn("- // my own way", plain(output).replace("-   ", "- "))
        self.assertTrue(all(len(line) <= 100 for line in plain(output).splitlines()))
        (COPY / "solutions").rename(COPY / "solutions.hidden")  # a student handout
        status, output = cli("solution", "1")
        self.assertEqual(status, 1)
        self.assertIn("no solutions/p01_naive.cu", output)

    # --- verify and bad arguments ------------------------------------------------------------

    def test_verify_prints_one_table_and_exits_0_only_when_every_puzzle_passes(self):
        ids = puzzle_ids()
        status, output = cli("verify", "--backend=cpu")
        self.assertEqual(status, 1, output)
        rows = re.findall(r"^\s+(\d+)  (p\d\d_\w+)\s+\S (\w[\w ]*?)\s{2,}", plain(output), re.M)
        self.assertEqual([r[1] for r in rows], ids, output)
        self.assertTrue(all(r[2] == "failing" for r in rows), output)
        self.assertIn(f"checker/run p01 shows what is wrong with puzzles/{ids[0]}.cu", output)
        for puzzle_id in ids:
            shutil.copyfile(COPY / "solutions" / f"{puzzle_id}.cu", COPY / "puzzles" / f"{puzzle_id}.cu")
        # Every reference solution over every CPU case takes minutes on 2 cores: --quick runs the
        # small cases, which is what the exit status needs. A generous time limit: a loaded
        # machine must not turn a slow pass into a failure.
        status, output = cli("verify", "--backend=cpu", "--quick", "--timeout=120")
        self.assertEqual(status, 0, output)
        self.assertIn("Every puzzle passes its quick cases.", output)
        self.assertIn(f"{len(ids)}/{len(ids)}", output)
        # A quick pass is not a pass: the state still says failing.
        self.assertEqual({entry["status"] for entry in self.state().values()}, {"failing"})

    def test_bad_arguments_exit_2_with_a_message_and_no_traceback(self):
        cases = [
            (["hint", "99"], "no puzzle called '99'. The puzzles are: p01_naive"),
            (["p99"], "no puzzle called 'p99'"),
            (["reset"], "the following arguments are required: puzzle"),
            (["solution", "tiled"], "no puzzle called 'tiled'"),
            (["watch", "0"], "no puzzle called '0'"),
            (["verify", "--backend=tpu"], "invalid choice: 'tpu'"),
            (["lsit"], "no command called 'lsit'"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                status, output = cli(*args)
                self.assertEqual(status, 2, output)
                self.assertIn(message, output)
                self.assertNotIn("Traceback", output)


class Units(unittest.TestCase):
    """The pieces with no build behind them: compiler messages, the choice of preset."""

    def setUp(self):
        if COPY is None:
            self.skipTest("CLI_WORK does not name the fixture's copy (run the tests through CTest)")
        sys.path.insert(0, str(COPY / "checker" / "cli"))

    def test_compiler_messages_of_clang_and_nvcc_are_reduced_to_the_students_file(self):
        from course import compiler
        student = str(COPY / "puzzles" / "p04_tiled.cu")
        generated = str(COPY / "build" / "default" / "checker" / "kernels" / "p04_tiled_kernel")
        log = f"""[2/5] Building CXX object checker/CMakeFiles/p04_tiled_kernel.dir/kernels/p04_tiled_kernel/cpu.cpp.o
FAILED: checker/CMakeFiles/p04_tiled_kernel.dir/kernels/p04_tiled_kernel/cpu.cpp.o
/usr/bin/clang++ -I{generated} -O2 -c {generated}/cpu.cpp
In file included from {generated}/cpu.cpp:14:
{student}:20:12: error: use of undeclared identifier 'sum'
  c[row] = sum;
           ^
1 error generated.
[3/5] Building CUDA object checker/CMakeFiles/p04_tiled_kernel.dir/kernels/p04_tiled_kernel/gpu.cu.o
FAILED: checker/CMakeFiles/p04_tiled_kernel.dir/kernels/p04_tiled_kernel/gpu.cu.o
/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -x cu -c {generated}/gpu.cu
{student}(19): error: too many arguments in function call
    __syncthreads(1);
                  ^

{student}(20): error: identifier "sum" is undefined
    c[row] = sum;
             ^

2 errors detected in the compilation of "{generated}/gpu.cu".
ninja: build stopped: subcommand failed.
"""
        report = compiler.reduce(log, student)
        self.assertTrue(report.in_student_file)
        # nvcc's second message repeats clang's (same line): one each, in line order.
        self.assertEqual([(d.line, d.col, d.compiler) for d in report.errors], [(19, 17, "nvcc"), (20, 12, "clang")])
        self.assertEqual(report.errors[0].message, "too many arguments in function call")

    def test_a_failure_outside_the_students_file_is_not_blamed_on_it(self):
        from course import compiler
        log = "FAILED: bin/p04_tiled\n/usr/bin/clang++ -o bin/p04_tiled x.o\n/usr/bin/ld: cannot find -lboost_context\n"
        report = compiler.reduce(log, str(COPY / "puzzles" / "p04_tiled.cu"))
        self.assertFalse(report.in_student_file)
        self.assertEqual(report.other_lines, ["/usr/bin/ld: cannot find -lboost_context"])

    def test_the_preset_without_a_gpu_is_cpu_only_with_nvcc_and_default_without(self):
        from course import build
        with tempfile.TemporaryDirectory() as folder:
            fake = Path(folder) / "nvidia-smi"
            nvcc = Path(folder) / "nvcc"
            saved = dict(os.environ)
            try:
                for name in ("PRESET", "CUDACXX", "CUDA_PATH"):
                    os.environ.pop(name, None)
                os.environ["PATH"] = folder  # the fakes alone: no nvcc unless the test makes one
                fake.write_text("#!/bin/sh\necho 'No devices were found'\nexit 6\n")
                fake.chmod(0o755)
                self.assertIsNone(build.cache_value("default", "CMAKE_BUILD_TYPE"), "the copy has no build/default")
                # No GPU and no nvcc: default builds the CPU backend alone, the tree test builds.
                chosen = build.choose_preset()
                self.assertEqual(chosen.name, "default")
                self.assertIn("nvidia-smi lists no GPU", chosen.line())
                # No GPU, but nvcc: cpu-only, so that nvcc compiles nothing no GPU here runs.
                nvcc.write_text("#!/bin/sh\nexit 0\n")
                nvcc.chmod(0o755)
                self.assertEqual(build.choose_preset().name, "cpu-only")
                nvcc.unlink()
                os.environ["CUDACXX"] = str(nvcc) + " --some-flag"
                self.assertEqual(build.choose_preset().name, "cpu-only")
                del os.environ["CUDACXX"]
                self.assertEqual(build.choose_preset("gpu").name, "default")
                fake.write_text("#!/bin/sh\necho 'GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1)'\n")
                self.assertEqual(build.choose_preset().line(), "Build: preset default (GPU: NVIDIA H100 80GB HBM3)")
                os.environ["PRESET"] = "gcc"
                self.assertEqual(build.choose_preset().name, "gcc")
            finally:
                os.environ.clear()
                os.environ.update(saved)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test_workflow.py <test name>")
    name = sys.argv[1]
    for case in (StudentWorkflow, Units):
        if hasattr(case, name):
            result = unittest.TextTestRunner(verbosity=2).run(case(name))
            if result.skipped and result.wasSuccessful():
                print(f"SKIPPED: {result.skipped[0][1]}")
                sys.exit(SKIP)
            sys.exit(0 if result.wasSuccessful() else 1)
    sys.exit(f"no test called {name}")


if __name__ == "__main__":
    main()
